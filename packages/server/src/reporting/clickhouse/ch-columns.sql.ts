/**
 * The stats vocabulary in ClickHouse SQL, mirroring visit-columns.sql.ts and filter.sql.ts: each
 * visit dimension over a visit row `v` or over an event row `e` (which carries its visit's
 * attributes that never change), time buckets in the query's zone, and the filter tree. A piece
 * the mirror does not hold answers null, and the read goes to PostgreSQL instead.
 */
import type { Filter, FilterLeaf } from '../filters.js';
import { containsPattern, matchesPattern } from '../like-pattern.js';
import type { TimeDimension, VisitDimension } from '../stats-vocabulary.js';
import { isVisitDimension, PROPS_PREFIX } from '../stats-vocabulary.js';
import { type ChFragment, chJoin, chRaw, chSql } from './ch-sql.js';
import { type ChScope, siteRows } from './ch-tables.sql.js';

/** Over `a` (a visit `v`, or an event `e` carrying its visit's attributes). */
const visitColumns = (a: string): Partial<Record<VisitDimension, string>> => ({
  'visit:channel': `if(${a}.source_kind = 'ai', 'ai', ${a}.session_ai_source)`,
  'visit:ai_source': `if(${a}.source_kind = 'ai', ${a}.session_ai_source, NULL)`,
  'visit:source_kind': `${a}.source_kind`,
  'visit:referrer': `nullIf(${a}.source_name, '')`,
  'visit:utm_source': `nullIf(${a}.utm_source, '')`,
  'visit:utm_medium': `nullIf(${a}.utm_medium, '')`,
  'visit:utm_campaign': `nullIf(${a}.campaign, '')`,
  'visit:utm_content': `nullIf(${a}.utm_content, '')`,
  'visit:utm_term': `nullIf(${a}.utm_term, '')`,
  'visit:entry_page': `${a}.entry_path`,
  'visit:country': `nullIf(toString(${a}.country_code), '')`,
  'visit:city': `nullIf(${a}.city, '')`,
  'visit:device': `nullIf(toString(${a}.device_type), '')`,
  'visit:browser': `nullIf(toString(${a}.browser), '')`,
  'visit:os': `nullIf(toString(${a}.os), '')`,
  'visit:new_vs_returning': `if(${a}.is_new, 'new', 'returning')`,
});

export const VISIT_COLUMNS_ON_VISITS: Partial<Record<VisitDimension, string>> = {
  ...visitColumns('v'),
  'visit:exit_page': 'v.exit_path',
};
/** An event row keeps no exit page: it changes with every pageview of the visit (a filter asks the visits). */
export const VISIT_COLUMNS_ON_EVENTS = visitColumns('e');

/**
 * One `"key": value` pair of PostgreSQL's jsonb text (copied as it is: shipper and tail alike),
 * whose values are flat (collect.schemas.ts): a JSON string, or a number, boolean or null.
 */
const PROPERTY_PAIR = String.raw`"((?:[^"\\]|\\.)*)": ("(?:[^"\\]|\\.)*"|[^,}]*)`;

/**
 * One property of the events row `alias`, exactly as PostgreSQL's `properties ->> key` reads
 * it: a string unescaped, a number or boolean as PostgreSQL writes it, null for JSON null or a
 * missing key. Read from the jsonb text rather than by ClickHouse's JSON functions, which write
 * numbers their own way (12.50 as 12.5) and give up on a whole document with an integer past
 * 64 bits.
 */
export function chProperty(alias: string, key: string): ChFragment {
  const pairs = chSql`extractAllGroups(ifNull(${chRaw(`${alias}.properties`)}, ''), ${PROPERTY_PAIR})`;
  const raw = chSql`arrayFirst(pair -> pair[1] = ${JSON.stringify(key).slice(1, -1)}, ${pairs})[2]`;
  return chSql`multiIf(${raw} IN ('', 'null'), NULL, startsWith(${raw}, '"'), JSONExtractString(${raw}), ${raw})`;
}

