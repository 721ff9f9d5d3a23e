/**
 * Visit metrics grouped by visit and time dimensions, straight from the `visits` table (and the
 * site's custom events for the bounce rule). A visit counts on the day it started, with all its
 * pageviews and engaged time. Every value from the query is a parameter.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/types.js';
import type { Filter } from './filters.js';
import { containsPattern, matchesPattern } from './like-pattern.js';
import type { Dimension, Metric } from './stats-vocabulary.js';
import { isTimeDimension } from './stats-vocabulary.js';
import { METRIC_SQL, NEEDS_CUSTOM_EVENTS, timeDimensionSql, VISIT_DIMENSION_SQL } from './visit-columns.js';

export interface VisitStatsQuery {
  siteId: string;
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

export interface VisitStatsRow {
  dimensions: (string | null)[];
  metrics: number[];
}

export async function visitStats(db: Kysely<DB>, q: VisitStatsQuery): Promise<VisitStatsRow[]> {
  const dimensions = dimensionColumns(q);
  const metrics = q.metrics.map((name, i) => sql`${METRIC_SQL[name]} as ${sql.ref(`m${i}`)}`);
  const { rows } = await sql<Record<string, unknown>>`
    select ${sql.join([...dimensions, ...metrics])}
    ${fromWhereGroup(q)}
    order by ${orderSql(q)}
    limit ${q.limit} offset ${q.offset}
  `.execute(db);
  return rows.map((row) => ({
    dimensions: q.dimensions.map((_, i) => (row[`d${i}`] ?? null) as string | null),
    metrics: q.metrics.map((_, i) => Number(row[`m${i}`])),
  }));
}

/** How many rows the query has before `limit` and `offset`. */
export async function countVisitStatsRows(db: Kysely<DB>, q: VisitStatsQuery): Promise<number> {
  if (q.dimensions.length === 0) return 1;
  const dimensions = dimensionColumns(q);
  const { rows } = await sql<{ total: number }>`
    select count(*)::float8 as total from (select ${sql.join(dimensions)} ${fromWhereGroup(q)}) g
  `.execute(db);
  return Number(rows[0]?.total ?? 0);
}

/** `<expression> as d0`, `… as d1`: the aliases the order and the rows read. */
function dimensionColumns(q: VisitStatsQuery) {
  return q.dimensions.map((name, i) => {
    const expression = isTimeDimension(name) ? timeDimensionSql(name, q.timezone) : VISIT_DIMENSION_SQL[name];
    return sql`${expression} as ${sql.ref(`d${i}`)}`;
  });
}

function fromWhereGroup(q: VisitStatsQuery) {
  const start = sql`(${q.from}::date::timestamp at time zone ${q.timezone})`;
  const end = sql`((${q.to}::date + 1)::timestamp at time zone ${q.timezone})`;
  const customEvents = q.metrics.some((metric) => NEEDS_CUSTOM_EVENTS.has(metric))
    ? sql`left join (
        select distinct e.visit_id from events e
        where e.site_id = ${q.siteId} and e.type = 'event' and e.origin = 'browser'
          and e.visit_id is not null and e.occurred_at >= ${start}
      ) ce on ce.visit_id = v.id`
    : sql``;
  // Positions, not expressions: each use of a parameter is a new one, so PostgreSQL could not
  // tell that a repeated time bucket is the same expression.
  const groupBy =
    q.dimensions.length === 0
      ? sql``
      : sql`group by ${sql.raw(q.dimensions.map((_, i) => i + 1).join(', '))}`;
  return sql`
    from visits v ${customEvents}
    where v.site_id = ${q.siteId} and v.started_at >= ${start} and v.started_at < ${end}
      and ${filterSql({ op: 'and', filters: q.filters })}
    ${groupBy}`;
}

/** Always true or false, never null, so `not` inverts exactly. */
function filterSql(filter: Filter): RawBuilder<boolean> {
  switch (filter.op) {
    case 'and':
    case 'or':
      if (filter.filters.length === 0) return sql`true`;
      return sql<boolean>`(${sql.join(filter.filters.map(filterSql), sql.raw(` ${filter.op} `))})`;
    case 'not':
      return sql<boolean>`(not ${filterSql(filter.filter)})`;
    case 'is':
    case 'is_not': {
      const matches = sql<boolean>`coalesce(${VISIT_DIMENSION_SQL[filter.dimension]} in (${sql.join(filter.values)}), false)`;
      return filter.op === 'is' ? matches : sql<boolean>`(not ${matches})`;
    }
    case 'contains':
    case 'matches': {
      // Like `is`, a null value (no referrer, outside the AI channel) never contains or matches.
      const column = VISIT_DIMENSION_SQL[filter.dimension];
      const likes = filter.values.map((value) =>
        filter.op === 'contains'
          ? sql<boolean>`${column} ilike ${containsPattern(value)}`
          : sql<boolean>`${column} like ${matchesPattern(value)}`,
      );
      return sql<boolean>`coalesce((${sql.join(likes, sql` or `)}), false)`;
    }
  }
}

/** The requested order, then every dimension ascending so pages never shuffle between calls. */
function orderSql(q: VisitStatsQuery) {
  const alias = (name: string) => {
    const dimension = q.dimensions.indexOf(name as Dimension);
    return dimension >= 0 ? `d${dimension}` : `m${q.metrics.indexOf(name as Metric)}`;
  };
  const keys = q.orderBy.map(([name, direction]) => `${alias(name)} ${direction} nulls last`);
  for (let i = 0; i < q.dimensions.length; i++) keys.push(`d${i} asc nulls last`);
  if (keys.length === 0) keys.push('1');
  return sql.raw(keys.join(', '));
}
