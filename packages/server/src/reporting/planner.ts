/**
 * The one place that decides how a stats query is answered (DESIGN.md §7). A query of one grain
 * (visit metrics, or page metrics by `event:page`) is ordered and paged by the database. A query
 * mixing grains reads each grain's groups whole, sets them side by side by their dimension
 * values, derives the conversion rate and the money figures, then orders and pages the rows here
 * (row-order.ts). Each grain is read once, from the source grain-sources.ts chooses for it (the
 * rollups where they can answer, which may estimate people, else the raw rows); another engine
 * plugs in there, without the planner, the service or the routes changing.
 */
import type { AttributionModel } from '../db/types.js';
import type { ConversionCount } from './conversion-grain.sql.js';
import type { Filter } from './filters.js';
import type { GrainQuery } from './grain.sql.js';
import { type Grain, type GrainRead, type GrainReaders, type Readers, readGrain } from './grain-sources.js';
import type { GroupedRow } from './grouped.query.js';
import { isSingleGrain, type StatsPlan } from './metric-rules.js';
import { inSiteCurrency, type Unconverted } from './money.query.js';
import { orderRows } from './row-order.js';
import type { Dimension, Metric, VisitMetric } from './stats-vocabulary.js';
import { isEventDimension } from './stats-vocabulary.js';

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
  /** `clickhouse` when ClickHouse answered any traffic grain, for `meta.engine`. */
  engine: 'postgres' | 'clickhouse';
}

export async function answerStatsQuery(
  readers: Readers,
  query: StatsQuery,
  plan: StatsPlan,
  options: { withTotalRows: boolean; comparison?: { from: string; to: string } },
): Promise<StatsAnswer> {
  const { comparison } = options;
  const db: GrainReaders = { ...readers, answeredBy: new Set() };
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
    engine: db.answeredBy.has('clickhouse') ? 'clickhouse' : 'postgres',
  };
}

/** One grain's groups, noting in `estimated` when people were counted with a sketch. */
async function grainRows<G extends Grain>(
  db: GrainReaders,
  grain: G,
  q: StatsQuery | GrainQuery,
  metrics: Parameters<typeof readGrain<G>>[3],
  estimated: Set<Metric>,
  read?: GrainRead,
) {
  const answer = await readGrain(db, grain, q, metrics, read);
  if (answer.peopleEstimated) estimated.add('visitors');
  return answer;
}

const pageOf = <T>(rows: T[], q: StatsQuery) =>
  q.limit === null ? rows.slice(q.offset) : rows.slice(q.offset, q.offset + q.limit);

async function pagedInDatabase(
  db: GrainReaders,
  q: StatsQuery,
  plan: StatsPlan,
  withTotalRows: boolean,
  estimated: Set<Metric>,
) {
  const [first] = q.orderBy;
  // Ordered by people first and paged: the rollups read the sketches of the rows it can reach.
  const top =
    q.limit !== null && first?.[0] === 'visitors' && first[1] === 'desc' ? q.offset + q.limit : undefined;
  const alias = (name: string) => {
    const dimension = q.dimensions.indexOf(name as Dimension);
    return dimension >= 0 ? `d${dimension}` : `m${q.metrics.indexOf(name as Metric)}`;
  };
  const page = {
    orderBy: q.orderBy.map(([name, direction]) => ({ alias: alias(name), direction })),
    limit: q.limit,
    offset: q.offset,
  };
  const read = { page, withGroupCount: withTotalRows, top };
  const answer =
    plan.visit.length > 0
      ? await grainRows(db, 'visits', q, plan.visit, estimated, read)
      : await grainRows(db, 'pageviews', q, plan.pageview, estimated, read);
  const rows = answer.paged ? answer.rows : pageOf(orderRows(answer.rows, q), q);
  return {
    rows: rows.map(({ dimensions, metrics }) => ({ dimensions, metrics })),
    totalRows: withTotalRows ? (q.dimensions.length === 0 ? 1 : answer.groupCount) : undefined,
    unconverted: [],
  };
}

type Values = Partial<Record<Metric | 'converters', number>>;

/** Every grain's groups side by side, keyed by their dimension values. */
async function merged(db: GrainReaders, q: StatsQuery, plan: StatsPlan, estimated: Set<Metric>) {
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
        .then((rows) => inSiteCurrency(db.db, rows, q.siteCurrency))
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

  // The rate's base is the visit grain's visitors by the same groups: read with the visit
  // metrics when the query has no event dimension, so the grain is read once.
  const baseWithVisits = plan.rate && plan.visit.length > 0 && !q.dimensions.some(isEventDimension);
  let visitors: Promise<Map<string, number>> | undefined;
  if (plan.visit.length > 0) {
    const metrics: VisitMetric[] = baseWithVisits ? [...plan.visit, 'visitors'] : plan.visit;
    const rows = grainRows(db, 'visits', q, metrics, estimated).then((answer) => answer.rows);
    readCounts(plan.visit, rows);
    if (baseWithVisits) {
      const at = metrics.length - 1;
      visitors = rows.then((rows) => {
        if (estimated.has('visitors')) estimated.add('conversion_rate');
        return new Map(rows.map((row) => [JSON.stringify(row.dimensions), row.metrics[at] ?? 0]));
      });
    }
  }
  const rowsOf = <G extends Grain>(grain: G, metrics: Parameters<typeof readGrain<G>>[3]) =>
    grainRows(db, grain, q, metrics, estimated).then((answer) => answer.rows);
  if (plan.pageview.length > 0) readCounts(plan.pageview, rowsOf('pageviews', plan.pageview));
  if (plan.conversion.length > 0) readCounts(plan.conversion, rowsOf('conversions', plan.conversion));
  if (plan.goalValue) readMoney(rowsOf('goalValues', []), ['goal_value']);
  if (plan.revenue) readMoney(rowsOf('revenue', []), ['revenue_net', 'revenue_refunded']);
  if (plan.rate && !baseWithVisits) visitors = rateDenominators(db, q, estimated);
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
async function rateDenominators(db: GrainReaders, q: StatsQuery, estimated: Set<Metric>) {
  const grain: GrainQuery = { ...q, dimensions: q.dimensions.filter((name) => !isEventDimension(name)) };
  const base = new Set<Metric>();
  const { rows } = await grainRows(db, 'visits', grain, ['visitors'], base);
  if (base.size > 0) estimated.add('conversion_rate');
  return new Map(rows.map((row) => [JSON.stringify(row.dimensions), row.metrics[0] ?? 0]));
}
