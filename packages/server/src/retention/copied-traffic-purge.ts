/**
 * PostgreSQL kept short (DESIGN.md §13): with ClickHouse on, raw pageviews, identify and
 * engagement events and raw crawler hits leave PostgreSQL `TRAFFIC_PG_RETENTION_DAYS` after they
 * happened and arrived, once copied to ClickHouse, which keeps them under the site's own rule.
 * Pageviews and events of a visit go only over built days, as the event purge's do
 * (built-days.query.ts): the rollups read from PostgreSQL are built from them.
 *
 * What stays whatever the setting: conversion records (custom events carry the money and the
 * properties that payments, goals, webhooks and attribution read, and money is never read from
 * ClickHouse), visits (payments are matched to a visit up to 30 days back, and attribution
 * credits a person's visits again when identity links merge them), visitors and identity links.
 * They are a small part of the traffic; pageviews are most of it.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { type Clock, DAY_MS } from '../lib/clock.js';
import { findBuiltDays, onBuiltDays } from './built-days.query.js';
import {
  deleteCopiedRows,
  expiredCrawlerHits,
  expiredEvents,
  listSites,
  pgHoldsFromByStream,
  publishPgHoldsFrom,
  withoutValue,
} from './retention.store.js';
import {
  createSitePurge,
  type PurgePhase,
  type RetentionRun,
  type RetentionRunOptions,
} from './site-purge.js';

/** The event types that leave PostgreSQL once copied. */
export const COPIED_EVENT_TYPES = ['pageview', 'identify', 'engagement'] as const;

/**
 * Each run first reads when PostgreSQL was said to hold the streams from, then says it holds
 * them from this run's cutoff on, and deletes only rows before the earlier of the two. A report
 * that checked the older moment (reporting/clickhouse/ch-read.ts) and reads PostgreSQL meanwhile
 * finds every row of its range: none of them goes before a later run, an hour on. The first run
 * deletes nothing.
 */
export function createCopiedTrafficPurge(db: Kysely<DB>, clock: Clock, days: number) {
  let before: Record<'events' | 'crawler_hits', Date | null> = { events: null, crawler_hits: null };
  const walk = createSitePurge<{ id: string }>({
    clock,
    listSites: (after) => listSites(db, after),
    plan: async (site) => {
      const phases: PurgePhase[] = [];
      const events = before.events;
      if (events) {
        const builtRows = onBuiltDays(await findBuiltDays(db, site.id), 'occurred_at');
        for (const type of COPIED_EVENT_TYPES) {
          const where = withoutValue(expiredEvents(type, events, builtRows));
          phases.push((limit) => deleteCopiedRows(db, 'events', site.id, where, limit));
        }
      }
      const hits = before.crawler_hits;
      if (hits)
        phases.push((limit) =>
          deleteCopiedRows(db, 'crawler_hits', site.id, expiredCrawlerHits(hits), limit),
        );
      return phases;
    },
  });
  return async (options?: RetentionRunOptions): Promise<RetentionRun> => {
    const cutoff = new Date(clock.now().getTime() - days * DAY_MS);
    const held = await pgHoldsFromByStream(db);
    // The earlier of the two: a longer TRAFFIC_PG_RETENTION_DAYS keeps what it now covers.
    const earlier = (at: Date | null) => at && new Date(Math.min(at.getTime(), cutoff.getTime()));
    before = { events: earlier(held.events), crawler_hits: earlier(held.crawler_hits) };
    await publishPgHoldsFrom(db, cutoff);
    return walk(options);
  };
}