/** Buckets of a moment in the zone `tz` (a bound parameter), written as timeBucketSql writes them. */
export function timeBucket(dimension: TimeDimension, tz: string, column: string): ChFragment {
  switch (dimension) {
    case 'time:hour':
      return chSql`formatDateTime(${chRaw(column)}, '%Y-%m-%d %H:00:00', ${tz})`;
    case 'time:day':
      return chSql`formatDateTime(${chRaw(column)}, '%Y-%m-%d', ${tz})`;
    case 'time:week':
      return chSql`toString(toMonday(toDate(${chRaw(column)}, ${tz})))`;
    case 'time:month':
      return chSql`formatDateTime(${chRaw(column)}, '%Y-%m-01', ${tz})`;
  }
}

/** What the rows of a filtered read are, as filter.sql.ts names them. */
export type ChRows = 'visits' | 'pageviews';

/**
 * The filter tree as one condition, always true or false, never null; null when a leaf is one the
 * mirror does not hold. Leaves about a visit's events, or a pageview's visit, read the site's
 * rows of `scope` (ch-tables.sql.ts `siteRows`).
 */
export function chFilter(filter: Filter, rows: ChRows, scope: ChScope): ChFragment | null {
  switch (filter.op) {
    case 'and':
    case 'or': {
      if (filter.filters.length === 0) return chRaw('1');
      const members = filter.filters.map((member) => chFilter(member, rows, scope));
      if (members.some((member) => member === null)) return null;
      return chSql`(${chJoin(members as ChFragment[], filter.op === 'and' ? ' AND ' : ' OR ')})`;
    }
    case 'not': {
      const inner = chFilter(filter.filter, rows, scope);
      return inner && chSql`(NOT ${inner})`;
    }
    default:
      return leafFilter(filter, rows, scope);
  }
}

/** A leaf asked of other rows: whether one of `rows` (a subquery of ids) is that value (`is_not`: none is). */
function hadOne(filter: FilterLeaf, id: ChFragment, rows: (positive: FilterLeaf) => ChFragment): ChFragment {
  const positive: FilterLeaf = { ...filter, op: filter.op === 'is_not' ? 'is' : filter.op };
  const had = chSql`coalesce(${id} IN (${rows(positive)}), 0)`;
  return filter.op === 'is_not' ? chSql`(NOT ${had})` : had;
}

function leafFilter(filter: FilterLeaf, rows: ChRows, scope: ChScope): ChFragment | null {
  const { dimension } = filter;
  if (isVisitDimension(dimension)) {
    const column = (rows === 'visits' ? VISIT_COLUMNS_ON_VISITS : VISIT_COLUMNS_ON_EVENTS)[dimension];
    if (column) return leaf(filter, chRaw(column));
    if (dimension !== 'visit:exit_page') return null;
    // A pageview's row does not carry its visit's exit page: ask the visits.
    return hadOne(
      filter,
      chRaw('e.visit_id'),
      (positive) =>
        chSql`SELECT xv.id FROM ${siteRows(scope, 'visits')} AS xv WHERE ${leaf(positive, chRaw('xv.exit_path'))}`,
    );
  }
  if (dimension === 'event:page' && rows === 'pageviews') return leaf(filter, chRaw('e.path'));
  // A leaf about the visit's events: whether one of them is that value.
  const kind = dimension === 'event:page' ? 'pageview' : 'event';
  const column =
    dimension === 'event:page'
      ? chRaw('fe.path')
      : dimension === 'event:goal'
        ? chRaw('fe.name')
        : chProperty('fe', dimension.slice(PROPS_PREFIX.length));
  const events = siteRows(scope, 'events', chSql`type = ${kind}`);
  return hadOne(
    filter,
    chRaw(rows === 'visits' ? 'v.id' : 'e.visit_id'),
    (positive) =>
      chSql`SELECT fe.visit_id FROM ${events} AS fe
      WHERE fe.type = ${kind} AND fe.visit_id IS NOT NULL AND ${leaf(positive, column)}`,
  );
}

function leaf(filter: FilterLeaf, column: ChFragment): ChFragment {
  switch (filter.op) {
    case 'is':
    case 'is_not': {
      const matches = chSql`coalesce(has(${filter.values}, ${column}), 0)`;
      return filter.op === 'is' ? matches : chSql`(NOT ${matches})`;
    }
    case 'contains':
    case 'matches': {
      const likes = filter.values.map((value) =>
        filter.op === 'contains'
          ? chSql`${column} ILIKE ${containsPattern(value)}`
          : chSql`${column} LIKE ${matchesPattern(value)}`,
      );
      return chSql`coalesce((${chJoin(likes, ' OR ')}), 0)`;
    }
  }
}
