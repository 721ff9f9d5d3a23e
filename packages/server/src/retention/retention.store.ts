/** SQL of the retention purges: the sites each rule applies to, and the bounded deletes. */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/types.js';

/** Deletes up to `limit` rows of one site from `table` that match `where`, through the rest of the primary key `key`. */
export async function deleteSiteRows(
  db: Kysely<DB>,
  target: { table: 'events' | 'crawler_hits' | 'visits' | 'visitors'; key: string },
  siteId: string,
  where: RawBuilder<unknown>,
  limit: number,
): Promise<number> {
  const table = sql.table(target.table);
  const key = sql.ref(target.key);
  const result = await sql`
    delete from ${table} where site_id = ${siteId} and ${key} in (
      select ${key} from ${table} where site_id = ${siteId} and ${where} limit ${limit}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Sites in id order after `after`. */
export function listSites(db: Kysely<DB>, after: string | null) {
  return db
    .selectFrom('sites')
    .select('id')
    .$if(after !== null, (query) => query.where('id', '>', after as string))
    .orderBy('id')
    .execute();
}

/** Raw crawler hits that happened and arrived before `cutoff`. */
export const expiredCrawlerHits = (cutoff: Date) => sql`occurred_at < ${cutoff} and received_at < ${cutoff}`;

/** Up to `limit` raw crawler hits of a site that happened and arrived before `cutoff`. */
export const deleteExpiredCrawlerHits = (db: Kysely<DB>, siteId: string, cutoff: Date, limit: number) =>
  deleteSiteRows(db, { table: 'crawler_hits', key: 'id' }, siteId, expiredCrawlerHits(cutoff), limit);

/** `where`, less the rows that carry money: those never leave PostgreSQL, whatever their type. */
export const withoutValue = (where: RawBuilder<unknown>) => sql`${where} and value_minor is null`;

/** Up to `limit` processor event ids that arrived before `cutoff`; refund ids are kept for good. */
export async function deleteOldProcessorEvents(db: Kysely<DB>, cutoff: Date, limit: number): Promise<number> {
  const result = await sql`
    delete from processor_events where (site_id, provider, event_id) in (
      select site_id, provider, event_id from processor_events
      where received_at < ${cutoff} and event_id not like 'refund:%' limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Sites in id order after `after`, with their events rule. */
export function listSitesWithEventRule(db: Kysely<DB>, after: string | null) {
  return db
    .selectFrom('sites')
    .select(['id', 'events_retention_days'])
    .$if(after !== null, (query) => query.where('id', '>', after as string))
    .orderBy('id')
    .execute();
}

/** Sites in id order after `after` that set `visits_retention_days`. */
export function listSitesWithVisitRule(db: Kysely<DB>, after: string | null) {
  return db
    .selectFrom('sites')
    .select(['id', 'visits_retention_days'])
    .where('visits_retention_days', 'is not', null)
    .$if(after !== null, (query) => query.where('id', '>', after as string))
    .orderBy('id')
    .execute();
}

/** A conversion event whose day's goal rollups are built (reporting/rollups/goal-rollup-day.query.ts). */
const onBuiltGoalDay = sql`exists (
  select 1 from stats_goal_rollup_days g
  where g.site_id = events.site_id and g.day = (events.occurred_at at time zone 'UTC')::date
    and g.built_at is not null)`;

/**
 * Events of `type` older than `cutoff` by both clocks; those the visit rollups are built from
 * only on `builtRows`, conversions only once their day's goal rollups are built.
 */
export function expiredEvents(
  type: string,
  cutoff: Date,
  builtRows: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const feedsRollups = type === 'pageview' ? sql`true` : sql`visit_id is not null`;
  return sql`type = ${sql.lit(type)} and occurred_at < ${cutoff} and received_at < ${cutoff}
    and (not ${feedsRollups} or ${builtRows}) ${type === 'event' ? sql`and ${onBuiltGoalDay}` : sql``}`;
}

/** Visits that started and ended before `cutoff`, on built days. */
export const expiredVisits = (cutoff: Date, builtVisits: RawBuilder<unknown>) =>
  sql`started_at < ${cutoff} and last_activity_at < ${cutoff} and ${builtVisits}`;

/** Visitors last seen before `cutoff` with no visit left. */
export const goneVisitors = (siteId: string, cutoff: Date) => sql`last_seen < ${cutoff} and not exists (
    select 1 from visits v where v.site_id = ${siteId} and v.visitor_id = visitors.visitor_id
  )`;

/**
 * Rows of `stream` already copied to ClickHouse: behind its ship cursor
 * (migrations/037_clickhouse_ship_order.sql), so ClickHouse holds their latest version.
 */
const copiedRows = (stream: 'events' | 'crawler_hits') => sql`(ship_xid, ship_seq) < (
    select c.ship_xid, c.ship_seq from clickhouse_ship_cursors c where c.stream = ${stream})`;

/**
 * Deletes up to `limit` copied rows of one site from PostgreSQL only (ClickHouse keeps its copy:
 * `touchtrail.keep_in_clickhouse`, migration 037). `where` must stay before the stream's
 * `pg_holds_from` as it was before this run (copied-traffic-purge.ts).
 */
export function deleteCopiedRows(
  db: Kysely<DB>,
  stream: 'events' | 'crawler_hits',
  siteId: string,
  where: RawBuilder<unknown>,
  limit: number,
): Promise<number> {
  const key = stream === 'events' ? 'event_id' : 'id';
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('touchtrail.keep_in_clickhouse', 'on', true)`.execute(trx);
    return deleteSiteRows(
      trx,
      { table: stream, key },
      siteId,
      sql`${where} and ${copiedRows(stream)}`,
      limit,
    );
  });
}

/** Says PostgreSQL holds the copied streams from `at` on (migration 038); never moves it back. */
export async function publishPgHoldsFrom(db: Kysely<DB>, at: Date): Promise<void> {
  await db
    .updateTable('clickhouse_ship_cursors')
    .set({ pg_holds_from: at })
    .where('stream', 'in', ['events', 'crawler_hits'])
    .where((eb) => eb.or([eb('pg_holds_from', 'is', null), eb('pg_holds_from', '<', at)]))
    .execute();
}

/** When PostgreSQL holds each copied stream from (migration 038); null: it holds it all. */
export async function pgHoldsFromByStream(db: Kysely<DB>) {
  const rows = await db
    .selectFrom('clickhouse_ship_cursors')
    .select(['stream', 'pg_holds_from'])
    .where('stream', 'in', ['events', 'crawler_hits'])
    .execute();
  const of = (stream: string) => rows.find((row) => row.stream === stream)?.pg_holds_from ?? null;
  return { events: of('events'), crawler_hits: of('crawler_hits') };
}
