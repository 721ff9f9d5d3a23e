/**
 * The one place that decides how a stats query is answered (DESIGN.md §7). A query of one grain
 * (visit metrics, or page metrics by `event:page`) is ordered and paged by the database. A query
 * mixing grains reads each grain's groups whole, sets them side by side by their dimension
 * values, derives the conversion rate and the money figures, then orders and pages the rows here
 * (row-order.ts). Visit, page and conversion figures come from the rollups where they can
 * answer (rollups/), which may estimate people; a columnar engine could plug in the same way, without the service or the
 * routes changing.
 */
import type { Kysely } from 'kysely';
import type { AttributionModel, DB } from '../db/types.js';
import { type ConversionCount, conversionCounts, goalValues } from './conversion-grain.js';
import type { Filter } from './filters.js';
import type { GrainQuery } from './grain.js';
import { countGroups, type Grouped, type GroupedRow, readGroups } from './grouped-query.js';
import { isSingleGrain, type StatsPlan } from './metric-rules.js';
import { inSiteCurrency, type Unconverted } from './money.js';
import { pageviewGrain } from './pageview-grain.js';
import { revenueAmounts } from './revenue-grain.js';
import { readConversionGroupsFromRollups, readGoalValuesFromRollups } from './rollups/goal-rollup-reader.js';
import { readPageGroupsFromRollups, readVisitGroupsFromRollups } from './rollups/rollup-reader.js';
import { orderRows } from './row-order.js';
import type { Dimension, Metric, VisitMetric } from './stats-vocabulary.js';
import { isEventDimension } from './stats-vocabulary.js';
import { visitGrain } from './visit-grain.js';

export interface StatsQuery {
  siteId: string;
  siteCurrency: string;
  model: AttributionModel;
  /** Inclusive days in `timezone`. */
  from: string;
  to: string;
  timezone: string;
  dimensions: Dimension[];
  metrics: Metric[];
  filters: Filter[];
  /** Names from `dimensions` or `metrics`, checked by the caller. */
  orderBy: [string, 'asc' | 'desc'][];
  /** Null: every row. */
  limit: number | null;
  offset: number;
}

export interface StatsRow {
  dimensions: (string | null)[];
  metrics: number[];
}

export interface StatsAnswer {
  rows: StatsRow[];
  totalRows?: number;
  /** With a comparison range: every group of that range, unordered and unpaged, for matching. */
  earlierRows?: StatsRow[];
  unconverted: Unconverted[];
  /** Metrics answered with an estimate (people counted from sketches), for `meta.approximate`. */
  approximate: Metric[];
}

export async function answerStatsQuery(
  db: Kysely<DB>,
  query: StatsQuery,
  plan: StatsPlan,
  options: { withTotalRows: boolean; comparison?: { from: string; to: string } },
): Promise<StatsAnswer> {
  const { comparison } = options;
  const estimated = new Set<Metric>();
  const [main, earlier] = await Promise.all([
    isSingleGrain(plan)
      ? pagedInDatabase(db, query, plan, options.withTotalRows, estimated)
      : merged(db, query, plan, estimated),
    comparison ? merged(db, { ...query, ...comparison, limit: null, offset: 0 }, plan, estimated) : undefined,
  ]);
  return {
    rows: main.rows,
    ...(options.withTotalRows && main.totalRows !== undefined ? { totalRows: main.totalRows } : {}),
    ...(earlier === undefined ? {} : { earlierRows: earlier.rows }),
    unconverted: main.unconverted,
    approximate: query.metrics.filter((name) => estimated.has(name)),
  };
}

/** What a rollup reader answers: its groups, and whether people were estimated. */
interface RolledGroups {
  rows: GroupedRow[];
  peopleEstimated: boolean;
}

/**
 * Groups from the rollups when they could answer (`rolled` is not null), else from the raw
 * rows. Adds `visitors` to `estimated` when people were counted with a sketch's registers.
 */
