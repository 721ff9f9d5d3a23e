/**
 * The steps of a person's erasure, in order. Each step works in bounded batches and is
 * idempotent: it returns how many rows one batch changed, and is done when a batch changes none.
 * A crashed or interrupted erasure resumes at the step it recorded (privacy-jobs.ts).
 *
 * What goes: facts and queued deliveries about the person, the attribution of their goal
 * conversions, their events (and their values in the daily property counts), visits, identity
 * links and visitor rows, and the rollup rows of pages, referrers and campaign tags that only
 * they sent (erase-rollup-values.store.ts). What stays: their payments, for the books, with the
 * visitor id, person key and customer id cleared; daily totals and the other rollups, so totals
 * over past days do not change (interface §4.5), with the person's hashes in the rollups'
 * people lists swapped for meaningless ones.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { sortedLockIds, visitorLockKey } from '../db/advisory-locks.js';
import type { DB } from '../db/types.js';
import { buildGoalRollupDay } from '../reporting/rollups/goal-rollup-day.query.js';
import { personHash, swapPeople } from '../reporting/rollups/people-sketch.js';
import { buildRollupDay, monthOf } from '../reporting/rollups/rollup-day.query.js';
import { lastClosableDay } from '../reporting/rollups/rollup-job.query.js';
import { deleteEventsWithValues } from './erase-events.store.js';
import { deleteSoleValueRows } from './erase-rollup-values.store.js';
import {
  isPaymentEvent,
  ownEvents,
  personEventIds,
  personRows,
  personVisitIds,
  type RequestRef,
} from './person-rows.sql.js';
import { scopeValues } from './scope.store.js';

export interface ErasureStep {
  name: string;
  /** One batch of at most `limit` rows; how many it changed. */
  run(db: Kysely<DB>, ref: RequestRef, limit: number, now: Date): Promise<number>;
}

/** Deletes up to `limit` rows of `table` matching `where` (a predicate on the table by its own name). */
function deleteWhere(
  name: string,
  table: keyof DB & string,
  key: readonly string[],
  where: (ref: RequestRef) => RawBuilder<unknown>,
): ErasureStep {
  return {
    name,
    async run(db, ref, limit) {
      const keys = sql.join(key.map((column) => sql.ref(column)));
      const result = await sql`
        delete from ${sql.table(table)} where (${keys}) in (
          select ${keys} from ${sql.table(table)} where ${where(ref)} limit ${limit})`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },
  };
}

/** Goal conversions of the person (payments keep their attribution, as they keep their amounts). */
const goalEventIds = (ref: RequestRef) =>
  sql`(select events.event_id from events where ${ownEvents(ref)} and events.type = 'event')`;

/** A fact's data (an outbox payload, a delivery envelope's `data`) naming the person's conversions or visits. */
const namesPerson = (ref: RequestRef, data: RawBuilder<unknown>) =>
  sql`(${data} ->> 'event_id' in ${personEventIds(ref)} or ${data} ->> 'visit_id' in ${personVisitIds(ref)})`;

/**
 * Builds the closed days the person visited or converted on that the rollup job has not built
 * yet (their visits, and their goals), so their totals keep the person's visits and conversions
 * after those are gone. A day still open is built later, without them: today's figures may drop
 * by what was erased.
 */
