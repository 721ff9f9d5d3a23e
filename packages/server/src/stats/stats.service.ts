/**
 * `POST /v1/stats/query`: checks what the schema cannot (the zone, the range, filters, order
 * names), resolves the site and the calendar, has the planner answer, and echoes the query as
 * answered so a client sees every default.
 */
import type { Kysely } from 'kysely';
import type { Principal } from '../access/principal.js';
import type { DB } from '../db/types.js';
import { badInput } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import { compareRows, comparisonRange } from '../reporting/comparison.js';
import { checkCustomRange, dayIn, resolveDateRange, resolveTimezone } from '../reporting/date-range.js';
import { filterLeaves, parseFilters } from '../reporting/filters.js';
import { firstVisitDay } from '../reporting/first-visit-day.query.js';
import type { ClickHouseReads } from '../reporting/grain-sources.js';
import { planMetrics } from '../reporting/metric-rules.js';
import { answerStatsQuery } from '../reporting/planner.js';
import { quoted } from '../reporting/quoted.js';
import {
  DEFAULT_LIMIT,
  type Dimension,
  isRevenueMetric,
  isTimeDimension,
  type Metric,
  VISIT_METRICS,
} from '../reporting/stats-vocabulary.js';
import { refuseBeyondTraffic } from '../shared-links/shared-links.service.js';
import type { SitesService } from '../sites/sites.service.js';
import type { StatsQueryBody } from './stats.schemas.js';

export function createStatsService({
  db,
  clock,
  sites,
  clickhouse,
}: {
  db: Kysely<DB>;
  clock: Clock;
  sites: Pick<SitesService, 'resolveSite'>;
  /** With CLICKHOUSE_URL: traffic grains are read there (reporting/grain-sources.ts). */
  clickhouse?: ClickHouseReads;
}) {
  return {
    async query(principal: Principal, body: StatsQueryBody) {
      const metrics = body.metrics;
      const dimensions = body.dimensions ?? [];
      checkNames(metrics, dimensions);
      const filters = parseFilters(body.filters);
      const filterDimensions = filters.flatMap(filterLeaves).map((leaf) => leaf.dimension);
      refuseBeyondTraffic(principal, { metrics, dimensions, filterDimensions }, VISIT_METRICS);
      const plan = planMetrics(metrics, dimensions, filters);
      const orderBy = resolveOrder(body.order_by, metrics, dimensions);
      const timezone = resolveTimezone(body.timezone);
      if (Array.isArray(body.date_range)) checkCustomRange(body.date_range);
      // Reads of what was recorded keep working while a deletion is scheduled.
      const site = await sites.resolveSite(principal, body.site_id, { includeScheduled: true });
      const today = dayIn(timezone, clock.now());
      const firstDay = body.date_range === 'all' ? await firstVisitDay(db, site.id, timezone) : null;
      const { from, to } = resolveDateRange(body.date_range, today, firstDay);
      const limit = body.limit ?? DEFAULT_LIMIT;
      const offset = body.offset ?? 0;
      const withTotalRows = body.include?.total_rows === true;
      const comparisonKind = body.include?.comparison ?? null;
      const earlier = comparisonKind === null ? undefined : comparisonRange(comparisonKind, { from, to });
      const model = body.attribution_model ?? site.attribution_model;
      const answer = await answerStatsQuery(
        { db, clickhouse },
        {
          ...{ siteId: site.id, siteCurrency: site.currency, model, from, to, timezone },
          ...{ dimensions, metrics, filters, orderBy, limit, offset },
        },
        plan,
        { withTotalRows, ...(earlier ? { comparison: earlier } : {}) },
      );
      const money = metrics.some((name) => name === 'goal_value' || isRevenueMetric(name));
      return {
        results: earlier
          ? compareRows(answer.rows, answer.earlierRows ?? [], dimensions, { from, to }, earlier)
          : answer.rows,
        meta: {
          date_range: [from, to] as [string, string],
          ...(earlier ? { comparison_range: [earlier.from, earlier.to] as [string, string] } : {}),
          ...(answer.totalRows === undefined ? {} : { total_rows: answer.totalRows }),
          currency: site.currency,
          engine: answer.engine,
          approximate: answer.approximate,
          ...(money ? { unconverted: answer.unconverted } : {}),
        },
        query: {
          site_id: site.snippet_key,
          metrics,
          date_range: [from, to] as [string, string],
          dimensions,
          filters: body.filters ?? [],
          order_by: orderBy,
          timezone,
          attribution_model: model,
          limit,
          offset,
          include: { total_rows: withTotalRows, comparison: comparisonKind },
        },
      };
    },
  };
}

export type StatsService = ReturnType<typeof createStatsService>;

function checkNames(metrics: Metric[], dimensions: Dimension[]) {
  metrics.forEach((metric, i) => {
    if (metrics.indexOf(metric) !== i)
      throw badInput(`metrics.${i}`, `metrics.${i}: ${metric} is listed twice`);
  });
  dimensions.forEach((dimension, i) => {
    if (dimensions.indexOf(dimension) !== i) {
      throw badInput(`dimensions.${i}`, `dimensions.${i}: ${dimension} is listed twice`);
    }
    if (isTimeDimension(dimension) && dimensions.findIndex(isTimeDimension) !== i) {
      throw badInput(`dimensions.${i}`, `dimensions.${i}: at most one time dimension`);
    }
  });
}

function resolveOrder(
  input: [string, 'asc' | 'desc'][] | undefined,
  metrics: Metric[],
  dimensions: Dimension[],
): [string, 'asc' | 'desc'][] {
  if (input === undefined) {
    const time = dimensions.find(isTimeDimension);
    return time ? [[time, 'asc']] : [[metrics[0] as Metric, 'desc']];
  }
  const names: readonly string[] = [...metrics, ...dimensions];
  input.forEach(([name], i) => {
    if (!names.includes(name)) {
      throw badInput(
        `order_by.${i}.0`,
        `order_by.${i}.0: ${quoted(name)} is not one of the requested metrics or dimensions`,
      );
    }
  });
  return input;
}
