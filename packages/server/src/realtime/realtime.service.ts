/**
 * `GET /v1/stats/realtime`: who is on the site now (activity in the last 5 minutes: their
 * pages and sources) and a per-minute count of the last 30 minutes. "Now" is the app clock;
 * nothing is cached, the dashboard asks every few seconds.
 */
import type { Kysely } from 'kysely';
import type { Principal } from '../access/principal.js';
import type { DB } from '../db/types.js';
import { type Clock, MINUTE_MS } from '../lib/clock.js';
import type { RatesService } from '../rates/rates.service.js';
import type { SitesService } from '../sites/sites.service.js';
import { activeVisitors, activityByMinute, topPages, topSources } from './realtime.query.js';

/** Activity this recent (bounds included) makes a visitor current. */
export const ACTIVE_WINDOW_MS = 5 * MINUTE_MS;
/** Clock minutes in the series: the current one (counted up to now) and the 29 before it. */
export const SERIES_MINUTES = 30;
export const TOP_ROWS = 10;

export function createRealtimeService({
  db,
  clock,
  sites,
}: {
  db: Kysely<DB>;
  clock: Clock;
  sites: Pick<SitesService, 'resolveSite'>;
  rates: RatesService;
}) {
  return {
    async realtime(principal: Principal, query: { site_id: string }) {
      // Reads of what was recorded keep working while a deletion is scheduled.
      const site = await sites.resolveSite(principal, query.site_id, { includeScheduled: true });
      const now = clock.now();
      const current = { siteId: site.id, since: new Date(now.getTime() - ACTIVE_WINDOW_MS), until: now };
      const lastMinute = Math.floor(now.getTime() / MINUTE_MS);
      const firstMinute = lastMinute - (SERIES_MINUTES - 1);
      const [visitors, pages, sources, minutes] = await Promise.all([
        activeVisitors(db, current),
        topPages(db, current, TOP_ROWS),
        topSources(db, current, TOP_ROWS),
        activityByMinute(db, { siteId: site.id, since: new Date(firstMinute * MINUTE_MS), until: now }),
      ]);
      const byMinute = new Map(minutes.map((row) => [row.minute, row]));
      return {
        visitors,
        pages,
        sources,
        per_minute: Array.from({ length: SERIES_MINUTES }, (_, i) => {
          const minute = firstMinute + i;
          const row = byMinute.get(minute);
          return {
            minute: new Date(minute * MINUTE_MS).toISOString(),
            pageviews: row?.pageviews ?? 0,
            visitors: row?.visitors ?? 0,
          };
        }),
        as_of: now.toISOString(),
      };
    },
  };
}

export type RealtimeService = ReturnType<typeof createRealtimeService>;