const buildRollups: ErasureStep = {
  name: 'rollups',
  async run(db, ref, _limit, now) {
    const days = await scopeValues(db, ref.requestId, 'day');
    const builtOf = async (table: 'stats_rollup_days' | 'stats_goal_rollup_days') => {
      const rows = await db
        .selectFrom(table)
        .select(sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'))
        .where('site_id', '=', ref.siteId)
        .where(sql<boolean>`day = any(${days}::date[]) and built_at is not null`)
        .execute();
      return new Set(rows.map((row) => row.day));
    };
    const visitsBuilt = await builtOf('stats_rollup_days');
    for (const day of days) if (!visitsBuilt.has(day)) await buildRollupDay(db, ref.siteId, day, now);
    const goalsBuilt = await builtOf('stats_goal_rollup_days');
    const lastDay = await lastClosableDay(db, now);
    for (const day of days) {
      if (!goalsBuilt.has(day) && day <= lastDay) await buildGoalRollupDay(db, ref.siteId, day, now);
    }
    return 0;
  },
};

/** The person's events but payment conversions, and their values in the daily property counts. */
const deleteEvents: ErasureStep = {
  name: 'events',
  run: (db, ref, limit) =>
    db
      .transaction()
      .execute((trx) =>
        deleteEventsWithValues(
          trx,
          ref.siteId,
          sql`events.event_id in (select events.event_id from events where ${ownEvents(ref)} limit ${limit})`,
        ),
      ),
};

/**
 * The person's visits, with any event that joined one of them after the events step. It holds
 * the visitors' ingest locks while it deletes: an ingest batch adding to one of these visits
 * either committed before (and its events are deleted here) or waits and then starts a new
 * visit, which the leftover check finds. No event is left pointing at a deleted visit.
 */
const deleteVisits: ErasureStep = {
  name: 'visits',
  async run(db, ref, limit) {
    return db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: string; visitor_id: string; snippet_key: string }>`
        select visits.id, visits.visitor_id, sites.snippet_key
        from visits join sites on sites.id = visits.site_id
        where ${personRows.visits(ref)} limit ${limit}`.execute(trx);
      if (rows.length === 0) return 0;
      const locks = sortedLockIds(rows.map((row) => visitorLockKey(row.snippet_key, row.visitor_id)));
      await sql`select touchtrail_take_writer_locks(${locks}::bigint[])`.execute(trx);
      const ids = rows.map((row) => row.id);
      await deleteEventsWithValues(
        trx,
        ref.siteId,
        sql`events.visit_id = any(${ids}::uuid[]) and not ${isPaymentEvent}`,
      );
      const result = await sql`delete from visits
        where site_id = ${ref.siteId} and id = any(${ids}::uuid[])`.execute(trx);
      return Number(result.numAffectedRows ?? 0);
    });
  },
};

/** Payment conversion events stay, as their payments do, without the person's ids. */
const detachPaymentEvents: ErasureStep = {
  name: 'payment_events',
  async run(db, ref, limit) {
    const result = await sql`
      update events set visitor_id = null, person_key = null, visit_id = null,
        properties = properties - 'customer_id'
      where (site_id, event_id) in (
        select payments.site_id, payments.event_id from payments where ${personRows.payments(ref)}
          and exists (select 1 from events e where e.site_id = payments.site_id and e.event_id = payments.event_id
            and (e.visitor_id is not null or e.person_key is not null or e.visit_id is not null
              or e.properties ->> 'customer_id' is not null))
        limit ${limit})
    `.execute(db);
    return Number(result.numAffectedRows ?? 0);
  },
};

const detachPayments: ErasureStep = {
  name: 'payments',
  async run(db, ref, limit) {
    const result = await sql`
      update payments set visitor_id = null, person_key = null, customer_id = null
      where (site_id, id) in (select payments.site_id, payments.id from payments where ${personRows.payments(ref)} limit ${limit})
    `.execute(db);
    return Number(result.numAffectedRows ?? 0);
  },
};

/** The person's hashes in the rollups' people lists, each with the meaningless one it is swapped for. */
async function personSwaps(db: Kysely<DB>, ref: RequestRef): Promise<Map<number, number>> {
  const people = [
    ...(await scopeValues(db, ref.requestId, 'visitor')).map((id) => `v:${id}`),
    ...(await scopeValues(db, ref.requestId, 'person_key')).map((key) => `p:${key}`),
  ];
  return new Map(
    people.map((person) => {
      const hash = personHash(person);
      return [hash, personHash(`erased:${ref.requestId}:${hash}`)] as const;
    }),
  );
}

const deleteRollupValues: ErasureStep = {
  name: 'rollup_values',
  async run(db, ref, limit) {
    const swaps = await personSwaps(db, ref);
    return deleteSoleValueRows(db, ref, new Set([...swaps.keys(), ...swaps.values()]), limit);
  },
};

