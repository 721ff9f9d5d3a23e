/**
 * The last step of an import, in the transaction that completes it: the staged rows become the
 * import's daily counts in `imported_days`. Single hits are first made into visits by the live
 * rules (DESIGN.md §4): a visit ends after 30 minutes without a hit, or when the person arrives
 * from another external source; it takes its source, country and device from its first hit.
 * Only days before the site's own first day (`nativeFrom`) and not held by another completed
 * import are kept, so imported and native traffic never count the same day twice.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/types.js';

/** A visit with a single pageview, no custom event and less time than this is a bounce. */
const BOUNCE_SECONDS = 10;

/** The visit dimensions an imported visit has, as `imported_days.dimension`, and their columns. */
const VISIT_DIMENSIONS = {
  'visit:channel': sql`case when source_kind = 'ai' then 'ai' else session_ai_source end`,
  'visit:ai_source': sql`case when source_kind = 'ai' then session_ai_source end`,
  'visit:referrer': sql`source_name`,
  'visit:utm_source': sql`utm_source`,
  'visit:utm_medium': sql`utm_medium`,
  'visit:utm_campaign': sql`utm_campaign`,
  'visit:utm_content': sql`utm_content`,
  'visit:utm_term': sql`utm_term`,
  'visit:entry_page': sql`entry_page`,
  'visit:exit_page': sql`exit_page`,
  'visit:country': sql`country`,
  'visit:device': sql`device`,
  'visit:browser': sql`browser`,
  'visit:os': sql`os`,
} as const;

export interface KeptDays {
  from: string | null;
  to: string | null;
}

/** Whether a day may be kept: before the site's own traffic, and not another import's. */
const keptDay = (importId: string, siteId: string, nativeFrom: string | null) => sql`
  ${nativeFrom === null ? sql`true` : sql`d.day < ${nativeFrom}::date`}
  and not exists (
    select 1 from imports o
    where o.site_id = ${siteId} and o.id <> ${importId} and o.status = 'completed'
      and d.day between o.date_from and o.date_to
  )`;

/** The import's staged daily counts (a tool that exports them), summed per day and value. */
export async function keepDayRows(
  trx: Transaction<DB>,
  importId: string,
  siteId: string,
  nativeFrom: string | null,
): Promise<KeptDays> {
  await sql`
    insert into imported_days
      (import_id, site_id, day, dimension, value, visitors, visits, pageviews, bounces, duration_seconds, events)
    select ${importId}, ${siteId}, d.day, d.dimension, d.value, sum(d.visitors), sum(d.visits),
      sum(d.pageviews), sum(d.bounces), sum(d.duration_seconds), sum(d.events)
    from import_day_rows d
    where d.import_id = ${importId} and ${keptDay(importId, siteId, nativeFrom)}
    group by d.day, d.dimension, d.value
  `.execute(trx);
  return keptRange(trx, importId);
}