async function rolledOrRaw(
  db: Kysely<DB>,
  rolled: Promise<RolledGroups | null>,
  raw: () => Grouped,
  estimated: Set<Metric>,
): Promise<GroupedRow[]> {
  const fromRollups = await rolled;
  if (!fromRollups) return readGroups(db, raw());
  if (fromRollups.peopleEstimated) estimated.add('visitors');
  return fromRollups.rows;
}

/** Visit metrics per group, from the rollups when they can answer, else from the visits. */
const readVisitGroups = (
  db: Kysely<DB>,
  q: StatsQuery | GrainQuery,
  metrics: VisitMetric[],
  estimated: Set<Metric>,
) => rolledOrRaw(db, readVisitGroupsFromRollups(db, q, metrics), () => visitGrain(q, metrics), estimated);

/** Goal values per group, currency and day, from the goal rollups when they can answer. */
async function readGoalValues(db: Kysely<DB>, q: StatsQuery): Promise<GroupedRow[]> {
  return (await readGoalValuesFromRollups(db, q)) ?? readGroups(db, goalValues(q));
}

async function pagedInDatabase(
  db: Kysely<DB>,
  q: StatsQuery,
  plan: StatsPlan,
  withTotalRows: boolean,
  estimated: Set<Metric>,
) {
  const [first] = q.orderBy;
  // Ordered by people first and paged: the rollups read the sketches of the rows it can reach.
  const top =
    q.limit !== null && first?.[0] === 'visitors' && first[1] === 'desc' ? q.offset + q.limit : undefined;
  const fromRollups =
    plan.visit.length > 0
      ? await readVisitGroupsFromRollups(db, q, plan.visit, { top })
      : await readPageGroupsFromRollups(db, q, plan.pageview, { top });
  if (fromRollups) {
    if (fromRollups.peopleEstimated) estimated.add('visitors');
    const ordered = orderRows(fromRollups.rows, q);
    return {
      rows: (q.limit === null ? ordered.slice(q.offset) : ordered.slice(q.offset, q.offset + q.limit)).map(
        ({ dimensions, metrics }) => ({ dimensions, metrics }),
      ),
      totalRows: withTotalRows ? fromRollups.groupCount : undefined,
      unconverted: [],
    };
  }
  const grouped: Grouped =
    plan.visit.length > 0 ? visitGrain(q, plan.visit) : pageviewGrain(q, plan.pageview);
  const alias = (name: string) => {
    const dimension = q.dimensions.indexOf(name as Dimension);
    return dimension >= 0 ? `d${dimension}` : `m${q.metrics.indexOf(name as Metric)}`;
  };
  const orderBy = q.orderBy.map(([name, direction]) => ({ alias: alias(name), direction }));
  const [rows, totalRows] = await Promise.all([
    readGroups(db, grouped, { orderBy, limit: q.limit, offset: q.offset }),
    withTotalRows ? countGroups(db, grouped) : undefined,
  ]);
  return {
    rows: rows.map(({ dimensions, metrics }) => ({ dimensions, metrics })),
    totalRows: withTotalRows ? (q.dimensions.length === 0 ? 1 : totalRows) : undefined,
    unconverted: [],
  };
}

type Values = Partial<Record<Metric | 'converters', number>>;

