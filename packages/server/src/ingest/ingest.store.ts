/** SQL of the ingest batch: every statement takes the whole batch at once. */
import { createHash } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { EventsTable, VisitsTable } from '../db/ingest-types.js';
import type { DB } from '../db/types.js';

type Trx = Transaction<DB>;
type Insertable<T> = { [K in keyof T]: unknown };

export type VisitRow = Omit<VisitsTable, 'started_at' | 'last_activity_at'> & {
  started_at: Date;
  last_activity_at: Date;
};

export function loadSites(db: Kysely<DB>, snippetKeys: string[]) {
  return db
    .selectFrom('sites')
    .select([
      'id',
      'account_id',
      'snippet_key',
      'domain',
      'cookie_apex_domain',
      'currency',
      'deleted_at',
      'verified_at',
    ])
    .where('snippet_key', 'in', snippetKeys)
    .execute();
}

/** 64-bit advisory lock ids from text keys, taken in sorted order so two batches never deadlock. */
export async function lockKeys(trx: Trx, keys: string[]): Promise<void> {
  const ids = [...new Set(keys)]
    .map((key) => createHash('sha256').update(key).digest().readBigInt64BE(0).toString())
    .sort();
  if (ids.length === 0) return;
  await sql`select count(pg_advisory_xact_lock(k)) from (select unnest(${ids}::bigint[]) as k order by 1) as locks`.execute(
    trx,
  );
}

export async function findExistingEventIds(
  trx: Trx,
  siteId: string,
  eventIds: string[],
): Promise<Set<string>> {
  if (eventIds.length === 0) return new Set();
  const rows = await trx
    .selectFrom('events')
    .select('event_id')
    .where('site_id', '=', siteId)
    .where('event_id', 'in', eventIds)
    .execute();
  return new Set(rows.map((row) => row.event_id));
}

/** The latest visit of each visitor. */
export async function loadLatestVisits(trx: Trx, siteId: string, visitorIds: string[]): Promise<VisitRow[]> {
  if (visitorIds.length === 0) return [];
  const rows = await trx
    .selectFrom('visits')
    .selectAll()
    .distinctOn('visitor_id')
    .where('site_id', '=', siteId)
    .where('visitor_id', 'in', visitorIds)
    .orderBy('visitor_id')
    .orderBy('last_activity_at', 'desc')
    .execute();
  return rows as VisitRow[];
}

export async function loadKnownVisitors(
  trx: Trx,
  siteId: string,
  visitorIds: string[],
): Promise<Set<string>> {
  if (visitorIds.length === 0) return new Set();
  const rows = await trx
    .selectFrom('visitors')
    .select('visitor_id')
    .where('site_id', '=', siteId)
    .where('visitor_id', 'in', visitorIds)
    .execute();
  return new Set(rows.map((row) => row.visitor_id));
}

export async function upsertVisits(trx: Trx, visits: VisitRow[]): Promise<void> {
  if (visits.length === 0) return;
  await trx
    .insertInto('visits')
    .values(visits)
    .onConflict((oc) =>
      oc.columns(['site_id', 'id']).doUpdateSet((eb) => ({
        last_activity_at: eb.ref('excluded.last_activity_at'),
        pageviews: eb.ref('excluded.pageviews'),
        engaged_seconds: eb.ref('excluded.engaged_seconds'),
      })),
    )
    .execute();
}

export async function insertEvents(trx: Trx, events: Insertable<EventsTable>[]): Promise<void> {
  if (events.length === 0) return;
  await trx
    .insertInto('events')
    .values(events as never)
    .onConflict((oc) => oc.columns(['site_id', 'event_id']).doNothing())
    .execute();
}

export async function upsertVisitors(
  trx: Trx,
  rows: { site_id: string; visitor_id: string; first_seen: Date; last_seen: Date }[],
): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('visitors')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['site_id', 'visitor_id']).doUpdateSet({
        last_seen: sql`greatest(visitors.last_seen, excluded.last_seen)`,
        first_seen: sql`least(visitors.first_seen, excluded.first_seen)`,
      }),
    )
    .execute();
}

export async function insertIdentityLinks(
  trx: Trx,
  rows: { site_id: string; person_key: string; visitor_id: string; created_at: Date }[],
): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('identity_links')
    .values(rows)
    .onConflict((oc) => oc.columns(['site_id', 'person_key', 'visitor_id']).doNothing())
    .execute();
}

/** Registers names not yet known, while the site holds fewer than `limit` goals in all. */
export async function registerGoals(trx: Trx, siteId: string, names: string[], now: Date, limit: number) {
  if (names.length === 0) return;
  const known = await trx
    .selectFrom('goals')
    .select('name')
    .where('site_id', '=', siteId)
    .where('name', 'in', names)
    .execute();
  const unknown = names.filter((name) => !known.some((row) => row.name === name));
  if (unknown.length === 0) return;
  await lockKeys(trx, [`goals|${siteId}`]);
  const count = await trx
    .selectFrom('goals')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  const room = Math.max(0, limit - Number(count.n));
  const accepted = unknown.slice(0, room);
  if (accepted.length === 0) return;
  await trx
    .insertInto('goals')
    .values(accepted.map((name) => ({ site_id: siteId, id: crypto.randomUUID(), name, created_at: now })))
    .onConflict((oc) => oc.columns(['site_id', 'name']).doNothing())
    .execute();
}

export async function bumpGoalCompletions(
  trx: Trx,
  rows: { site_id: string; day: string; name: string; completions: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('daily_goal_completions')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['site_id', 'day', 'name']).doUpdateSet({
        completions: sql`daily_goal_completions.completions + excluded.completions`,
      }),
    )
    .execute();
}

export async function bumpDailyVisits(
  trx: Trx,
  rows: {
    site_id: string;
    day: string;
    source_kind: string;
    session_ai_source: string;
    visits: number;
    pageviews: number;
  }[],
): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('daily_visits')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['site_id', 'day', 'source_kind', 'session_ai_source']).doUpdateSet({
        visits: sql`daily_visits.visits + excluded.visits`,
        pageviews: sql`daily_visits.pageviews + excluded.pageviews`,
      }),
    )
    .execute();
}

export async function insertOutboxEvents(
  trx: Trx,
  rows: {
    site_id: string;
    id: string;
    type: string;
    dedupe_key: string;
    payload: string;
    created_at: Date;
  }[],
): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('outbox_events')
    .values(rows)
    .onConflict((oc) => oc.columns(['site_id', 'type', 'dedupe_key']).doNothing())
    .execute();
}

export async function markVerified(trx: Trx, siteIds: string[], now: Date): Promise<void> {
  if (siteIds.length === 0) return;
  await trx
    .updateTable('sites')
    .set({ verified_at: now })
    .where('id', 'in', siteIds)
    .where('verified_at', 'is', null)
    .execute();
}

/** One durable attribution job per new conversion event, written with the event itself. */
export async function insertAttributionJobs(
  trx: Trx,
  siteId: string,
  eventIds: string[],
  now: Date,
): Promise<void> {
  if (eventIds.length === 0) return;
  await trx
    .insertInto('attribution_jobs')
    .values(eventIds.map((event_id) => ({ site_id: siteId, event_id, run_after: now, created_at: now })))
    .onConflict((oc) => oc.columns(['site_id', 'event_id']).doNothing())
    .execute();
}
