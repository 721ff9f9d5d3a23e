/**
 * Visit metrics over the `visits` table: a visit counts on the day it started, with all its
 * pageviews and engaged time; the bounce rule reads the visit's custom browser events. When
 * people are counted over a range of up to PER_PERSON_MAX_DAYS, the visits are first grouped per
 * person and group, and every metric is summed from those rows: PostgreSQL hashes that grouping
 * where `count(distinct person)` sorts every visit. On 3M pageviews that made 30-day reports
 * 1.3 to 1.6 times faster, but a 12-month breakdown 1.3 times slower, its hash no longer fitting
 * in memory (bench/RESULTS.md), so longer ranges count distinct people.
 */
import { type RawBuilder, sql } from 'kysely';
import { DAY_MS } from '../lib/clock.js';
import { filterSql } from './filter-sql.js';
import { type GrainQuery, personJoin, rangeEnd, rangeStart } from './grain.js';
import type { Grouped } from './grouped-query.js';
import { isTimeDimension, isVisitDimension, type VisitMetric } from './stats-vocabulary.js';
import {
  personPartialsSql,
  personSql,
  timeBucketSql,
  VISIT_DIMENSION_SQL,
  VISIT_METRIC_OVER_PEOPLE_SQL,
  VISIT_METRIC_SQL,
} from './visit-columns.js';

/** The longest range whose visits are grouped per person (a quarter). */
const PER_PERSON_MAX_DAYS = 92;

const daysIn = (q: GrainQuery) => (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS + 1;

export function visitGrain(q: GrainQuery, metrics: VisitMetric[]): Grouped {
  const start = rangeStart(q);
  const withBounces = metrics.includes('bounce_rate');
  const customEvents = withBounces
    ? sql`left join (
        select distinct e.visit_id from events e
        where e.site_id = ${q.siteId} and e.type = 'event' and e.origin = 'browser'
          and e.visit_id is not null and e.occurred_at >= ${start}
      ) ce on ce.visit_id = v.id`
    : sql``;
  const countsPeople = metrics.includes('visitors');
  const rows = sql`
      from visits v ${customEvents} ${countsPeople ? personJoin(q, 'v.visitor_id') : sql``}
      where v.site_id = ${q.siteId} and v.started_at >= ${start} and v.started_at < ${rangeEnd(q)}
        and ${filterSql({ op: 'and', filters: q.filters }, 'visits')}`;
  const dimensions = q.dimensions.map((name): RawBuilder<unknown> => {
    if (isTimeDimension(name)) return timeBucketSql(name, q.timezone, sql`v.started_at`);
    if (isVisitDimension(name)) return VISIT_DIMENSION_SQL[name];
    throw new Error(`visit grain asked for ${name}`);
  });
  if (!countsPeople || daysIn(q) > PER_PERSON_MAX_DAYS) {
    return { rows, dimensions, metrics: metrics.map((name) => VISIT_METRIC_SQL[name]) };
  }
  const groupColumns = dimensions.map((dimension, i) => sql`${dimension} as ${sql.ref(`g${i}`)}`);
  const positions = sql.raw([...Array(dimensions.length + 1).keys()].map((i) => i + 1).join(', '));
  return {
    rows: sql`from (
      select ${sql.join([...groupColumns, sql`${personSql(sql`v.visitor_id`)} as person`])},
        ${personPartialsSql(withBounces)}
      ${rows}
      group by ${positions}
    ) pg`,
    dimensions: dimensions.map((_, i) => sql.ref(`pg.g${i}`)),
    metrics: metrics.map((name) => VISIT_METRIC_OVER_PEOPLE_SQL[name]),
  };
}
