/**
 * Crawler-hit reports from the middleware: each user agent classified once, here; the batch
 * joins the others in a group commit and is answered after it is written. IP addresses may be
 * sent but are not stored (checking them against operators' published ranges is not done yet).
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { isDataError } from '../db/errors.js';
import type { DB } from '../db/types.js';
import { AppError } from '../http/errors.js';
import { GroupCommitter } from '../ingest/group-commit.js';
import type { Clock } from '../lib/clock.js';
import { storableText } from '../lib/storable-text.js';
import { classifyCrawler } from './classify-crawler.js';

export interface CrawlerHitInput {
  user_agent: string;
  path: string;
  status?: number;
  timestamp?: string;
}

type Batch = { siteId: string; hits: CrawlerHitInput[] };
type Outcome = 'recorded' | 'site_deleted';

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

export function createCrawlerHitsService({ db, clock }: { db: Kysely<DB>; clock: Clock }) {
  const committer = new GroupCommitter<Batch, Outcome>(
    (batches) =>
      db.transaction().execute(async (trx) => {
        const siteIds = [...new Set(batches.map((batch) => batch.siteId))];
        const sites = await trx
          .selectFrom('sites')
          .select(['id', 'deleted_at'])
          .where('id', 'in', siteIds)
          .execute();
        const live = new Set(sites.filter((site) => site.deleted_at === null).map((site) => site.id));
        const now = clock.now();
        const rows = batches.flatMap((batch) =>
          live.has(batch.siteId)
            ? batch.hits.map((hit) => ({
                site_id: batch.siteId,
                id: randomUUID(),
                ...classifyCrawler(storableText(hit.user_agent)),
                path: pathOf(storableText(hit.path)),
                status: hit.status ?? null,
                occurred_at: hit.timestamp ? new Date(hit.timestamp) : now,
                received_at: now,
              }))
            : [],
        );
        for (let start = 0; start < rows.length; start += 1000) {
          await trx
            .insertInto('crawler_hits')
            .values(rows.slice(start, start + 1000))
            .execute();
        }
        const daily = new Map<
          string,
          { site_id: string; day: string; crawler: string; operator: string; purpose: string; hits: number }
        >();
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
          };
          entry.hits += 1;
          daily.set(key, entry);
        }
        if (daily.size > 0) {
          await trx
            .insertInto('daily_crawler_hits')
            .values([...daily.values()])
            .onConflict((oc) =>
              oc
                .columns(['site_id', 'day', 'crawler'])
                .doUpdateSet({ hits: sql`daily_crawler_hits.hits + excluded.hits` }),
            )
            .execute();
        }
        return batches.map((batch) => (live.has(batch.siteId) ? 'recorded' : 'site_deleted'));
      }),
    { maxBatch: 100, maxWaitMs: 4, isItemError: isDataError },
  );

  return {
    async record(siteId: string, hits: CrawlerHitInput[]): Promise<number> {
      let outcome: Outcome;
      try {
        outcome = await committer.submit({ siteId, hits });
      } catch (error) {
        throw new AppError(503, 'unavailable', 'Could not record the hits; retry', {}, error);
      }
      if (outcome === 'site_deleted') {
        throw new AppError(
          429,
          'quota_exceeded',
          'This site is scheduled for deletion; collection is suspended',
        );
      }
      return hits.length;
    },
    drain: () => committer.drain(),
  };
}

export type CrawlerHitsService = ReturnType<typeof createCrawlerHitsService>;
