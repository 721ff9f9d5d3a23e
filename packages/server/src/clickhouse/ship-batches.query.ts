/**
 * The PostgreSQL side of shipping (migrations/037_clickhouse_ship_order.sql): claiming a stream,
 * reading its next batch in ship order, and moving its cursor. Only rows written by
 * transactions older than every running one are read, so the cursor never passes a row that has
 * yet to commit.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/types.js';

export const STREAMS = ['events', 'visits', 'identity_links', 'crawler_hits'] as const;
export type Stream = (typeof STREAMS)[number];

/** A place in ship order. */
export interface ShipKey {
  xid: string;
  seq: number;
}

export interface Batch {
  rows: Record<string, unknown>[];
  first: ShipKey;
  last: ShipKey;
}

/** Takes the stream's lease until `until`, if no other worker holds it; answers its cursor. */
export async function claimStream(
  db: Kysely<DB>,
  stream: Stream,
  worker: string,
  now: Date,
  until: Date,
): Promise<ShipKey | null> {
  const row = await db
    .updateTable('clickhouse_ship_cursors')
    .set({ leased_by: worker, leased_until: until })
    .where('stream', '=', stream)
    .where((eb) =>
      eb.or([eb('leased_until', 'is', null), eb('leased_until', '<', now), eb('leased_by', '=', worker)]),
    )
    .returning(['ship_xid', 'ship_seq'])
    .executeTakeFirst();
  return row ? { xid: String(row.ship_xid), seq: Number(row.ship_seq) } : null;
}

/** Moves the cursor forward (never back) and gives up the lease, if this worker still holds it. */
export async function advanceStream(
  db: Kysely<DB>,
  stream: Stream,
  worker: string,
  to: ShipKey | null,
  rows: number,
  now: Date,
): Promise<void> {
  if (!to) {
    await db
      .updateTable('clickhouse_ship_cursors')
      .set({ leased_by: null, leased_until: null })
      .where('stream', '=', stream)
      .where('leased_by', '=', worker)
      .execute();
    return;
  }
  await sql`
    update clickhouse_ship_cursors
    set ship_xid = ${to.xid}::xid8, ship_seq = ${to.seq}, shipped_rows = shipped_rows + ${rows},
      shipped_at = ${now}::timestamptz, leased_by = null, leased_until = null
    where stream = ${stream} and leased_by = ${worker}
      and (ship_xid < ${to.xid}::xid8 or (ship_xid = ${to.xid}::xid8 and ship_seq < ${to.seq}))
  `.execute(db);
}

/** Rows after `after` in ship order whose transactions have all finished. */
const afterCursor = (alias: string, after: ShipKey) => sql`
  (${sql.ref(`${alias}.ship_xid`)}, ${sql.ref(`${alias}.ship_seq`)}) > (${after.xid}::xid8, ${after.seq}::bigint)
  and ${sql.ref(`${alias}.ship_xid`)} < pg_snapshot_xmin(pg_current_snapshot())`;

const time = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')`);

/** Each stream's alias in SELECTS. */
const ALIAS: Record<Stream, string> = { events: 'e', visits: 'v', identity_links: 'l', crawler_hits: 'h' };

