/**
 * Deletes a person's events and, in the same transaction, takes their property values out of the
 * daily property counts (daily_goal_properties, which ingest adds to in the transaction that
 * inserts the events). Deleted events are gone, so a batch re-run after a crash subtracts only
 * what it deletes: never twice, never a value left behind.
 */
import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { DB } from '../db/types.js';

interface PairCount {
  name: string;
  day: string;
  key: string;
  value: string;
  events: number;
}

/**
 * Deletes the events of the site matching `where` (a predicate on `events`, which should bound
 * the batch itself) and subtracts their property values; how many events went. Rows whose count
 * reaches zero are removed, so the value itself goes.
 */
export async function deleteEventsWithValues(
  trx: Transaction<DB>,
  siteId: string,
  where: RawBuilder<unknown>,
): Promise<number> {
  // The day and the values as ingest counts them (sql/ingest/03_record_events.sql).
  const { rows } = await sql<{ deleted: number } & Partial<PairCount>>`
    with gone as (
      delete from events where events.site_id = ${siteId} and ${where}
      returning type, name, occurred_at, properties
    ),
    pairs as (
      select g.name, to_char((g.occurred_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day,
        p.key, p.value, count(*)::int as events
      from gone g cross join lateral jsonb_each_text(g.properties) as p(key, value)
      where g.type = 'event' and jsonb_typeof(g.properties) = 'object' and p.value is not null
      group by 1, 2, 3, 4
    )
    select (select count(*)::int from gone) as deleted, pairs.*
    from (select 1) one left join pairs on true`.execute(trx);
  const pairs = rows.filter((row): row is { deleted: number } & PairCount => row.key != null);
  if (pairs.length > 0) await subtractPairs(trx, siteId, pairs);
  return rows[0]?.deleted ?? 0;
}

async function subtractPairs(trx: Transaction<DB>, siteId: string, pairs: PairCount[]) {
  const counts = sql`unnest(${pairs.map((p) => p.name)}::text[], ${pairs.map((p) => p.day)}::date[],
    ${pairs.map((p) => p.key)}::text[], ${pairs.map((p) => p.value)}::text[],
    ${pairs.map((p) => p.events)}::int[]) as c(name, day, key, value, events)`;
  const matches = sql`d.site_id = ${siteId} and d.name = c.name and d.day = c.day
    and d.key = c.key and d.value = c.value`;
  // Locked in key order first, the order ingest writes these rows in, so the two never deadlock.
  await sql`select 1 from daily_goal_properties d where exists (select 1 from ${counts} where ${matches})
    order by d.site_id, d.name, d.day, d.pair for update`.execute(trx);
  await sql`update daily_goal_properties d set events = d.events - c.events
    from ${counts} where ${matches}`.execute(trx);
  await sql`delete from daily_goal_properties d
    where d.site_id = ${siteId} and d.events <= 0
      and (d.name, d.day) in (select c.name, c.day from ${counts})`.execute(trx);
}
