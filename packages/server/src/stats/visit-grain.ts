/**
 * Visit metrics over the `visits` table: a visit counts on the day it started, with all its
 * pageviews and engaged time; the bounce rule reads the visit's custom browser events.
 */
import { sql } from 'kysely';
import { filterSql } from './filter-sql.js';
import { type GrainQuery, personJoin, rangeEnd, rangeStart } from './grain.js';
import type { Grouped } from './grouped-query.js';
import { isTimeDimension, isVisitDimension, type VisitMetric } from './stats-vocabulary.js';
import { timeBucketSql, VISIT_DIMENSION_SQL, VISIT_METRIC_SQL } from './visit-columns.js';

export function visitGrain(q: GrainQuery, metrics: VisitMetric[]): Grouped {
  const start = rangeStart(q);
  const customEvents = metrics.includes('bounce_rate')
    ? sql`left join (
        select distinct e.visit_id from events e
        where e.site_id = ${q.siteId} and e.type = 'event' and e.origin = 'browser'
          and e.visit_id is not null and e.occurred_at >= ${start}
      ) ce on ce.visit_id = v.id`
    : sql``;
  const people = metrics.includes('visitors') ? personJoin(q, 'v.visitor_id') : sql``;
  return {
    rows: sql`
      from visits v ${customEvents} ${people}
      where v.site_id = ${q.siteId} and v.started_at >= ${start} and v.started_at < ${rangeEnd(q)}
        and ${filterSql({ op: 'and', filters: q.filters }, 'visits')}`,
    dimensions: q.dimensions.map((name) => {
      if (isTimeDimension(name)) return timeBucketSql(name, q.timezone, sql`v.started_at`);
      if (isVisitDimension(name)) return VISIT_DIMENSION_SQL[name];
      throw new Error(`visit grain asked for ${name}`);
    }),
    metrics: metrics.map((name) => VISIT_METRIC_SQL[name]),
  };
}
