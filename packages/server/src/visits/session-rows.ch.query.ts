/**
 * The session listing and one session from ClickHouse: the same visits, order and fields as
 * session-rows.query.ts reads from PostgreSQL, over the traffic ch-tables.sql.ts describes,
 * except the two fields ClickHouse does not hold (the `ref` tag, not copied, and the conversion
 * count, which stays on PostgreSQL with the payment rule): session-reads.ts adds those.
 */
import type { ClickHouse } from '../clickhouse/connection.js';
import { chFilter, VISIT_COLUMNS_ON_VISITS } from '../reporting/clickhouse/ch-columns.sql.js';
import { type ChRow, chMoment, chRows, chTime } from '../reporting/clickhouse/ch-read.js';
import { type ChFragment, chRaw, chSql, typed } from '../reporting/clickhouse/ch-sql.js';
import { type ChScope, siteRows } from '../reporting/clickhouse/ch-tables.sql.js';
import type { Instants } from '../reporting/grain.sql.js';
import type { VisitDimension } from '../reporting/stats-vocabulary.js';
import type { SessionPageQuery, SessionRow } from './session-rows.query.js';

/** A session row as ClickHouse gives it. */
export type SessionTraffic = Omit<SessionRow, 'ref' | 'conversions'>;

const dimension = (name: VisitDimension) => chRaw(VISIT_COLUMNS_ON_VISITS[name] as string);

// UUIDs compared as text: ClickHouse orders the UUID type by its halves, PostgreSQL by its bytes.
const COLUMNS = chSql`
  toString(v.id) AS id, v.visitor_id AS visitor_id, toString(v.started_at) AS started_at,
  toString(v.last_activity_at) AS last_activity_at, v.engaged_seconds AS engaged_seconds,
  v.pageviews AS pageviews, ${dimension('visit:channel')} AS channel,
  ${dimension('visit:ai_source')} AS ai_source, v.source_kind AS source_kind,
  ${dimension('visit:referrer')} AS referrer, ${dimension('visit:utm_campaign')} AS campaign,
  v.entry_url AS entry_url, ${dimension('visit:entry_page')} AS entry_page,
  ${dimension('visit:exit_page')} AS exit_page, ${dimension('visit:country')} AS country_code,
  ${dimension('visit:city')} AS city, ${dimension('visit:device')} AS device_type,
  ${dimension('visit:os')} AS os, ${dimension('visit:browser')} AS browser, v.is_new AS is_new`;

/**
 * The session columns over visit rows `rows`, read in a subquery of their own: ClickHouse lets an
 * output name (`started_at` as text) stand for the column of that name in WHERE and ORDER BY.
 */
const sessionsOf = (rows: ChFragment) => chSql`SELECT ${COLUMNS} FROM (${rows}) AS v`;

function toSession(row: ChRow): SessionTraffic {
  const startedAt = String(row.started_at);
  return {
    ...(row as unknown as SessionTraffic),
    started_at: chMoment(startedAt),
    // Visits start on a millisecond (ingest times are epoch milliseconds), so these digits are exact.
    started_at_exact: `${startedAt.replace(' ', 'T')}000`,
    last_activity_at: chMoment(row.last_activity_at),
  };
}

/** One page of the listing, or null when it needs what only PostgreSQL holds. */
export async function chListSessionRows(
  ch: ClickHouse,
  scope: ChScope,
  q: SessionPageQuery,
  range: Instants,
): Promise<SessionTraffic[] | null> {
  if (q.converted !== undefined) return null; // conversions: PostgreSQL
  const filter = chFilter({ op: 'and', filters: q.filters }, 'visits', scope);
  if (!filter) return null;
  const inRange = chSql`started_at >= ${chTime(range.start)} AND started_at < ${chTime(range.end)}`;
  // The cursor keeps PostgreSQL's microseconds, so it is compared at that precision.
  const before: ChFragment = q.before
    ? chSql`(v.started_at, toString(v.id)) < (${typed(q.before.startedAt.replace('T', ' '), "DateTime64(6, 'UTC')")}, ${q.before.id})`
    : chRaw('1');
  const page = chSql`SELECT *, started_at AS sort_at, toString(id) AS sort_id
    FROM ${siteRows(scope, 'visits', inRange)} AS v
    WHERE ${inRange} AND ${filter} AND ${before}
    ORDER BY sort_at DESC, sort_id DESC
    LIMIT ${q.limit}`;
  const rows = await chRows(ch, chSql`${sessionsOf(page)} ORDER BY v.sort_at DESC, v.sort_id DESC`);
  return rows.map(toSession);
}

/** One visit by id; `session` null when the site has none of that id. */
export async function chFindSessionRow(
  ch: ClickHouse,
  scope: ChScope,
  id: string,
): Promise<{ session: SessionTraffic | null }> {
  const byId = chSql`toString(id) = ${id}`;
  const rows = await chRows(
    ch,
    sessionsOf(chSql`SELECT * FROM ${siteRows(scope, 'visits', byId)} WHERE ${byId}`),
  );
  const row = rows[0];
  return { session: row ? toSession(row) : null };
}
