/**
 * Page metrics over pageview events, for breakdowns by `event:page`: the people and visits that
 * viewed a page, and its pageviews, bucketed by when the page was viewed.
 */
import { type RawBuilder, sql } from 'kysely';
import { eventDimensionSql, filterSql } from './filter.sql.js';
import { filteredDimensions, type GrainQuery, personJoin, rangeEnd, rangeStart } from './grain.sql.js';
import type { Grouped } from './grouped.query.js';
import { isEventDimension, isTimeDimension, isVisitDimension } from './stats-vocabulary.js';
import { keepsAiVisitsOnly, personSql, timeBucketSql, VISIT_DIMENSION_SQL } from './visit-columns.sql.js';

export type PageviewMetric = 'visitors' | 'visits' | 'pageviews';

const METRIC_SQL = {
  visitors: sql`count(distinct ${personSql(sql`e.visitor_id`)})::float8`,
  visits: sql`count(distinct e.visit_id)::float8`,
  pageviews: sql`count(*)::float8`,
};

/** A pageview `e` whose visit viewed the same page on the day before `day` (UTC). */
export const viewedDayBefore = (siteId: string, day: string) => sql<boolean>`exists (
  select 1 from events p
  where p.site_id = ${siteId} and p.visit_id = e.visit_id and p.type = 'pageview' and p.path = e.path
    and p.occurred_at >= ((${day}::date - 1)::timestamp at time zone 'UTC')
    and p.occurred_at < (${day}::date::timestamp at time zone 'UTC')
)`;

/**
 * One row per group (`g0`…), visit (`visit_id`) and person (`person`) with the visit's pageviews
 * `pv` in the group and, with `continuedFrom` (a day), `continued`: whether the visit viewed the
 * page on `continuedFrom` and on the day before it (rollups/rollup-reader.ts counts such a visit
 * once over both days).
 */
export function pageviewsPerVisitSql(q: GrainQuery, continuedFrom: string | null): RawBuilder<unknown> {
  const { rows, dimensions } = pageviewRows(q, true);
  const groupColumns = dimensions.map((dimension, i) => sql`${dimension} as ${sql.ref(`g${i}`)}`);
  const positions = sql.raw([...Array(dimensions.length + 2).keys()].map((i) => i + 1).join(', '));
  const continued = continuedFrom
    ? sql`bool_or(e.occurred_at < ((${continuedFrom}::date + 1)::timestamp at time zone 'UTC')
        and ${viewedDayBefore(q.siteId, continuedFrom)})`
    : sql`false`;
  return sql`
    select ${sql.join([...groupColumns, sql`e.visit_id`, sql`${personSql(sql`e.visitor_id`)} as person`])},
      count(*) as pv, ${continued} as continued
    ${rows}
    group by ${positions}`;
}

/**
 * The pageviews' visits. A visit's activity is never earlier than its pageviews (only browser
 * items move it, and pageviews come only from browsers), so visits idle since before the range
 * have none in it. That bound, and the AI-only condition the filters already imply, let the
 * planner read the AI visits of the range by their partial index (migrations/034) rather than
 * every visit of the site.
 */
const visitsOf = (q: GrainQuery) => sql`join visits v on v.site_id = e.site_id and v.id = e.visit_id
  and v.last_activity_at >= ${rangeStart(q)} ${keepsAiVisitsOnly(q.filters) ? sql`and v.source_kind = 'ai'` : sql``}`;

function pageviewRows(q: GrainQuery, withPeople: boolean) {
  // The visit is joined only when something reads it: most page reports never do.
  const readsVisit =
    q.dimensions.some(isVisitDimension) || [...filteredDimensions(q)].some((name) => name !== 'event:page');
  return {
    rows: sql`
      from events e
      ${readsVisit ? visitsOf(q) : sql``}
      ${withPeople ? personJoin(q, 'e.visitor_id') : sql``}
      where e.site_id = ${q.siteId} and e.type = 'pageview'
        and e.occurred_at >= ${rangeStart(q)} and e.occurred_at < ${rangeEnd(q)}
        and ${filterSql({ op: 'and', filters: q.filters }, 'pageviews')}`,
    dimensions: q.dimensions.map((name) => {
      if (isTimeDimension(name)) return timeBucketSql(name, q.timezone, sql`e.occurred_at`);
      if (isVisitDimension(name)) return VISIT_DIMENSION_SQL[name];
      if (isEventDimension(name)) return eventDimensionSql(name, 'e');
      throw new Error(`pageview grain asked for ${name}`);
    }),
  };
}

export function pageviewGrain(q: GrainQuery, metrics: PageviewMetric[]): Grouped {
  return {
    ...pageviewRows(q, metrics.includes('visitors')),
    metrics: metrics.map((name) => METRIC_SQL[name]),
  };
}
