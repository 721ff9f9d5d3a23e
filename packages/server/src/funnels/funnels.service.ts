/**
 * Funnels (DESIGN.md §7): saved ones per site (at most 100), their reports, and reports of an
 * unsaved funnel. Reads keep working for a site scheduled for deletion; writes answer 404 there,
 * as for the goals. Dates, zones and filters follow the stats query.
 */
import type { Kysely } from 'kysely';
import type { Principal } from '../access/principal.js';
import type { DB } from '../db/types.js';
import { AppError, notFound } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import { newId, UUID_PATTERN } from '../lib/ids.js';
import type { RatesService } from '../rates/rates.service.js';
import type { ClickHouseReads } from '../reporting/clickhouse/ch-read.js';
import { parseFilters } from '../reporting/filters.js';
import type { SitesService } from '../sites/sites.service.js';
import { checkReportOptions, createFunnelReports, reportOptionsOf } from './funnel-reports.js';
import { DEFAULT_WINDOW_HOURS, type FunnelStep } from './funnel-steps.js';
import type { FunnelQueryBody, ReportQuery } from './funnels.schemas.js';
import * as store from './funnels.store.js';

export const FUNNELS_PER_SITE = 100;

export interface CreateFunnelInput {
  site_id: string;
  name: string;
  steps: FunnelStep[];
  window_hours?: number | undefined;
}

export interface UpdateFunnelInput {
  site_id: string;
  name?: string | undefined;
  steps?: FunnelStep[] | undefined;
  window_hours?: number | undefined;
}

function presentFunnel(row: store.FunnelRow, snippetKey: string) {
  return {
    id: row.id,
    site_id: snippetKey,
    name: row.name,
    steps: row.steps,
    window_hours: row.window_hours,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** Funnel ids are UUIDs, compared lower-cased; anything else names no funnel. */
function funnelIdOf(id: string): string {
  if (!UUID_PATTERN.test(id)) throw notFound('Funnel');
  return id.toLowerCase();
}

export function createFunnelsService({
  db,
  clock,
  sites,
  clickhouse,
}: {
  db: Kysely<DB>;
  clock: Clock;
  sites: SitesService;
  rates: RatesService;
  /** ClickHouse for the traffic this report reads, when CLICKHOUSE_URL is set. */
  clickhouse?: ClickHouseReads;
}) {
  /** The site a request names; writes refuse a site scheduled for deletion. */
  const siteFor = (principal: Principal, ref: string, access: 'read' | 'write') =>
    sites.resolveSite(principal, ref, { includeScheduled: access === 'read' });

  const runReport = createFunnelReports({ db, clock, clickhouse });

  async function requireFunnel(siteId: string, id: string) {
    const funnel = await store.findFunnel(db, siteId, funnelIdOf(id));
    if (!funnel) throw notFound('Funnel');
    return funnel;
  }

  return {
    /** Oldest first. */
    async list(principal: Principal, siteRef: string) {
      const site = await siteFor(principal, siteRef, 'read');
      const rows = await store.listFunnels(db, site.id);
      return rows.map((row) => presentFunnel(row, site.snippet_key));
    },

    async get(principal: Principal, id: string, siteRef: string) {
      const site = await siteFor(principal, siteRef, 'read');
      return presentFunnel(await requireFunnel(site.id, id), site.snippet_key);
    },

    /** A new funnel, unless the site already holds the limit. */
    async create(principal: Principal, input: CreateFunnelInput) {
      const site = await siteFor(principal, input.site_id, 'write');
      const now = clock.now();
      const row = await db.transaction().execute(async (trx) => {
        await store.lockFunnelSet(trx, site.id);
        if ((await store.countFunnels(trx, site.id)) >= FUNNELS_PER_SITE) {
          throw new AppError(
            422,
            'validation_failed',
            `This site already has ${FUNNELS_PER_SITE} funnels; delete one before adding another`,
            { field: 'site_id' },
          );
        }
        return store.insertFunnel(trx, {
          site_id: site.id,
          id: newId(),
          name: input.name,
          steps: input.steps,
          window_hours: input.window_hours ?? DEFAULT_WINDOW_HOURS,
          created_at: now,
          updated_at: now,
        });
      });
      return presentFunnel(row, site.snippet_key);
    },

    /** Omitted fields stay as they are. */
    async update(principal: Principal, id: string, input: UpdateFunnelInput) {
      const site = await siteFor(principal, input.site_id, 'write');
      const funnel = await requireFunnel(site.id, id);
      const changes = {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.steps === undefined ? {} : { steps: input.steps }),
        ...(input.window_hours === undefined ? {} : { window_hours: input.window_hours }),
      };
      if (Object.keys(changes).length === 0) return presentFunnel(funnel, site.snippet_key);
      const updated = await store.updateFunnel(db, site.id, funnel.id, {
        ...changes,
        updated_at: clock.now(),
      });
      if (!updated) throw notFound('Funnel');
      return presentFunnel(updated, site.snippet_key);
    },

    async remove(principal: Principal, id: string, siteRef: string) {
      const site = await siteFor(principal, siteRef, 'write');
      if (!(await store.deleteFunnel(db, site.id, funnelIdOf(id)))) throw notFound('Funnel');
    },

    /** A saved funnel's report over `from`..`to` (default the last 30 days). */
    async savedReport(principal: Principal, id: string, query: ReportQuery) {
      const options = checkReportOptions(reportOptionsOf(query));
      const site = await siteFor(principal, query.site_id, 'read');
      const funnel = await requireFunnel(site.id, id);
      return runReport(site, { steps: funnel.steps, windowHours: funnel.window_hours }, options);
    },

    /** The report of a funnel that is not saved. */
    async query(principal: Principal, body: FunnelQueryBody) {
      const options = checkReportOptions({
        dateRange: body.date_range,
        timezone: body.timezone,
        breakdown: body.breakdown,
        filters: parseFilters(body.filters),
      });
      const site = await siteFor(principal, body.site_id, 'read');
      const funnel = { steps: body.steps, windowHours: body.window_hours ?? DEFAULT_WINDOW_HOURS };
      return runReport(site, funnel, options);
    },
  };
}

export type FunnelsService = ReturnType<typeof createFunnelsService>;
