/**
 * Crawler-hit reports from the middleware: each user agent classified once, here; the batch
 * joins the others in a group commit and is answered after it is written. An IP address, when
 * sent, is checked against the ranges the crawler's operator publishes (crawler-ranges.ts) and
 * dropped: only the outcome is stored, and a spoofed hit counts apart from the crawler's hits.
 * Email addresses and phone numbers in a path's query string are redacted like page URLs.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { CrawlerHitsTable, DailyCrawlerHitsTable, DailyCrawlerPathsTable } from '../db/crawler-types.js';
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

/** A status the site answered with that is not a page: a redirect, not-found, an error. */
const isNon2xx = (status: number | null) => status !== null && (status < 200 || status > 299);

/** Adds the batch's hits to daily_crawler_paths, spoofed ones left out, in key order. */
async function addPathHits(
  trx: Transaction<DB>,
  rows: Pick<
    Selectable<CrawlerHitsTable>,
    'site_id' | 'occurred_at' | 'operator' | 'path' | 'status' | 'verified'
  >[],
): Promise<void> {
  const counts = new Map<string, Omit<Selectable<DailyCrawlerPathsTable>, 'path_key'>>();
  for (const row of rows) {
    if (row.verified === false) continue;
    const day = row.occurred_at.toISOString().slice(0, 10);
    const key = JSON.stringify([row.site_id, day, row.operator, row.path]);
    const entry = counts.get(key) ?? {
      site_id: row.site_id,
      day,
      operator: row.operator,
      path: row.path,
      hits: 0,
      non_2xx_hits: 0,
    };
    entry.hits += 1;
    if (isNon2xx(row.status)) entry.non_2xx_hits += 1;
    counts.set(key, entry);
  }
  const entries = [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry);
  for (let start = 0; start < entries.length; start += 1000) {
    await trx
      .insertInto('daily_crawler_paths')
      .values(
        entries
          .slice(start, start + 1000)
          .map((entry) => ({ ...entry, path_key: sql<string>`md5(${entry.path})::uuid` })),
      )
      .onConflict((oc) =>
        oc.columns(['site_id', 'day', 'operator', 'path_key']).doUpdateSet({
          hits: sql`daily_crawler_paths.hits + excluded.hits`,
          non_2xx_hits: sql`daily_crawler_paths.non_2xx_hits + excluded.non_2xx_hits`,
        }),
      )
      .execute();
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
        for (let start = 0; start < rows.length; start += 1000) {
          await trx
            .insertInto('crawler_hits')
            .values(rows.slice(start, start + 1000))
            .execute();
        }
        const daily = new Map<string, Selectable<DailyCrawlerHitsTable>>();
        for (const row of rows) {
          const day = row.occurred_at.toISOString().slice(0, 10);
          const key = `${row.site_id}|${day}|${row.crawler}`;
          const entry = daily.get(key) ?? {
            site_id: row.site_id,
            day,
            crawler: row.crawler,
            operator: row.operator,
            purpose: row.purpose,
            hits: 0,
            verified_hits: 0,
            spoofed_hits: 0,
          };
          if (row.verified === false) entry.spoofed_hits += 1;
          else entry.hits += 1;
          if (row.verified === true) entry.verified_hits += 1;
          daily.set(key, entry);
        }
        if (daily.size > 0) {
          await trx
            .insertInto('daily_crawler_hits')
            .values([...daily.values()])
            .onConflict((oc) =>
              oc.columns(['site_id', 'day', 'crawler']).doUpdateSet({
                hits: sql`daily_crawler_hits.hits + excluded.hits`,
                verified_hits: sql`daily_crawler_hits.verified_hits + excluded.verified_hits`,
                spoofed_hits: sql`daily_crawler_hits.spoofed_hits + excluded.spoofed_hits`,
              }),
            )
            .execute();
        }
        await addPathHits(trx, rows);
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
