/**
 * Page metrics over pageview events, for breakdowns by `event:page`: the people and visits that
 * viewed a page, and its pageviews, bucketed by when the page was viewed.
 */
import { sql } from 'kysely';
import { eventDimensionSql, filterSql } from './filter-sql.js';
import { filteredDimensions, type GrainQuery, personJoin, rangeEnd, rangeStart } from './grain.js';
import type { Grouped } from './grouped-query.js';
import { isEventDimension, isTimeDimension, isVisitDimension } from './stats-vocabulary.js';
import { personSql, timeBucketSql, VISIT_DIMENSION_SQL } from './visit-columns.js';

export type PageviewMetric = 'visitors' | 'visits' | 'pageviews';

const METRIC_SQL = {
  visitors: sql`count(distinct ${personSql(sql`e.visitor_id`)})::float8`,
  visits: sql`count(distinct e.visit_id)::float8`,
  pageviews: sql`count(*)::float8`,
};

export function pageviewGrain(q: GrainQuery, metrics: PageviewMetric[]): Grouped {
  // The visit is joined only when something reads it: most page reports never do.
  const readsVisit =
    q.dimensions.some(isVisitDimension) || [...filteredDimensions(q)].some((name) => name !== 'event:page');
  return {
    rows: sql`
      from events e
      ${readsVisit ? sql`join visits v on v.site_id = e.site_id and v.id = e.visit_id` : sql``}
      ${metrics.includes('visitors') ? personJoin(q, 'e.visitor_id') : sql``}
      where e.site_id = ${q.siteId} and e.type = 'pageview'
        and e.occurred_at >= ${rangeStart(q)} and e.occurred_at < ${rangeEnd(q)}
        and ${filterSql({ op: 'and', filters: q.filters }, 'pageviews')}`,
    dimensions: q.dimensions.map((name) => {
      if (isTimeDimension(name)) return timeBucketSql(name, q.timezone, sql`e.occurred_at`);
      if (isVisitDimension(name)) return VISIT_DIMENSION_SQL[name];
      if (isEventDimension(name)) return eventDimensionSql(name, 'e');
      throw new Error(`pageview grain asked for ${name}`);
    }),
    metrics: metrics.map((name) => METRIC_SQL[name]),
  };
}
