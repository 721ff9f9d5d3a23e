/**
 * The raw events purge, under each site's rule: with `events_retention_days` set, every event
 * (all four types) goes once both when it happened and when it was received are that many days
 * old; without it, conversion records (type 'event') go after CONVERSION_RETENTION_DAYS and the
 * rest stays. Rows the visit rollups are built from (pageviews, and anything of a visit, whose
 * custom events decide its bounce) go only over built days (built-days.query.ts), and conversions only
 * once their day's goal rollups are built. One type at a time,
 * so each statement walks that type's index on (site_id, occurred_at).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { type Clock, DAY_MS } from '../lib/clock.js';
import { findBuiltDays, onBuiltDays } from './built-days.query.js';
import { deleteSiteRows, expiredEvents, listSitesWithEventRule } from './retention.store.js';
import { CONVERSION_RETENTION_DAYS } from './retention-limits.js';
import { createSitePurge, type PurgePhase } from './site-purge.js';

const EVENT_TYPES = ['pageview', 'event', 'identify', 'engagement'] as const;

interface SiteRule {
  id: string;
  events_retention_days: number | null;
}

/** The types a site's rule expires, and after how many days. */
export function eventRule(site: SiteRule): { types: readonly string[]; days: number } {
  if (site.events_retention_days === null) return { types: ['event'], days: CONVERSION_RETENTION_DAYS };
  return { types: EVENT_TYPES, days: site.events_retention_days };
}

export function createEventPurge(db: Kysely<DB>, clock: Clock) {
  return createSitePurge<SiteRule>({
    clock,
    listSites: (after) => listSitesWithEventRule(db, after),
    plan: async (site, now) => {
      const { types, days } = eventRule(site);
      const cutoff = new Date(now.getTime() - days * DAY_MS);
      const builtRows = onBuiltDays(await findBuiltDays(db, site.id), 'occurred_at');
      return types.map((type): PurgePhase => {
        const where = expiredEvents(type, cutoff, builtRows);
        return (limit) => deleteSiteRows(db, { table: 'events', key: 'event_id' }, site.id, where, limit);
      });
    },
  });
}
