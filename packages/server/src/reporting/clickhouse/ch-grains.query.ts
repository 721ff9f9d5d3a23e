/**
 * The visit and pageview grains in ClickHouse: the same groups and figures as visit-grain.sql.ts
 * and pageview-grain.sql.ts compute in PostgreSQL, over the traffic ch-tables.sql.ts describes. The
 * database returns plain counts and sums per group; the ratios (views per visit, duration,
 * bounce rate) are rounded here from those integers exactly as PostgreSQL's numeric rounds them,
 * half away from zero, so both engines write the same figure.
 */
import type { ClickHouse } from '../../clickhouse/connection.js';
import { filteredDimensions, type GrainQuery, type Instants } from '../grain.sql.js';
import type { GroupedRow } from '../grouped.query.js';
import type { PageviewMetric } from '../pageview-grain.sql.js';
import {
  BOUNCE_ENGAGED_SECONDS,
  isTimeDimension,
  isVisitDimension,
  type VisitMetric,
} from '../stats-vocabulary.js';
import { chFilter, timeBucket, VISIT_COLUMNS_ON_EVENTS, VISIT_COLUMNS_ON_VISITS } from './ch-columns.sql.js';
import { type ChRow, chRows, chTime } from './ch-read.js';
import { type ChFragment, chJoin, chRaw, chSql } from './ch-sql.js';
import { type ChScope, personLinks, personOf, siteRows } from './ch-tables.sql.js';

const time = chTime;

/** `round(a / b, places)` of non-negative integers, half away from zero, as numeric rounds. */
export function roundedRatio(a: number, b: number, places: number): number {
  if (b === 0) return 0;
  const scale = 10n ** BigInt(places);
  const [x, y] = [BigInt(a) * scale, BigInt(b)];
  return Number((2n * x + y) / (2n * y)) / Number(scale);
}

const groupBy = (count: number) =>
  count === 0 ? chRaw('') : chRaw(`GROUP BY ${[...Array(count).keys()].map((i) => `d${i}`).join(', ')}`);

const aliased = (dimensions: ChFragment[]) => dimensions.map((d, i) => chSql`${d} AS ${chRaw(`d${i}`)}`);

/** The visit grain's groups, or null when the query uses a piece the mirror does not hold. */
export async function chVisitGroups(
  ch: ClickHouse,
  scope: ChScope,
  q: GrainQuery,
  range: Instants,
  metrics: VisitMetric[],
): Promise<GroupedRow[] | null> {
  const dimensions: ChFragment[] = [];
  for (const name of q.dimensions) {
    if (isTimeDimension(name)) dimensions.push(timeBucket(name, q.timezone, 'v.started_at'));
    else if (isVisitDimension(name) && VISIT_COLUMNS_ON_VISITS[name])
      dimensions.push(chRaw(VISIT_COLUMNS_ON_VISITS[name] as string));
    else return null;
  }
  // With a page filter, `pageviews` counts the matching pageviews only: PostgreSQL reads that.
  if (filteredDimensions(q).has('event:page') && metrics.includes('pageviews')) return null;
  const filter = chFilter({ op: 'and', filters: q.filters }, 'visits', scope);
  if (!filter) return null;
  const inRange = chSql`started_at >= ${time(range.start)} AND started_at < ${time(range.end)}`;
  const withBounces = metrics.includes('bounce_rate');
  const countsPeople = metrics.includes('visitors');
  const bounced = withBounces
    ? chSql`countIf(v.pageviews = 1 AND v.engaged_seconds < ${BOUNCE_ENGAGED_SECONDS} AND NOT coalesce(v.id IN (
        SELECT ce.visit_id FROM ${siteRows(scope, 'events', chSql`type = 'event' AND occurred_at >= ${time(range.start)}`)} AS ce
        WHERE ce.type = 'event' AND ce.origin = 'browser' AND ce.visit_id IS NOT NULL), 0))`
    : chRaw('0');
  const select = chSql`
    SELECT ${chJoin([
      ...aliased(dimensions),
      chRaw('count() AS n'),
      chRaw('sum(v.pageviews) AS pv'),
      chRaw('sum(v.engaged_seconds) AS eng'),
      chSql`${bounced} AS b`,
      countsPeople ? chSql`uniqExact(${personOf('v.visitor_id')}) AS people` : chRaw('0 AS people'),
    ])}
    FROM ${siteRows(scope, 'visits', inRange)} AS v
    ${countsPeople ? chSql`LEFT JOIN ${personLinks(scope)} AS pl ON pl.visitor_id = v.visitor_id` : chRaw('')}
    WHERE ${inRange} AND ${filter}
    ${groupBy(dimensions.length)}`;
  const rows = await chRows(ch, select);
  const figures = (row: ChRow) => {
    const [n, pv, eng, b, people] = ['n', 'pv', 'eng', 'b', 'people'].map((key) => Number(row[key] ?? 0)) as [
      number,
      number,
      number,
      number,
      number,
    ];
    const of: Record<VisitMetric, number> = {
      visits: n,
      pageviews: pv,
      visitors: people,
      views_per_visit: roundedRatio(pv, n, 2),
      visit_duration: roundedRatio(eng, n, 0),
      bounce_rate: roundedRatio(100 * b, n, 1),
    };
    return metrics.map((name) => of[name]);
  };
  return toGroups(rows, dimensions.length, figures);
}

