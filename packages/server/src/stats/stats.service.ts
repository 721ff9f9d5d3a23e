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
import { importedDayRange } from '../reporting/imports/imported-groups.query.js';
import { importsShape } from '../reporting/imports/imports-plan.js';
import { answerWithImports } from '../reporting/imports/with-imports.js';
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
      const withImports = body.include?.imports === true;
      const imported = withImports ? await importedDayRange(db, site.id) : null;
      const firstDay =
        body.date_range === 'all'
          ? earliest(await firstVisitDay(db, site.id, timezone), imported?.from)
          : null;
      const { from, to } = resolveDateRange(body.date_range, today, firstDay);
      const limit = body.limit ?? DEFAULT_LIMIT;
      const offset = body.offset ?? 0;
      const withTotalRows = body.include?.total_rows === true;
      const comparisonKind = body.include?.comparison ?? null;
      const earlier = comparisonKind === null ? undefined : comparisonRange(comparisonKind, { from, to });
      const model = body.attribution_model ?? site.attribution_model;
      const query = {
        ...{ siteId: site.id, siteCurrency: site.currency, model, from, to, timezone },
        ...{ dimensions, metrics, filters, orderBy, limit, offset },
      };
      const answerOptions = { withTotalRows, ...(earlier ? { comparison: earlier } : {}) };
      const ranges = earlier ? [{ from, to }, earlier] : [{ from, to }];
      const shape = !withImports
        ? null
        : imported === null
          ? 'no_imported_data'
          : importsShape({ timezone, dimensions, metrics, filters, plan });
      const skipped =
        typeof shape === 'string'
          ? shape
          : shape &&
              imported &&
              !ranges.some((range) => range.from <= imported.to && range.to >= imported.from)
            ? 'out_of_range'
            : null;
      const answer =
        shape !== null && typeof shape !== 'string' && skipped === null
          ? await answerWithImports({ db, clickhouse }, query, shape, answerOptions)
          : {
              ...(await answerStatsQuery({ db, clickhouse }, query, plan, answerOptions)),
              importsIncluded: false,
            };
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
          ...(withImports ? { imports_included: answer.importsIncluded } : {}),
          ...(withImports && !answer.importsIncluded
            ? { imports_skipped_reason: skipped ?? 'out_of_range' }
            : {}),
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
          include: { total_rows: withTotalRows, comparison: comparisonKind, imports: withImports },
        },
      };
    },
  };
}

export type StatsService = ReturnType<typeof createStatsService>;

/** The earlier of two days, either of which may be missing. */
const earliest = (a: string | null, b: string | null | undefined) =>
  a === null ? (b ?? null) : b === null || b === undefined || a <= b ? a : b;

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
