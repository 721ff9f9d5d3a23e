/**
 * Crawler-hit reports from the middleware: each user agent classified once, here; the batch
 * joins the others in a group commit and is answered after it is written. An IP address, when
 * sent, is checked against the ranges the crawler's operator publishes (crawler-ranges.ts) and
 * dropped: only the outcome is stored, and a spoofed hit counts apart from the crawler's hits.
 * Email addresses and phone numbers in a path's query string are redacted like page URLs.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { isDataError } from '../db/errors.js';
import type { DB } from '../db/types.js';
import { AppError, badInput, unauthorized } from '../http/errors.js';
import { type Clock, HOUR_MS } from '../lib/clock.js';
import { GroupCommitter } from '../lib/group-commit.js';
import { redactUrl } from '../lib/redact.js';
import { storableText } from '../lib/storable-text.js';
import { siteSuspended } from '../sites/site-intake.js';
import type { SitesService } from '../sites/sites.service.js';
import { classifyCrawler } from './classify-crawler.js';
import { storeHits } from './crawler-hits.store.js';
import type { CrawlerRanges } from './crawler-ranges.js';

export interface CrawlerHitInput {
  user_agent: string;
  path: string;
  status?: number;
  timestamp?: string;
  ip?: string;
}

/** As on the other ingest routes: a hit may be dated at most this far ahead of the server. */
const MAX_FUTURE_MS = 24 * HOUR_MS;

/** `siteKey` is the snippet key the sender says it reports for, when it says so. */
type Batch = { siteId: string; siteKey?: string; hits: CrawlerHitInput[] };
type Outcome = 'recorded' | 'site_deleted' | 'wrong_site';

/** Keeps the path and query of a full URL; a bare path stays as sent. */
function pathOf(raw: string): string {
  if (raw.startsWith('/')) return raw.slice(0, 2048);
  try {
    const url = new URL(raw);
    return (url.pathname + url.search).slice(0, 2048);
  } catch {
    return raw.slice(0, 2048);
  }
}

export function createCrawlerHitsService({
  db,
  clock,
  ranges,
  sites,
}: {
  db: Kysely<DB>;
  clock: Clock;
  ranges: Pick<CrawlerRanges, 'current'>;
  sites: Pick<SitesService, 'readIntakeStates'>;
}) {
  const committer = new GroupCommitter<Batch, Outcome>(
    async (batches) => {
      // Read before the transaction: embedded PGlite has one connection, which it would hold.
      const checkAddress = await ranges.current();
      return db.transaction().execute(async (trx) => {
        const siteIds = [...new Set(batches.map((batch) => batch.siteId))];
        const intake = await sites.readIntakeStates(trx, siteIds);
        const outcomeOf = (batch: Batch): Outcome =>
          batch.siteKey !== undefined && batch.siteKey !== intake.get(batch.siteId)?.snippetKey
            ? 'wrong_site'
            : intake.get(batch.siteId)?.isAccepting
              ? 'recorded'
              : 'site_deleted';
        const now = clock.now();
        const rows = batches.flatMap((batch) =>
          outcomeOf(batch) === 'recorded'
            ? batch.hits.map((hit) => {
                const crawler = classifyCrawler(storableText(hit.user_agent));
                return {
                  site_id: batch.siteId,
                  id: randomUUID(),
                  ...crawler,
                  path: redactUrl(pathOf(storableText(hit.path))),
                  status: hit.status ?? null,
                  occurred_at: hit.timestamp ? new Date(hit.timestamp) : now,
                  received_at: now,
                  verified: checkAddress(crawler.crawler, hit.ip),
                };
              })
            : [],
        );
        await storeHits(trx, rows);
        return batches.map(outcomeOf);
      });
    },
    { maxBatch: 100, maxWaitMs: 4, isItemError: isDataError },
  );

  return {
    /** `siteKey`, when sent, must be the snippet key of the token's site (else 401). */
    async record(siteId: string, hits: CrawlerHitInput[], siteKey?: string): Promise<number> {
      const latest = clock.now().getTime() + MAX_FUTURE_MS;
      hits.forEach((hit, index) => {
        if (hit.timestamp !== undefined && Date.parse(hit.timestamp) > latest)
          throw badInput(`hits.${index}.timestamp`, 'timestamp is more than 24 hours in the future');
      });
      let outcome: Outcome;
      try {
        outcome = await committer.submit({ siteId, siteKey, hits });
      } catch (error) {
        throw new AppError(503, 'unavailable', 'Could not record the hits; retry', {}, error);
      }
      if (outcome === 'wrong_site') throw unauthorized('This bot token reports for another site');
      if (outcome === 'site_deleted') throw siteSuspended();
      return hits.length;
    },
    drain: () => committer.drain(),
  };
}

export type CrawlerHitsService = ReturnType<typeof createCrawlerHitsService>;
