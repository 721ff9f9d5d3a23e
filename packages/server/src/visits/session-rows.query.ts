/**
 * Sessions (visits) as the listing and the detail show them: one page of a site's visits that
 * started in a window, newest first by start then id, filtered as the stats query filters; or
 * one visit by id. Dimensions read through VISIT_DIMENSION_SQL, so a session shows the same
 * channel, pages and places the reports count it under.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { filterSql } from '../reporting/filter.sql.js';
import type { Filter } from '../reporting/filters.js';
import { VISIT_DIMENSION_SQL } from '../reporting/visit-columns.sql.js';
import type { SessionCursor } from './session-cursor.js';
import { conversionsOfVisit } from './visit-conversions.sql.js';

export interface SessionRow {
  id: string;
  visitor_id: string;
  started_at: Date;
  /** `started_at` to the microsecond, as the cursor carries it. */
  started_at_exact: string;
  last_activity_at: Date;
  engaged_seconds: number;
  pageviews: number;
  channel: string;
  ai_source: string | null;
  source_kind: string;
  referrer: string | null;
  campaign: string | null;
  ref: string | null;
  entry_url: string;
  entry_page: string | null;
  exit_page: string | null;
  country_code: string | null;
  city: string | null;
  device_type: string | null;
  os: string | null;
  browser: string | null;
  is_new: boolean;
  conversions: number;
}

export interface SessionPageQuery {
  siteId: string;
  /** Inclusive days in `timezone`: a visit belongs to the day it started on there. */
  from: string;
  to: string;
  timezone: string;
  filters: Filter[];
  /** Only visits with (true) or without (false) a conversion; undefined: all. */
  converted?: boolean;
  before?: SessionCursor;
  limit: number;
}

const COLUMNS = sql`
  v.id, v.visitor_id, v.started_at, v.last_activity_at,
  to_char(v.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as started_at_exact,
  v.engaged_seconds, v.pageviews,
  ${VISIT_DIMENSION_SQL['visit:channel']} as channel,
  ${VISIT_DIMENSION_SQL['visit:ai_source']} as ai_source,
  v.source_kind,
  ${VISIT_DIMENSION_SQL['visit:referrer']} as referrer,
  ${VISIT_DIMENSION_SQL['visit:utm_campaign']} as campaign,
  nullif(v.ref, '') as ref,
  v.entry_url,
  ${VISIT_DIMENSION_SQL['visit:entry_page']} as entry_page,
  ${VISIT_DIMENSION_SQL['visit:exit_page']} as exit_page,
  ${VISIT_DIMENSION_SQL['visit:country']} as country_code,
  ${VISIT_DIMENSION_SQL['visit:city']} as city,
  ${VISIT_DIMENSION_SQL['visit:device']} as device_type,
  ${VISIT_DIMENSION_SQL['visit:os']} as os,
  ${VISIT_DIMENSION_SQL['visit:browser']} as browser,
  v.is_new,
  (select count(*) from ${conversionsOfVisit()} c)::int as conversions`;

export async function listSessionRows(db: Kysely<DB>, q: SessionPageQuery): Promise<SessionRow[]> {
  const start = sql`(${q.from}::date::timestamp at time zone ${q.timezone})`;
  const end = sql`((${q.to}::date + 1)::timestamp at time zone ${q.timezone})`;
  const converted =
    q.converted === undefined
      ? sql`true`
      : sql`${q.converted ? sql`` : sql`not`} exists (select 1 from ${conversionsOfVisit()} c)`;
  const cursorAt = q.before ? sql`(${q.before.startedAt}::timestamp at time zone 'UTC')` : null;
  // The plain bound lets the (site_id, started_at) index start at the cursor; the pair breaks ties.
  const before = cursorAt
    ? sql`v.started_at <= ${cursorAt} and (v.started_at, v.id) < (${cursorAt}, ${q.before?.id}::uuid)`
    : sql`true`;
  const { rows } = await sql<SessionRow>`
    select ${COLUMNS}
    from visits v
    where v.site_id = ${q.siteId} and v.started_at >= ${start} and v.started_at < ${end}
      and ${filterSql({ op: 'and', filters: q.filters })}
      and ${converted} and ${before}
    order by v.started_at desc, v.id desc
    limit ${q.limit}
  `.execute(db);
  return rows;
}

export async function findSessionRow(db: Kysely<DB>, siteId: string, id: string): Promise<SessionRow | null> {
  const { rows } = await sql<SessionRow>`
    select ${COLUMNS} from visits v where v.site_id = ${siteId} and v.id = ${id}
  `.execute(db);
  return rows[0] ?? null;
}

/** What a session row from ClickHouse lacks (session-rows.ch.query.ts), by visit id. */
export interface PostgresOnlyFields {
  ref: string | null;
  conversions: number;
}

/** The `ref` tag (not copied to ClickHouse) and the conversion count of each visit, by id. */
export async function findPostgresOnlyFields(
  db: Kysely<DB>,
  siteId: string,
  visitIds: readonly string[],
): Promise<Map<string, PostgresOnlyFields>> {
  if (visitIds.length === 0) return new Map();
  const { rows } = await sql<PostgresOnlyFields & { id: string }>`
    select v.id, nullif(v.ref, '') as ref, (select count(*) from ${conversionsOfVisit()} c)::int as conversions
    from visits v
    where v.site_id = ${siteId} and v.id in (${sql.join(visitIds)})
  `.execute(db);
  return new Map(rows.map(({ id, ...fields }) => [id, fields]));
}