/**
 * The exit page of the visits a pageview of the range can belong to, which a pageview's row does
 * not carry (it changes with every pageview): those started before the range ends and active
 * since it began. Narrowing by last activity before `FINAL` is exact: it only grows, so the newest
 * version of a visit passes whenever an older one does.
 */
function visitExitPages(scope: ChScope, range: Instants): ChFragment {
  const active = chSql`started_at < ${time(range.end)} AND last_activity_at >= ${time(range.start)}`;
  return chSql`(SELECT id, exit_path FROM ${siteRows(scope, 'visits', active)} WHERE ${active})`;
}

/** The pageview grain's groups, or null when the query uses a piece the mirror does not hold. */
export async function chPageviewGroups(
  ch: ClickHouse,
  scope: ChScope,
  q: GrainQuery,
  range: Instants,
  metrics: PageviewMetric[],
): Promise<GroupedRow[] | null> {
  const dimensions: ChFragment[] = [];
  for (const name of q.dimensions) {
    if (isTimeDimension(name)) dimensions.push(timeBucket(name, q.timezone, 'e.occurred_at'));
    else if (isVisitDimension(name) && VISIT_COLUMNS_ON_EVENTS[name])
      dimensions.push(chRaw(VISIT_COLUMNS_ON_EVENTS[name] as string));
    else if (name === 'visit:exit_page') dimensions.push(chRaw('xv.exit_path'));
    else if (name === 'event:page') dimensions.push(chRaw('e.path'));
    else return null; // properties and goals are not pageview dimensions
  }
  // As PostgreSQL joins a pageview's visit: every pageview has one.
  const byExitPage = q.dimensions.includes('visit:exit_page');
  const filter = chFilter({ op: 'and', filters: q.filters }, 'pageviews', scope);
  if (!filter) return null;
  const inRange = chSql`type = 'pageview' AND occurred_at >= ${time(range.start)} AND occurred_at < ${time(range.end)}`;
  const countsPeople = metrics.includes('visitors');
  const select = chSql`
    SELECT ${chJoin([
      ...aliased(dimensions),
      countsPeople ? chSql`uniqExact(${personOf('e.visitor_id')}) AS people` : chRaw('0 AS people'),
      chRaw('uniqExact(e.visit_id) AS visits'),
      chRaw('count() AS pageviews'),
    ])}
    FROM ${siteRows(scope, 'events', inRange)} AS e
    ${byExitPage ? chSql`INNER JOIN ${visitExitPages(scope, range)} AS xv ON xv.id = e.visit_id` : chRaw('')}
    ${countsPeople ? chSql`LEFT JOIN ${personLinks(scope)} AS pl ON pl.visitor_id = ifNull(e.visitor_id, '')` : chRaw('')}
    WHERE ${inRange} AND ${filter}
    ${groupBy(dimensions.length)}`;
  const rows = await chRows(ch, select);
  const figures = (row: ChRow) => {
    const of: Record<PageviewMetric, number> = {
      visitors: Number(row.people ?? 0),
      visits: Number(row.visits ?? 0),
      pageviews: Number(row.pageviews ?? 0),
    };
    return metrics.map((name) => of[name]);
  };
  return toGroups(rows, dimensions.length, figures);
}

function toGroups(rows: ChRow[], dimensionCount: number, figures: (row: ChRow) => number[]): GroupedRow[] {
  return rows.map((row) => ({
    dimensions: [...Array(dimensionCount).keys()].map((i) => {
      const value = row[`d${i}`];
      return value === null || value === undefined ? null : String(value);
    }),
    metrics: figures(row),
    extras: [],
  }));
}