/**
 * Swaps the person's hashes in the rollups' people lists of the days they visited (and those
 * days' months) for hashes of nothing, the same swap everywhere, so counts and merges stay.
 */
const swapRollupPeople: ErasureStep = {
  name: 'rollup_people',
  async run(db, ref, limit) {
    const swaps = await personSwaps(db, ref);
    const days = await scopeValues(db, ref.requestId, 'day');
    const months = [...new Set(days.map(monthOf))];
    let changed = await swapGoalPeople(db, ref.siteId, days, swaps, limit);
    if (changed >= limit) return changed;
    for (const [table, column, values] of [
      ['stats_visit_rollups', 'day', days],
      ['stats_month_rollups', 'month', months],
    ] as const) {
      // Reads every row of those days: the swap cannot be found by SQL, but a day has few rows.
      const { rows } = await sql<{ dimension: string; at: string; value: string; people: Uint8Array }>`
        select dimension, ${sql.ref(column)}::text as at, value, people from ${sql.table(table)}
        where site_id = ${ref.siteId} and ${sql.ref(column)} = any(${values}::date[])
      `.execute(db);
      for (const row of rows) {
        const swapped = swapPeople(row.people, swaps);
        if (!swapped) continue;
        await sql`update ${sql.table(table)} set people = ${swapped}
          where site_id = ${ref.siteId} and dimension = ${row.dimension}
            and ${sql.ref(column)} = ${row.at}::date and value = ${row.value}`.execute(db);
        changed += 1;
        if (changed >= limit) return changed;
      }
    }
    return changed;
  },
};

/** swapRollupPeople's swap in the goal rollups of those days; how many rows changed, up to `limit`. */
async function swapGoalPeople(
  db: Kysely<DB>,
  siteId: string,
  days: string[],
  swaps: Map<number, number>,
  limit: number,
): Promise<number> {
  const { rows } = await sql<{ at: string; name: string; people: Uint8Array }>`
    select day::text as at, name, people from stats_goal_rollups
    where site_id = ${siteId} and day = any(${days}::date[])
  `.execute(db);
  let changed = 0;
  for (const row of rows) {
    const swapped = swapPeople(row.people, swaps);
    if (!swapped) continue;
    await sql`update stats_goal_rollups set people = ${swapped}
      where site_id = ${siteId} and day = ${row.at}::date and name = ${row.name}`.execute(db);
    changed += 1;
    if (changed >= limit) break;
  }
  return changed;
}

export const ERASURE_STEPS: readonly ErasureStep[] = [
  buildRollups,
  deleteWhere(
    'outbox_events',
    'outbox_events',
    ['site_id', 'id'],
    (ref) => sql`outbox_events.site_id = ${ref.siteId} and ${namesPerson(ref, sql`outbox_events.payload`)}`,
  ),
  deleteWhere(
    'webhook_deliveries',
    'webhook_deliveries',
    ['site_id', 'id'],
    (ref) =>
      sql`webhook_deliveries.site_id = ${ref.siteId} and webhook_deliveries.status in ('pending', 'retrying')
      and ${namesPerson(ref, sql`(webhook_deliveries.payload::jsonb -> 'data')`)}`,
  ),
  deleteWhere(
    'attribution_jobs',
    'attribution_jobs',
    ['site_id', 'event_id'],
    (ref) =>
      sql`attribution_jobs.site_id = ${ref.siteId} and attribution_jobs.event_id in ${goalEventIds(ref)}`,
  ),
  deleteWhere(
    'attribution_credits',
    'attribution_credits',
    ['site_id', 'event_id', 'model', 'source'],
    (ref) =>
      sql`attribution_credits.site_id = ${ref.siteId} and attribution_credits.event_id in ${goalEventIds(ref)}`,
  ),
  deleteEvents,
  deleteVisits,
  deleteWhere(
    'identity_links',
    'identity_links',
    ['site_id', 'person_key', 'visitor_id'],
    personRows.identity_links,
  ),
  deleteWhere('visitors', 'visitors', ['site_id', 'visitor_id'], personRows.visitors),
  detachPaymentEvents,
  detachPayments,
  deleteRollupValues,
  swapRollupPeople,
];