/** Each stream's rows as ClickHouse stores them, those `where` holds for, in ship order. */
const SELECTS: Record<Stream, (where: RawBuilder<unknown>, limit: number) => RawBuilder<unknown>> = {
  events: (where, limit) => sql`
    select e.site_id, e.event_id, e.type, e.name, e.visitor_id, e.person_key, e.visit_id,
      ${time('e.occurred_at')} as occurred_at, ${time('e.received_at')} as received_at,
      e.url, e.path, e.properties::text as properties, e.origin,
      coalesce(v.source_kind, 'unknown') as source_kind, coalesce(v.session_ai_source, '') as session_ai_source,
      coalesce(v.source_name, '') as source_name, coalesce(v.campaign, '') as campaign,
      coalesce(v.utm_source, '') as utm_source, coalesce(v.utm_medium, '') as utm_medium,
      coalesce(v.utm_content, '') as utm_content, coalesce(v.utm_term, '') as utm_term,
      touchtrail_url_path(v.entry_url) as entry_path, coalesce(v.device_type, '') as device_type,
      coalesce(v.os, '') as os, coalesce(v.browser, '') as browser,
      coalesce(v.country_code, '') as country_code, coalesce(v.city, '') as city,
      coalesce(v.is_new, false) as is_new,
      e.ship_xid::text as ship_xid, e.ship_seq
    from events e
    left join visits v on v.site_id = e.site_id and v.id = e.visit_id
    where ${where}
    order by e.ship_xid, e.ship_seq
    limit ${limit}`,
  visits: (where, limit) => sql`
    select v.site_id, v.id, v.visitor_id, ${time('v.started_at')} as started_at,
      ${time('v.last_activity_at')} as last_activity_at, v.entry_url, v.exit_url,
      touchtrail_url_path(v.entry_url) as entry_path, touchtrail_url_path(v.exit_url) as exit_path, v.source_kind,
      v.session_ai_source, v.source_name, v.campaign, v.utm_source, v.utm_medium, v.utm_content,
      v.utm_term, v.device_type, v.os, v.browser, v.country_code, v.city, v.pageviews,
      v.engaged_seconds, v.is_new, v.ship_xid::text as ship_xid, v.ship_seq
    from visits v
    where ${where}
    order by v.ship_xid, v.ship_seq
    limit ${limit}`,
  identity_links: (where, limit) => sql`
    select l.site_id, l.person_key, l.visitor_id, ${time('l.created_at')} as created_at,
      l.ship_xid::text as ship_xid, l.ship_seq
    from identity_links l
    where ${where}
    order by l.ship_xid, l.ship_seq
    limit ${limit}`,
  crawler_hits: (where, limit) => sql`
    select h.site_id, h.id, h.crawler, h.operator, h.purpose, h.path, h.status,
      ${time('h.occurred_at')} as occurred_at, ${time('h.received_at')} as received_at, h.verified,
      h.ship_xid::text as ship_xid, h.ship_seq
    from crawler_hits h
    where ${where}
    order by h.ship_xid, h.ship_seq
    limit ${limit}`,
};

/** A row as ClickHouse stores it: no transaction id, the sequence number as text (64-bit). */
const asClickHouseRow = ({ ship_xid: _xid, ...row }: Record<string, unknown>) => ({
  ...row,
  ship_seq: String(row.ship_seq),
});

export async function readBatch(
  db: Kysely<DB>,
  stream: Stream,
  after: ShipKey,
  limit: number,
): Promise<Batch | null> {
  const { rows } = await SELECTS[stream](afterCursor(ALIAS[stream], after), limit).execute(db);
  const typed = rows as (Record<string, unknown> & { ship_xid: string; ship_seq: number })[];
  const head = typed[0];
  const tail = typed[typed.length - 1];
  if (!head || !tail) return null;
  return {
    rows: typed.map(asClickHouseRow),
    first: { xid: head.ship_xid, seq: Number(head.ship_seq) },
    last: { xid: tail.ship_xid, seq: Number(tail.ship_seq) },
  };
}

/** What the first row not yet shipped was written at: how far behind the stream is. */
const WRITTEN_AT: Record<Stream, string> = {
  events: 'received_at',
  visits: 'last_activity_at',
  identity_links: 'created_at',
  crawler_hits: 'received_at',
};

export async function oldestUnshipped(db: Kysely<DB>, stream: Stream): Promise<Date | null> {
  const cursor = await db
    .selectFrom('clickhouse_ship_cursors')
    .select(['ship_xid', 'ship_seq'])
    .where('stream', '=', stream)
    .executeTakeFirst();
  if (!cursor) return null;
  const { rows } = await sql<{ at: Date }>`
    select ${sql.ref(`t.${WRITTEN_AT[stream]}`)} as at from ${sql.table(stream)} t
    where (t.ship_xid, t.ship_seq) > (${String(cursor.ship_xid)}::xid8, ${Number(cursor.ship_seq)}::bigint)
    order by t.ship_xid, t.ship_seq
    limit 1`.execute(db);
  const at = rows[0]?.at;
  return at ? new Date(at) : null;
}

