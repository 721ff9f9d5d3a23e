/**
 * A parsed filter tree (filters.ts) as one SQL condition, for every report that filters the way
 * the stats query does (the query itself, the session and people listings, funnels). Visit
 * dimensions read `visits v`. An event dimension reads the row itself when the rows are events
 * of its kind (`e`), and otherwise asks whether the visit had such an event: a visit "is" on
 * /pricing when one of its pageviews was.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Filter, FilterLeaf } from './filters.js';
import { containsPattern, matchesPattern } from './like-pattern.js';
import type { EventDimension, VisitDimension } from './stats-vocabulary.js';
import { isVisitDimension, PROPS_PREFIX } from './stats-vocabulary.js';
import { VISIT_DIMENSION_SQL } from './visit-columns.sql.js';

/** What one row of the filtered query is: a visit `v`, or an event `e` joined to its visit `v`. */
export type FilteredRows = 'visits' | 'pageviews' | 'conversions';

/** The value of an event dimension on the events row `alias`. */
export function eventDimensionSql(dimension: EventDimension, alias: string): RawBuilder<string | null> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  if (dimension === 'event:page') return sql<string | null>`${column('path')}`;
  if (dimension === 'event:goal') return sql`${column('name')}`;
  return sql`(${column('properties')} ->> ${dimension.slice(PROPS_PREFIX.length)})`;
}

const eventTypeOf = (dimension: EventDimension) => (dimension === 'event:page' ? 'pageview' : 'event');

/** Always true or false, never null, so `not` inverts exactly. */
export function filterSql(
  filter: Filter,
  rows: FilteredRows = 'visits',
  visitColumns: Partial<Record<VisitDimension, RawBuilder<string | null>>> = VISIT_DIMENSION_SQL,
): RawBuilder<boolean> {
  switch (filter.op) {
    case 'and':
    case 'or':
      if (filter.filters.length === 0) return sql`true`;
      return sql<boolean>`(${sql.join(
        filter.filters.map((member) => filterSql(member, rows, visitColumns)),
        sql.raw(` ${filter.op} `),
      )})`;
    case 'not':
      return sql<boolean>`(not ${filterSql(filter.filter, rows, visitColumns)})`;
    default: {
      const { dimension } = filter;
      if (isVisitDimension(dimension)) {
        const column = visitColumns[dimension];
        if (!column) throw new Error(`no column for filter dimension ${dimension}`);
        return leafSql(filter, column);
      }
      const rowsAreOfKind = eventTypeOf(dimension) === (rows === 'pageviews' ? 'pageview' : 'event');
      if (rows !== 'visits' && rowsAreOfKind) return leafSql(filter, eventDimensionSql(dimension, 'e'));
      // `is_not` on the visit: no event of the visit is that value, so negate the `is`.
      const positive: FilterLeaf = { ...filter, op: filter.op === 'is_not' ? 'is' : filter.op };
      const exists = sql<boolean>`exists (
        select 1 from events fe
        where fe.site_id = v.site_id and fe.visit_id = v.id and fe.type = ${eventTypeOf(dimension)}
          and ${leafSql(positive, eventDimensionSql(dimension, 'fe'))}
      )`;
      return filter.op === 'is_not' ? sql<boolean>`(not ${exists})` : exists;
    }
  }
}

function leafSql(filter: FilterLeaf, column: RawBuilder<string | null>) {
  switch (filter.op) {
    case 'is':
    case 'is_not': {
      const matches = sql<boolean>`coalesce(${column} in (${sql.join(filter.values)}), false)`;
      return filter.op === 'is' ? matches : sql<boolean>`(not ${matches})`;
    }
    case 'contains':
    case 'matches': {
      // Like `is`, a null value (no referrer, outside the AI channel) never contains or matches.
      const likes = filter.values.map((value) =>
        filter.op === 'contains'
          ? sql<boolean>`${column} ilike ${containsPattern(value)}`
          : sql<boolean>`${column} like ${matchesPattern(value)}`,
      );
      return sql<boolean>`coalesce((${sql.join(likes, sql` or `)}), false)`;
    }
  }
}
