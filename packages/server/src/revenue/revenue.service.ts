/**
 * The revenue report: what the site earned per day and per credited source under one
 * attribution model, net of refunds (a day may be negative: refunds are dated when posted),
 * with conversion counts kept gross. Reads only the daily rollup.
 */
import type { Kysely } from 'kysely';
import type { Principal } from '../access/principal.js';
import type { AttributionModel, DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import { resolveDayWindow } from '../lib/day-window.js';
import type { SitesService } from '../sites/sites.service.js';
import { revenueByDay } from './revenue-by-day.query.js';
import { summariseRevenue } from './revenue-summary.js';

export const REVENUE_DEFAULT_DAYS = 30;
export const REVENUE_MAX_DAYS = 366;

export interface RevenueQuery {
  site_id: string;
  from?: string;
  to?: string;
  attribution_model?: AttributionModel;
}

export function createRevenueService({
  db,
  clock,
  sites,
}: {
  db: Kysely<DB>;
  clock: Clock;
  sites: Pick<SitesService, 'resolveSite'>;
}) {
  return {
    async report(principal: Principal, query: RevenueQuery) {
      const window = resolveDayWindow(query, clock.now(), {
        defaultDays: REVENUE_DEFAULT_DAYS,
        maxDays: REVENUE_MAX_DAYS,
      });
      // Reads of what was recorded keep working while a deletion is scheduled.
      const site = await sites.resolveSite(principal, query.site_id, { includeScheduled: true });
      const model = query.attribution_model ?? site.attribution_model;
      const rows = await revenueByDay(db, {
        siteId: site.id,
        model,
        from: window.from,
        to: window.to,
        siteCurrency: site.currency,
      });
      return {
        site_id: site.snippet_key,
        from: window.from,
        to: window.to,
        attribution_model: model,
        ...summariseRevenue(rows, site.currency),
      };
    },
  };
}

export type RevenueService = ReturnType<typeof createRevenueService>;