/**
 * A site's rows not yet copied (after the stream's cursor), as ClickHouse stores them, at most
 * `limit` (null: more than that). Read in the same snapshot as the cursor by the caller, so the
 * copied rows and these are the whole of the site's traffic at that moment.
 */
export async function readUnshipped(
  db: Kysely<DB>,
  stream: Stream,
  siteId: string,
  limit: number,
): Promise<Record<string, unknown>[] | null> {
  const alias = ALIAS[stream];
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const where = sql`${column('site_id')} = ${siteId}
    and (${column('ship_xid')}, ${column('ship_seq')}) > (
      select c.ship_xid, c.ship_seq from clickhouse_ship_cursors c where c.stream = ${stream})`;
  const { rows } = await SELECTS[stream](where, limit + 1).execute(db);
  if (rows.length > limit) return null;
  return (rows as Record<string, unknown>[]).map(asClickHouseRow);
}

/** Marks every stream as copied to ClickHouse: deletes are queued for it from now on. */
export async function enableShipping(db: Kysely<DB>): Promise<void> {
  await db
    .updateTable('clickhouse_ship_cursors')
    .set({ enabled: true })
    .where('enabled', '=', false)
    .execute();
}

/** A row deleted (or detached) in PostgreSQL, to delete from ClickHouse. */
export interface Deletion {
  id: number;
  siteId: string;
  key: string;
  /** Null: every version. */
  beforeSeq: number | null;
}

/** The oldest queued deletions of a stream whose transactions have finished. */
export async function readDeletions(db: Kysely<DB>, stream: Stream, limit: number): Promise<Deletion[]> {
  const { rows } = await sql<{ id: number; site_id: string; row_key: string; before_seq: number | null }>`
    select d.id, d.site_id, d.row_key, d.before_seq from clickhouse_deletions d
    where d.stream = ${stream} and d.deleted_xid < pg_snapshot_xmin(pg_current_snapshot())
    order by d.id
    limit ${limit}`.execute(db);
  return rows.map((row) => ({
    id: Number(row.id),
    siteId: row.site_id,
    key: row.row_key,
    beforeSeq: row.before_seq === null ? null : Number(row.before_seq),
  }));
}

export async function forgetDeletions(db: Kysely<DB>, ids: number[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('clickhouse_deletions').where('id', 'in', ids).execute();
}

/** The keys of a site's rows deleted in PostgreSQL that ClickHouse may still hold (at most `limit`). */
export async function pendingDeletedKeys(
  db: Kysely<DB>,
  stream: Stream,
  siteId: string,
  limit: number,
): Promise<string[] | null> {
  const rows = await db
    .selectFrom('clickhouse_deletions')
    .select('row_key')
    .where('site_id', '=', siteId)
    .where('stream', '=', stream)
    .where('before_seq', 'is', null)
    .limit(limit + 1)
    .execute();
  return rows.length > limit ? null : rows.map((row) => row.row_key);
}

export async function hasDeletions(db: Kysely<DB>, siteId: string): Promise<boolean> {
  const row = await db
    .selectFrom('clickhouse_deletions')
    .select('id')
    .where('site_id', '=', siteId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function forgetSiteDeletions(db: Kysely<DB>, siteId: string): Promise<void> {
  await db.deleteFrom('clickhouse_deletions').where('site_id', '=', siteId).execute();
}

/** Rows copied so far, per stream. */
export async function shippedRows(db: Kysely<DB>): Promise<Record<string, number>> {
  const rows = await db.selectFrom('clickhouse_ship_cursors').select(['stream', 'shipped_rows']).execute();
  return Object.fromEntries(rows.map((row) => [row.stream, Number(row.shipped_rows)]));
}

/** The latest moment before which PostgreSQL may have let go of copied traffic; null: it holds all. */
export async function pgHoldsFrom(db: Kysely<DB>): Promise<Date | null> {
  const row = await db
    .selectFrom('clickhouse_ship_cursors')
    .select((eb) => eb.fn.max('pg_holds_from').as('from'))
    .executeTakeFirst();
  return row?.from ? new Date(row.from) : null;
}
