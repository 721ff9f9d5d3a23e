/**
 * Visit metrics over the `visits` table: a visit counts on the day it started, with all its
 * pageviews and engaged time; the bounce rule reads the visit's custom browser events. When
 * people are counted over a range of up to PER_PERSON_MAX_DAYS, the visits are first grouped per
 * person and group, and every metric is summed from those rows: PostgreSQL hashes that grouping
 * where `count(distinct person)` sorts every visit. On 3M pageviews that made 30-day reports
 * 1.3 to 1.6 times faster, but a 12-month breakdown 1.3 times slower, its hash no longer fitting
 * in memory (bench/RESULTS.md), so longer ranges count distinct people. Days the rollups hold
 * are read from them instead (rollups/rollup-reader.ts), with these rows for the other days.
 */
import { type RawBuilder, sql } from 'kysely';
import { DAY_MS } from '../lib/clock.js';
import { filterSql } from './filter.sql.js';
import { filteredDimensions, type GrainQuery, personJoin, rangeEnd, rangeStart } from './grain.sql.js';
import type { Grouped } from './grouped.query.js';
import { isTimeDimension, isVisitDimension, type VisitMetric } from './stats-vocabulary.js';
import {
  customEventsJoin,
  personPartialsSql,
  personSql,
  timeBucketSql,
  VISIT_DIMENSION_SQL,
  VISIT_METRIC_OVER_PEOPLE_SQL,
  VISIT_METRIC_SQL,
} from './visit-columns.sql.js';

/** The longest range whose visits are grouped per person (a quarter). */
const PER_PERSON_MAX_DAYS = 92;

const daysIn = (q: GrainQuery) => (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS + 1;

/**
 * With an `event:page` filter, `pageviews` counts the visits' pageviews the filters hold for,
 * as Plausible counts them (DESIGN.md §7): a page leaf reads the pageview itself, every other
 * leaf its visit. The other metrics stay those of the whole matching visits.
 */
const countsMatchedPageviews = (q: GrainQuery, metrics: VisitMetric[]) =>
  metrics.includes('pageviews') && filteredDimensions(q).has('event:page');

/** `mp.pv`: the pageviews of visit `v` the query's filters hold for. */
const matchedPageviewsJoin = (q: GrainQuery) => sql`left join lateral (
    select count(*) as pv from events e
    where e.site_id = v.site_id and e.visit_id = v.id and e.type = 'pageview'
      and ${filterSql({ op: 'and', filters: q.filters }, 'pageviews')}
  ) mp on true`;

const MATCHED_PAGEVIEWS = sql<number>`coalesce(sum(mp.pv), 0)::float8`;
const MATCHED_PAGEVIEWS_OVER_PEOPLE = sql<number>`coalesce(sum(pg.mpv), 0)::float8`;

/** The query's visits (`from … where …`) and its dimensions over them. */
function visitRows(q: GrainQuery, withBounces: boolean, countsPeople: boolean, matchedPageviews = false) {
  const start = rangeStart(q);
  return {
    rows: sql`
      from visits v ${withBounces ? customEventsJoin(q.siteId, start) : sql``}
      ${countsPeople ? personJoin(q, 'v.visitor_id') : sql``}
      ${matchedPageviews ? matchedPageviewsJoin(q) : sql``}
      where v.site_id = ${q.siteId} and v.started_at >= ${start} and v.started_at < ${rangeEnd(q)}
        and ${filterSql({ op: 'and', filters: q.filters }, 'visits')}`,
    dimensions: q.dimensions.map((name): RawBuilder<unknown> => {
      if (isTimeDimension(name)) return timeBucketSql(name, q.timezone, sql`v.started_at`);
      if (isVisitDimension(name)) return VISIT_DIMENSION_SQL[name];
      throw new Error(`visit grain asked for ${name}`);
    }),
  };
}

/**
 * One row per group (`g0`…) and person (`person`) with what the person contributes: visits
 * `n`, pageviews `pv`, engaged seconds `eng` and, with `withBounces`, bounces `b`.
 */
export function visitsPerPersonSql(
  q: GrainQuery,
  withBounces: boolean,
  matchedPageviews = false,
): RawBuilder<unknown> {
  const { rows, dimensions } = visitRows(q, withBounces, true, matchedPageviews);
  const groupColumns = dimensions.map((dimension, i) => sql`${dimension} as ${sql.ref(`g${i}`)}`);
  const positions = sql.raw([...Array(dimensions.length + 1).keys()].map((i) => i + 1).join(', '));
  return sql`
    select ${sql.join([...groupColumns, sql`${personSql(sql`v.visitor_id`)} as person`])},
      ${personPartialsSql(withBounces, matchedPageviews)}
    ${rows}
    group by ${positions}`;
}

export function visitGrain(q: GrainQuery, metrics: VisitMetric[]): Grouped {
  const withBounces = metrics.includes('bounce_rate');
  const countsPeople = metrics.includes('visitors');
  const matched = countsMatchedPageviews(q, metrics);
  if (!countsPeople || daysIn(q) > PER_PERSON_MAX_DAYS) {
    const { rows, dimensions } = visitRows(q, withBounces, countsPeople, matched);
    const metricSql = { ...VISIT_METRIC_SQL, ...(matched ? { pageviews: MATCHED_PAGEVIEWS } : {}) };
    return { rows, dimensions, metrics: metrics.map((name) => metricSql[name]) };
  }
  const metricSql = {
    ...VISIT_METRIC_OVER_PEOPLE_SQL,
    ...(matched ? { pageviews: MATCHED_PAGEVIEWS_OVER_PEOPLE } : {}),
  };
  return {
    rows: sql`from (${visitsPerPersonSql(q, withBounces, matched)}) pg`,
    dimensions: q.dimensions.map((_, i) => sql.ref(`pg.g${i}`)),
    metrics: metrics.map((name) => metricSql[name]),
  };
}