/** The import's staged hits as visits, then their daily counts per dimension. */
export async function keepHits(
  trx: Transaction<DB>,
  importId: string,
  siteId: string,
  nativeFrom: string | null,
): Promise<KeptDays> {
  // Each hit with its visit's number in the session, then one row per visit.
  await sql`drop table if exists import_hits_now`.execute(trx);
  await sql`drop table if exists import_visits_now`.execute(trx);
  await sql`
    create temporary table import_hits_now on commit drop as
    with carried as (
      -- The last external source seen so far in the session, carried over internal hits.
      select h.*, first_value(h.source_key) over (partition by h.session_key, h.sources order by h.at, h.seq) as last_source
      from (
        select *, count(nullif(source_key, '')) over (partition by session_key order by at, seq) as sources
        from import_hits where import_id = ${importId}
      ) h
    ), starts as (
      select c.*,
        case when lag(c.at) over w is null
          or c.at - lag(c.at) over w > interval '30 minutes'
          or (c.source_key <> '' and c.source_key is distinct from lag(c.last_source) over w)
        then 1 else 0 end as starts
      from carried c
      window w as (partition by c.session_key order by c.at, c.seq)
    )
    select s.session_key, s.visitor_key, s.at, s.seq, s.is_pageview, s.path, s.name,
      s.source_kind, s.session_ai_source, s.source_name, s.utm_source, s.utm_medium, s.utm_campaign,
      s.utm_content, s.utm_term, s.country, s.device, s.browser, s.os, s.engaged_seconds,
      sum(s.starts) over (partition by s.session_key order by s.at, s.seq) as visit_no
    from starts s
  `.execute(trx);
  await sql`
    create temporary table import_visits_now on commit drop as
    select session_key, visit_no,
      min(visitor_key) as visitor_key,
      (min(at) at time zone 'UTC')::date as day,
      (array_agg(source_kind order by at, seq))[1] as source_kind,
      (array_agg(session_ai_source order by at, seq))[1] as session_ai_source,
      (array_agg(source_name order by at, seq))[1] as source_name,
      (array_agg(utm_source order by at, seq))[1] as utm_source,
      (array_agg(utm_medium order by at, seq))[1] as utm_medium,
      (array_agg(utm_campaign order by at, seq))[1] as utm_campaign,
      (array_agg(utm_content order by at, seq))[1] as utm_content,
      (array_agg(utm_term order by at, seq))[1] as utm_term,
      (array_agg(country order by at, seq))[1] as country,
      (array_agg(device order by at, seq))[1] as device,
      (array_agg(browser order by at, seq))[1] as browser,
      (array_agg(os order by at, seq))[1] as os,
      coalesce((array_agg(path order by at, seq) filter (where is_pageview))[1], '') as entry_page,
      coalesce((array_agg(path order by at desc, seq desc) filter (where is_pageview))[1], '') as exit_page,
      count(*) filter (where is_pageview) as pageviews,
      count(*) filter (where not is_pageview and name <> '') as custom_events,
      case when sum(engaged_seconds) > 0 then sum(engaged_seconds)
        else extract(epoch from max(at) - min(at))::bigint end as duration_seconds
    from import_hits_now
    group by session_key, visit_no
  `.execute(trx);

  const visitCounts = sql`count(distinct visitor_key), count(*), sum(pageviews),
    count(*) filter (where pageviews = 1 and custom_events = 0 and duration_seconds < ${sql.lit(BOUNCE_SECONDS)}),
    sum(duration_seconds), sum(custom_events)`;
  const into = sql`insert into imported_days
    (import_id, site_id, day, dimension, value, visitors, visits, pageviews, bounces, duration_seconds, events)`;
  const kept = keptDay(importId, siteId, nativeFrom);

  await sql`${into}
    select ${importId}, ${siteId}, d.day, '', '', ${visitCounts}
    from import_visits_now d where ${kept} group by d.day`.execute(trx);
  for (const [dimension, column] of Object.entries(VISIT_DIMENSIONS)) {
    await sql`${into}
      select ${importId}, ${siteId}, d.day, ${dimension}, coalesce(${column}, ''), ${visitCounts}
      from import_visits_now d where ${kept} group by d.day, 5`.execute(trx);
  }
  // Pages and goals count on the day of the hit itself, as the live reports do.
  const hits = (pageviews: boolean) => sql`(
    select (at at time zone 'UTC')::date as day, ${pageviews ? sql`path` : sql`name`} as value,
      visitor_key, session_key || ' ' || visit_no as visit
    from import_hits_now where ${pageviews ? sql`is_pageview` : sql`not is_pageview and name <> ''`}) d`;
  await sql`${into}
    select ${importId}, ${siteId}, d.day, 'event:page', d.value, count(distinct d.visitor_key),
      count(distinct d.visit), count(*), 0, 0, 0
    from ${hits(true)} where ${kept} group by d.day, d.value`.execute(trx);
  await sql`${into}
    select ${importId}, ${siteId}, d.day, 'event:goal', d.value, count(distinct d.visitor_key),
      count(distinct d.visit), 0, 0, 0, count(*)
    from ${hits(false)} where ${kept} group by d.day, d.value`.execute(trx);
  return keptRange(trx, importId);
}

async function keptRange(trx: Transaction<DB>, importId: string): Promise<KeptDays> {
  const { rows } = await sql<{ from: string | null; to: string | null }>`
    select to_char(min(day), 'YYYY-MM-DD') as from, to_char(max(day), 'YYYY-MM-DD') as to
    from imported_days where import_id = ${importId}`.execute(trx);
  return { from: rows[0]?.from ?? null, to: rows[0]?.to ?? null };
}

/** The site's first day of its own traffic, UTC: imported days start before it. */
export async function firstNativeDay(trx: Transaction<DB>, siteId: string): Promise<string | null> {
  const { rows } = await sql<{ day: string | null }>`
    select to_char(min(started_at) at time zone 'UTC', 'YYYY-MM-DD') as day from visits where site_id = ${siteId}
  `.execute(trx);
  return rows[0]?.day ?? null;
}
