/**
 * What is deleted when it has been kept long enough (README, "How long data is kept").
 *
 * Conversion records (interface §8): an event-type row, with its properties, is kept 365 days
 * from when it happened, then deleted. A backdated record (a payment history imported today) is
 * also kept 365 days from when it was received, so it is attributed and counted in the daily
 * totals before it can go. Pageviews and the rest of the event-grain tables are kept, and so
 * are the daily totals, attribution credits and payments: reports over older days still read
 * them; only the listing of single conversions and the reports read from single events
 * (properties, visitors) stop reaching further back than a year, which is also their longest
 * window.
 *
 * Raw crawler hits are kept 90 days by the same rule (from when they happened and were
 * received). The crawler report reads only the daily rollups written with the hits, which stay;
 * AI visibility (ai-visibility/crawler-hits-by-page.query.ts) reads the raw hits to split each
 * page's rollup total by crawler purpose, and counts what they no longer cover as purpose
 * `unknown`. The raw rows are kept for looking into recent days in the database, and the
 * AI crawlers of a busy site send thousands a day, so they must not pile up for ever.
 *
 * Both purges go through the indexes on (site_id, occurred_at) of their tables.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import { createSitePurge } from './site-purge.js';

export const CONVERSION_RETENTION_DAYS = 365;
export const CRAWLER_HIT_RETENTION_DAYS = 90;

export function createRetention({ db, clock }: { db: Kysely<DB>; clock: Clock }) {
  return {
    purgeExpiredConversions: createSitePurge({
      db,
      clock,
      table: 'events',
      key: 'event_id',
      only: sql`type = 'event'`,
      retentionDays: CONVERSION_RETENTION_DAYS,
    }),
    purgeExpiredCrawlerHits: createSitePurge({
      db,
      clock,
      table: 'crawler_hits',
      key: 'id',
      retentionDays: CRAWLER_HIT_RETENTION_DAYS,
    }),
  };
}
