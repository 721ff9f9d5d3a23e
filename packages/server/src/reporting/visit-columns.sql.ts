/**
 * The SQL of each visit dimension and metric over `visits v`, from fixed maps: a query's names
 * pick entries here and never reach SQL themselves. Stored '' (no referrer, unknown country)
 * reads as null.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Filter } from './filters.js';
import type { TimeDimension, VisitDimension, VisitMetric } from './stats-vocabulary.js';
import { BOUNCE_ENGAGED_SECONDS } from './stats-vocabulary.js';

/**
 * The path of a stored URL ('/' for none), null when no URL was stored: the database's one rule
 * (`touchtrail_url_path`, migrations/023_event_paths.sql), which events also keep as `path`.
 */
export const urlPath = (url: RawBuilder<string | null>): RawBuilder<string | null> =>
  sql`touchtrail_url_path(${url})`;

export const VISIT_DIMENSION_SQL: Record<VisitDimension, RawBuilder<string | null>> = {
  'visit:channel': sql`case when v.source_kind = 'ai' then 'ai' else v.session_ai_source end`,
  'visit:ai_source': sql`case when v.source_kind = 'ai' then v.session_ai_source end`,
  'visit:source_kind': sql`v.source_kind`,
  'visit:referrer': sql`nullif(v.source_name, '')`,
  'visit:utm_source': sql`nullif(v.utm_source, '')`,
  'visit:utm_medium': sql`nullif(v.utm_medium, '')`,
  'visit:utm_campaign': sql`nullif(v.campaign, '')`,
  'visit:utm_content': sql`nullif(v.utm_content, '')`,
  'visit:utm_term': sql`nullif(v.utm_term, '')`,
  'visit:entry_page': urlPath(sql`v.entry_url`),
  'visit:exit_page': urlPath(sql`v.exit_url`),
  'visit:country': sql`nullif(v.country_code, '')`,
  'visit:city': sql`nullif(v.city, '')`,
  'visit:device': sql`nullif(v.device_type, '')`,
  'visit:browser': sql`nullif(v.browser, '')`,
  'visit:os': sql`nullif(v.os, '')`,
  'visit:new_vs_returning': sql`case when v.is_new then 'new' else 'returning' end`,
};

/**
 * Whether filters keep AI visits only, by the two definitions above: the channel is 'ai' exactly
 * when `source_kind` is, and an assistant is named only for AI visits. Then `v.source_kind = 'ai'`
 * may be added to a query, as the partial index of AI visits needs (migrations/034).
 */
export const keepsAiVisitsOnly = (filters: Filter[]) =>
  filters.some(
    (filter) =>
      filter.op === 'is' &&
      ((filter.dimension === 'visit:channel' && filter.values.every((value) => value === 'ai')) ||
        filter.dimension === 'visit:ai_source'),
  );

/** Buckets of a moment (`column`) in the query's zone, written as the bucket's first moment. */
export function timeBucketSql(
  dimension: TimeDimension,
  timezone: string,
  column: RawBuilder<unknown>,
): RawBuilder<string> {
  const local = sql`(${column} at time zone ${timezone})`;
  switch (dimension) {
    case 'time:hour':
      return sql`to_char(date_trunc('hour', ${local}), 'YYYY-MM-DD HH24:00:00')`;
    case 'time:day':
      return sql`to_char(date_trunc('day', ${local}), 'YYYY-MM-DD')`;
    case 'time:week':
      return sql`to_char(date_trunc('week', ${local}), 'YYYY-MM-DD')`;
    case 'time:month':
      return sql`to_char(date_trunc('month', ${local}), 'YYYY-MM-DD')`;
  }
}

