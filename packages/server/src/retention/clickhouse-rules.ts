/**
 * The retention rules ClickHouse applies itself (clickhouse/deletions.query.ts
 * `deleteExpiredRows`). A row PostgreSQL still holds is deleted there by the purges, and the
 * delete reaches ClickHouse through the queue of migration 037; copied pageviews and crawler
 * hits that already left PostgreSQL (copied-traffic-purge.ts) are found only here. So the rules
 * reach back only before the moment PostgreSQL holds each stream from.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { DAY_MS } from '../lib/clock.js';
import { COPIED_EVENT_TYPES } from './copied-traffic-purge.js';
import { listSitesWithEventRule, pgHoldsFromByStream } from './retention.store.js';
import { CRAWLER_HIT_RETENTION_DAYS } from './retention-limits.js';

export interface ClickHouseRetentionRule {
  stream: 'events' | 'crawler_hits';
  /** One site's rows, or every site's. */
  siteId: string | null;
  types?: readonly string[];
  /** Rows that both happened and arrived before this go. */
  cutoff: Date;
}

/** ClickHouse's side of the purges: it answers whether it applied the rules (false: try later). */
export interface RetentionInClickHouse {
  applyRetention(rules: ClickHouseRetentionRule[]): Promise<boolean>;
}

const earlier = (a: Date, b: Date) => (a < b ? a : b);

export async function clickHouseRetentionRules(
  db: Kysely<DB>,
  now: Date,
): Promise<ClickHouseRetentionRule[]> {
  const holds = await pgHoldsFromByStream(db);
  const rules: ClickHouseRetentionRule[] = [];
  const hitsFrom = holds.crawler_hits;
  if (hitsFrom) {
    const cutoff = new Date(now.getTime() - CRAWLER_HIT_RETENTION_DAYS * DAY_MS);
    rules.push({ stream: 'crawler_hits', siteId: null, cutoff: earlier(cutoff, hitsFrom) });
  }
  const eventsFrom = holds.events;
  if (eventsFrom) {
    for (const site of await listSitesWithEventRule(db, null)) {
      if (site.events_retention_days === null) continue;
      const cutoff = new Date(now.getTime() - site.events_retention_days * DAY_MS);
      rules.push({
        stream: 'events',
        siteId: site.id,
        types: COPIED_EVENT_TYPES,
        cutoff: earlier(cutoff, eventsFrom),
      });
    }
  }
  return rules;
}