/** Every grain's groups side by side, keyed by their dimension values. */
async function merged(db: Kysely<DB>, q: StatsQuery, plan: StatsPlan, estimated: Set<Metric>) {
  const groups = new Map<string, { dimensions: (string | null)[]; values: Values }>();
  const add = (dimensions: (string | null)[], values: Values) => {
    // A group whose every figure asked is 0 (a payment's group, read for the rate alone) has no data.
    if (dimensions.length > 0 && Object.values(values).every((value) => value === 0)) return;
    const key = JSON.stringify(dimensions);
    const group = groups.get(key) ?? { dimensions, values: {} };
    groups.set(key, group);
    for (const [name, value] of Object.entries(values) as [Metric, number][]) {
      group.values[name] = (group.values[name] ?? 0) + value;
    }
  };
  const unconverted = new Map<string, Unconverted>();
  const setAside = (metric: string, currency: string, amount: number) => {
    const key = `${metric} ${currency}`;
    const entry = unconverted.get(key) ?? { metric, currency, amount: 0 };
    entry.amount += amount;
    unconverted.set(key, entry);
  };

  const reads: Promise<void>[] = [];
  const readMoney = (amounts: Promise<GroupedRow[]>, names: Metric[]) =>
    reads.push(
      amounts
        .then((rows) => inSiteCurrency(db, rows, q.siteCurrency))
        .then((rows) => {
          for (const row of rows) {
            const values: Values = {};
            names.forEach((name, i) => {
              const value = row.metrics[i];
              if (value === null || value === undefined) setAside(name, row.currency, row.original[i] ?? 0);
              else values[name] = value;
            });
            add(row.dimensions, values);
          }
        }),
    );

  const readCounts = <T extends Metric | ConversionCount>(names: T[], rows: Promise<GroupedRow[]>) =>
    reads.push(
      rows.then((rows) => {
        for (const row of rows) add(row.dimensions, named(names, row));
      }),
    );

  if (plan.visit.length > 0) readCounts(plan.visit, readVisitGroups(db, q, plan.visit, estimated));
  if (plan.pageview.length > 0) {
    readCounts(
      plan.pageview,
      rolledOrRaw(
        db,
        readPageGroupsFromRollups(db, q, plan.pageview),
        () => pageviewGrain(q, plan.pageview),
        estimated,
      ),
    );
  }
  if (plan.conversion.length > 0) {
    readCounts(
      plan.conversion,
      rolledOrRaw(
        db,
        readConversionGroupsFromRollups(db, q, plan.conversion),
        () => conversionCounts(q, plan.conversion),
        estimated,
      ),
    );
  }
  if (plan.goalValue) readMoney(readGoalValues(db, q), ['goal_value']);
  if (plan.revenue)
    readMoney(readGroups(db, revenueAmounts(q, q.model)), ['revenue_net', 'revenue_refunded']);
  const visitors = plan.rate ? rateDenominators(db, q, estimated) : undefined;
  await Promise.all(reads);
  const denominators = await visitors;

  // An aggregate is one row even when nothing happened; a breakdown lists groups with data.
  if (q.dimensions.length === 0 && groups.size === 0) add([], {});
  const rows = [...groups.values()].map(({ dimensions, values }) => ({
    dimensions,
    metrics: q.metrics.map((name) => {
      if (name === 'conversion_rate') {
        const base = denominators?.get(JSON.stringify(visitDimensionValues(q, dimensions))) ?? 0;
        return base === 0 ? 0 : Math.min(100, Math.round((1000 * (values.converters ?? 0)) / base) / 10);
      }
      const value = values[name] ?? 0;
      return name === 'goal_value' || name.startsWith('revenue_') ? Math.round(value) + 0 : value;
    }),
  }));
  const ordered = orderRows(rows, q);
  return {
    rows: q.limit === null ? ordered.slice(q.offset) : ordered.slice(q.offset, q.offset + q.limit),
    totalRows: rows.length,
    unconverted: [...unconverted.values()]
      .map((entry) => ({ ...entry, amount: Math.round(entry.amount) }))
      .sort((a, b) => (a.metric + a.currency < b.metric + b.currency ? -1 : 1)),
  };
}

const named = <T extends string>(names: T[], row: GroupedRow): Values =>
  Object.fromEntries(names.map((name, i) => [name, row.metrics[i] ?? 0]));

/** A row's values of the dimensions that are not event dimensions, in order. */
const visitDimensionValues = (q: StatsQuery, values: (string | null)[]) =>
  values.filter((_, i) => !isEventDimension(q.dimensions[i] as string));

/** Visitors per group of the time and visit dimensions: the base of the conversion rate. */
async function rateDenominators(db: Kysely<DB>, q: StatsQuery, estimated: Set<Metric>) {
  const grain: GrainQuery = { ...q, dimensions: q.dimensions.filter((name) => !isEventDimension(name)) };
  const base = new Set<Metric>();
  const rows = await readVisitGroups(db, grain, ['visitors'], base);
  if (base.size > 0) estimated.add('conversion_rate');
  return new Map(rows.map((row) => [JSON.stringify(row.dimensions), row.metrics[0] ?? 0]));
}
