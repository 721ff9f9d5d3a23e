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
/** An event row keeps no exit page: it changes with every pageview of the visit. */
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

/** The site's events of one type (ch-tables.sql.ts `siteRows`), for leaves about a visit's events. */
export type SiteEvents = (type: 'pageview' | 'event') => ChFragment;

/** What the rows of a filtered read are, as filter.sql.ts names them. */
export type ChRows = 'visits' | 'pageviews';

/**
 * The filter tree as one condition, always true or false, never null; null when a leaf is one the
 * mirror does not hold (`events` gives the site's event rows of a type, for leaves about a visit's events).
 */
export function chFilter(filter: Filter, rows: ChRows, events: SiteEvents): ChFragment | null {
  switch (filter.op) {
    case 'and':
    case 'or': {
      if (filter.filters.length === 0) return chRaw('1');
      const members = filter.filters.map((member) => chFilter(member, rows, events));
      if (members.some((member) => member === null)) return null;
      return chSql`(${chJoin(members as ChFragment[], filter.op === 'and' ? ' AND ' : ' OR ')})`;
    }
    case 'not': {
      const inner = chFilter(filter.filter, rows, events);
      return inner && chSql`(NOT ${inner})`;
    }
    default:
      return leafFilter(filter, rows, events);
  }
}

function leafFilter(filter: FilterLeaf, rows: ChRows, events: SiteEvents): ChFragment | null {
  const { dimension } = filter;
  if (isVisitDimension(dimension)) {
    const column = (rows === 'visits' ? VISIT_COLUMNS_ON_VISITS : VISIT_COLUMNS_ON_EVENTS)[dimension];
    return column ? leaf(filter, chRaw(column)) : null;
  }
  if (dimension === 'event:page' && rows === 'pageviews') return leaf(filter, chRaw('e.path'));
  // A leaf about the visit's events: whether one of them is that value (`is_not`: none is).
  const kind = dimension === 'event:page' ? 'pageview' : 'event';
  const positive: FilterLeaf = { ...filter, op: filter.op === 'is_not' ? 'is' : filter.op };
  const column =
    dimension === 'event:page'
      ? chRaw('fe.path')
      : dimension === 'event:goal'
        ? chRaw('fe.name')
        : chProperty('fe', dimension.slice(PROPS_PREFIX.length));
  const visit = chRaw(rows === 'visits' ? 'v.id' : 'e.visit_id');
  const had = chSql`coalesce(${visit} IN (
    SELECT fe.visit_id FROM ${events(kind)} AS fe
    WHERE fe.type = ${kind} AND fe.visit_id IS NOT NULL AND ${leaf(positive, column)}), 0)`;
  return filter.op === 'is_not' ? chSql`(NOT ${had})` : had;
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
