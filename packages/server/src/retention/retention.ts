/**
 * What is deleted when it has been kept long enough (README, "How long data is kept";
 * retention-limits.ts has the numbers).
 *
 * Raw events (event-purge.ts): by default only conversion records (type 'event', with their
 * properties) go, 365 days after they happened and were received; a backdated record (a payment
 * history imported today) is also kept that long from when it was received, so it is attributed
 * and counted in the daily totals before it can go. A site may choose a shorter time for every
 * raw event (`events_retention_days`). Visits and visitors are kept unless the site chooses a
 * time for them (`visits_retention_days`, visit-purge.ts). Rows the visit rollups are built from
 * go only over days whose rollups are built (built-days.query.ts). Daily totals, rollups, attribution
 * credits, payments and identity links stay whatever the settings: reports over older days
 * still read them; only the listing of single conversions and the reports read from single
 * events (properties, visitors) stop reaching further back.
 *
 * Raw crawler hits are kept 90 days by the same rule (from when they happened and were
 * received). The crawler report reads only the daily rollups written with the hits, which stay;
 * AI visibility (ai-visibility/crawler-hits-by-page.query.ts) reads the raw hits to split each
 * page's rollup total by crawler purpose, and counts what they no longer cover as purpose
 * `unknown`. The raw rows are kept for looking into recent days in the database, and the
 * AI crawlers of a busy site send thousands a day, so they must not pile up for ever.
 *
 * Processor event ids (integrations/) are kept 90 days after they arrived, to acknowledge a
 * replay without applying it again. Refunds a processor describes on their own (Paddle's
 * adjustments, `refund:` ids) are kept for good: they add to a payment's refunded total, so a
 * replay of an old one must never count twice, and there are few of them.
 *
 * Counts of refused hits (sites/site-refusals.ts) go after 7 days: the dashboard reads the last
 * hour only.
 *
 * With ClickHouse on, copied pageviews and crawler hits also leave PostgreSQL after
 * `TRAFFIC_PG_RETENTION_DAYS` (copied-traffic-purge.ts); the rules above then apply in ClickHouse
 * too (clickhouse-rules.ts).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { type Clock, DAY_MS } from '../lib/clock.js';
import { deleteOldRefusals } from '../sites/site-refusals.js';
import { clickHouseRetentionRules, type RetentionInClickHouse } from './clickhouse-rules.js';
import { createCopiedTrafficPurge } from './copied-traffic-purge.js';
import { createEventPurge } from './event-purge.js';
import { deleteExpiredCrawlerHits, deleteOldProcessorEvents, listSites } from './retention.store.js';
import { CRAWLER_HIT_RETENTION_DAYS, PROCESSOR_EVENT_RETENTION_DAYS } from './retention-limits.js';
import { createSitePurge } from './site-purge.js';
import { createVisitPurge } from './visit-purge.js';

export {
  CONVERSION_RETENTION_DAYS,
  CRAWLER_HIT_RETENTION_DAYS,
  PROCESSOR_EVENT_RETENTION_DAYS,
} from './retention-limits.js';

export function createRetention({
  db,
  clock,
  clickhouse,
}: {
  db: Kysely<DB>;
  clock: Clock;
  /** With ClickHouse on: how many days copied traffic stays in PostgreSQL, and ClickHouse's deletes. */
  clickhouse?: { pgRetentionDays: number; deletes: RetentionInClickHouse };
}) {
  return {
    /** Copied pageviews and crawler hits, from PostgreSQL only; none without ClickHouse. */
    purgeCopiedTraffic: clickhouse ? createCopiedTrafficPurge(db, clock, clickhouse.pgRetentionDays) : null,
    /** The rules in ClickHouse, for the rows that left PostgreSQL (clickhouse-rules.ts). */
    purgeInClickHouse: clickhouse
      ? async () => {
          const rules = await clickHouseRetentionRules(db, clock.now());
          const finished = rules.length === 0 || (await clickhouse.deletes.applyRetention(rules));
          return { deleted: 0, finished };
        }
      : null,
    /** Raw events under each site's rule: conversion records by default, every type when set. */
    purgeExpiredConversions: createEventPurge(db, clock),
    /** Visits, then visitors, of the sites that set `visits_retention_days`. */
    purgeExpiredVisits: createVisitPurge(db, clock),
    purgeExpiredCrawlerHits: createSitePurge<{ id: string }>({
      clock,
      listSites: (after) => listSites(db, after),
      plan: async (site, now) => {
        const cutoff = new Date(now.getTime() - CRAWLER_HIT_RETENTION_DAYS * DAY_MS);
        return [(limit) => deleteExpiredCrawlerHits(db, site.id, cutoff, limit)];
      },
    }),
    purgeOldProcessorEvents: async ({ batchSize = 1000, maxBatches = 500 } = {}) => {
      const cutoff = new Date(clock.now().getTime() - PROCESSOR_EVENT_RETENTION_DAYS * DAY_MS);
      let deleted = 0;
      for (let batch = 0; batch < maxBatches; batch++) {
        const count = await deleteOldProcessorEvents(db, cutoff, batchSize);
        deleted += count;
        if (count < batchSize) return { deleted, finished: true };
      }
      return { deleted, finished: false };
    },
    purgeOldRefusals: (options?: { batchSize?: number; maxBatches?: number }) =>
      deleteOldRefusals(db, clock.now(), options),
  };
}
