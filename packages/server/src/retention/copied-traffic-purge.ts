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
  withoutValue,
} from './retention.store.js';
import { createSitePurge, type PurgePhase } from './site-purge.js';

/** The event types that leave PostgreSQL once copied. */
export const COPIED_EVENT_TYPES = ['pageview', 'identify', 'engagement'] as const;

export function createCopiedTrafficPurge(db: Kysely<DB>, clock: Clock, days: number) {
  return createSitePurge<{ id: string }>({
    clock,
    listSites: (after) => listSites(db, after),
    plan: async (site, now) => {
      const cutoff = new Date(now.getTime() - days * DAY_MS);
      const builtRows = onBuiltDays(await findBuiltDays(db, site.id), 'occurred_at');
      const events = COPIED_EVENT_TYPES.map(
        (type): PurgePhase =>
          (limit) =>
            deleteCopiedRows(
              db,
              'events',
              site.id,
              withoutValue(expiredEvents(type, cutoff, builtRows)),
              cutoff,
              limit,
            ),
      );
      const hits: PurgePhase = (limit) =>
        deleteCopiedRows(db, 'crawler_hits', site.id, expiredCrawlerHits(cutoff), cutoff, limit);
      return [...events, hits];
    },
  });
}
