/**
 * The SQL of the realtime view: what happened on a site in the last minutes, read through the
 * time indexes of `events` (pageviews, and custom events), so each scan covers only the minutes
 * asked for however large the site.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { VISIT_DIMENSION_SQL } from '../reporting/visit-columns.sql.js';

export interface ActivityWindow {
  siteId: string;
  /** Inclusive bounds. */
  since: Date;
  until: Date;
}

/**
 * A visitor's activity: their pageviews and the custom events their browser sent (server events
 * join a visit without making it active, as in the visit rule). Two arms, so each one reads
 * its own partial index on (site_id, occurred_at).
 */
function activity(w: ActivityWindow): RawBuilder<unknown> {
  return sql`(
    select e.visitor_id, e.visit_id, e.type, e.url, e.occurred_at from events e
    where e.site_id = ${w.siteId} and e.type = 'pageview'
      and e.occurred_at >= ${w.since} and e.occurred_at <= ${w.until}
    union all
    select e.visitor_id, e.visit_id, e.type, e.url, e.occurred_at from events e
    where e.site_id = ${w.siteId} and e.type = 'event' and e.origin = 'browser'
      and e.occurred_at >= ${w.since} and e.occurred_at <= ${w.until}
  )`;
}

export interface MinuteRow {
  /** Minutes since the epoch. */
  minute: number;
  pageviews: number;
  visitors: number;
}

/** Pageviews and distinct active visitors per clock minute; minutes without activity are absent. */
export async function activityByMinute(db: Kysely<DB>, w: ActivityWindow): Promise<MinuteRow[]> {
  const { rows } = await sql<MinuteRow>`
    select floor(extract(epoch from a.occurred_at) / 60)::float8 as minute,
      count(*) filter (where a.type = 'pageview')::int as pageviews,
      count(distinct a.visitor_id)::int as visitors
    from ${activity(w)} a
    group by 1
  `.execute(db);
  return rows;
}

export async function activeVisitors(db: Kysely<DB>, w: ActivityWindow): Promise<number> {
  const { rows } = await sql<{ visitors: number }>`
    select count(distinct a.visitor_id)::int as visitors from ${activity(w)} a
  `.execute(db);
  return rows[0]?.visitors ?? 0;
}

/** The pages most visitors viewed in the window: distinct visitors per path. */
export async function topPages(db: Kysely<DB>, w: ActivityWindow, limit: number) {
  const { rows } = await sql<{ page: string; visitors: number }>`
    select p.page, count(distinct p.visitor_id)::int as visitors
    from (
      select e.path as page, e.visitor_id from events e
      where e.site_id = ${w.siteId} and e.type = 'pageview'
        and e.occurred_at >= ${w.since} and e.occurred_at <= ${w.until}
    ) p
    where p.page is not null
    group by p.page
    order by visitors desc, p.page collate "C"
    limit ${limit}
  `.execute(db);
  return rows;
}

/** The channels and assistants of the visits the window's activity belongs to. */
export async function topSources(db: Kysely<DB>, w: ActivityWindow, limit: number) {
  const { rows } = await sql<{ channel: string; ai_source: string | null; visitors: number }>`
    select s.channel, s.ai_source, count(distinct s.visitor_id)::int as visitors
    from (
      select ${VISIT_DIMENSION_SQL['visit:channel']} as channel,
        ${VISIT_DIMENSION_SQL['visit:ai_source']} as ai_source, a.visitor_id
      from ${activity(w)} a
      join visits v on v.site_id = ${w.siteId} and v.id = a.visit_id
    ) s
    group by 1, 2
    order by visitors desc, s.channel collate "C", s.ai_source collate "C" nulls first
    limit ${limit}
  `.execute(db);
  return rows;
}
