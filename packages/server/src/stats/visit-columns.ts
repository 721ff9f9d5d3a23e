/**
 * The SQL of each visit dimension and metric over `visits v`, from fixed maps: a query's names
 * pick entries here and never reach SQL themselves. Stored '' (no referrer, unknown country)
 * reads as null.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Metric, TimeDimension, VisitDimension } from './stats-vocabulary.js';
import { BOUNCE_ENGAGED_SECONDS } from './stats-vocabulary.js';

/** The scheme and host of a URL, then its path up to the query or fragment. */
const URL_PATH_PATTERN = '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*([^?#]*)';

export const VISIT_DIMENSION_SQL: Record<VisitDimension, RawBuilder<string | null>> = {
  'visit:channel': sql`case when v.source_kind = 'ai' then 'ai' else v.session_ai_source end`,
  'visit:ai_source': sql`case when v.source_kind = 'ai' then v.session_ai_source end`,
  'visit:source_kind': sql`v.source_kind`,
  'visit:referrer': sql`nullif(v.source_name, '')`,
  'visit:entry_page': sql`case when v.entry_url = '' then null
    else coalesce(nullif(substring(v.entry_url from ${sql.lit(URL_PATH_PATTERN)}), ''), '/') end`,
  'visit:country': sql`nullif(v.country_code, '')`,
  'visit:device': sql`nullif(v.device_type, '')`,
  'visit:browser': sql`nullif(v.browser, '')`,
  'visit:os': sql`nullif(v.os, '')`,
};

/** Buckets of the visit's start in the query's zone, written as the bucket's first moment. */
export function timeDimensionSql(dimension: TimeDimension, timezone: string): RawBuilder<string> {
  const local = sql`(v.started_at at time zone ${timezone})`;
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

/** A bounce: one pageview, no custom browser event (`ce`, joined when asked) and little engagement. */
const BOUNCED = sql`(v.pageviews = 1 and v.engaged_seconds < ${sql.lit(BOUNCE_ENGAGED_SECONDS)} and ce.visit_id is null)`;

export const METRIC_SQL: Record<Metric, RawBuilder<number>> = {
  visits: sql`count(*)::float8`,
  pageviews: sql`coalesce(sum(v.pageviews), 0)::float8`,
  visitors: sql`count(distinct v.visitor_id)::float8`,
  views_per_visit: sql`coalesce(round(sum(v.pageviews)::numeric / nullif(count(*), 0), 2), 0)::float8`,
  visit_duration: sql`coalesce(round(avg(v.engaged_seconds)), 0)::float8`,
  bounce_rate: sql`coalesce(round(100.0 * count(*) filter (where ${BOUNCED}) / nullif(count(*), 0), 1), 0)::float8`,
};

/** Metrics that need the visit's custom events joined in. */
export const NEEDS_CUSTOM_EVENTS: ReadonlySet<Metric> = new Set(['bounce_rate']);