/** Buckets of a `date` column (a UTC day of a rollup) as timeBucketSql writes them; not hours. */
export function dayBucketSql(dimension: TimeDimension, column: RawBuilder<unknown>): RawBuilder<string> {
  switch (dimension) {
    case 'time:day':
      return sql`to_char(${column}, 'YYYY-MM-DD')`;
    case 'time:week':
      return sql`to_char(date_trunc('week', ${column}), 'YYYY-MM-DD')`;
    case 'time:month':
      return sql`to_char(date_trunc('month', ${column}), 'YYYY-MM-DD')`;
    case 'time:hour':
      throw new Error('a day has no hours');
  }
}

/**
 * The person behind a visitor id (or, for a server event without one, a person key), as the
 * visitor reports merge them (identity/identity.ts): the `pl` join of `personLinks`.
 */
export const personSql = (visitorId: RawBuilder<unknown>, personKey?: RawBuilder<unknown>) =>
  personKey
    ? sql`coalesce('p:' || pl.person_key, 'v:' || ${visitorId}, 'p:' || ${personKey})`
    : sql`coalesce('p:' || pl.person_key, 'v:' || ${visitorId})`;

/** The visits `v` that had a custom browser event, as `ce`: what saves a one-page visit from bouncing. */
export const customEventsJoin = (siteId: string, start: RawBuilder<unknown>) => sql`left join (
    select distinct e.visit_id from events e
    where e.site_id = ${siteId} and e.type = 'event' and e.origin = 'browser'
      and e.visit_id is not null and e.occurred_at >= ${start}
  ) ce on ce.visit_id = v.id`;

/** A bounce: one pageview, no custom browser event (`ce` of customEventsJoin) and little engagement. */
export const BOUNCED = sql<boolean>`(v.pageviews = 1 and v.engaged_seconds < ${sql.lit(BOUNCE_ENGAGED_SECONDS)} and ce.visit_id is null)`;

/**
 * What each person contributes to a group (visit-grain.sql.ts counts people by grouping per person,
 * which PostgreSQL does with a hash where `count(distinct)` sorts): their visits, pageviews and
 * engaged seconds, and their bounces when `ce` is joined.
 */
export const personPartialsSql = (withBounces: boolean, matchedPageviews = false) =>
  sql`count(*) as n, sum(v.pageviews) as pv, sum(v.engaged_seconds) as eng,
    ${withBounces ? sql`count(*) filter (where ${BOUNCED})` : sql`0`} as b
    ${matchedPageviews ? sql`, sum(mp.pv) as mpv` : sql``}`;

/** The visit metrics over those per-person rows `pg`: the same figures as VISIT_METRIC_SQL. */
export const VISIT_METRIC_OVER_PEOPLE_SQL: Record<VisitMetric, RawBuilder<number>> = {
  visits: sql`coalesce(sum(pg.n), 0)::float8`,
  pageviews: sql`coalesce(sum(pg.pv), 0)::float8`,
  visitors: sql`count(*)::float8`,
  views_per_visit: sql`coalesce(round(sum(pg.pv)::numeric / nullif(sum(pg.n), 0), 2), 0)::float8`,
  visit_duration: sql`coalesce(round(sum(pg.eng)::numeric / nullif(sum(pg.n), 0)), 0)::float8`,
  bounce_rate: sql`coalesce(round(100.0 * sum(pg.b) / nullif(sum(pg.n), 0), 1), 0)::float8`,
};

export const VISIT_METRIC_SQL: Record<VisitMetric, RawBuilder<number>> = {
  visits: sql`count(*)::float8`,
  pageviews: sql`coalesce(sum(v.pageviews), 0)::float8`,
  visitors: sql`count(distinct ${personSql(sql`v.visitor_id`)})::float8`,
  views_per_visit: sql`coalesce(round(sum(v.pageviews)::numeric / nullif(count(*), 0), 2), 0)::float8`,
  visit_duration: sql`coalesce(round(avg(v.engaged_seconds)), 0)::float8`,
  bounce_rate: sql`coalesce(round(100.0 * count(*) filter (where ${BOUNCED}) / nullif(count(*), 0), 1), 0)::float8`,
};
