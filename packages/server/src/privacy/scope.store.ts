/**
 * Resolves a request's subject to the person it names, once, and stores that as the request's
 * scope: the subject's own ids, then every visitor id and person key identity links tie to them,
 * followed link by link, as attribution follows them to credit a person's visits. A visitor id
 * linked to two people (a computer they share) ties them together; `matched` and the access
 * export's `visitor_ids` show whom a request reached before anything is erased.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { pgHoldsFrom } from '../clickhouse/ship-batches.query.js';
import type { MatchedCounts, ScopeKind } from '../db/privacy-types.js';
import type { DB } from '../db/types.js';
import { AppError } from '../http/errors.js';
import { type ClickHouseReads, readClickHouse } from '../reporting/clickhouse/ch-read.js';
import { chCountPersonEvents, type ScopeIds } from './ch-person-events.query.js';
import { type PersonTable, personRows, type RequestRef } from './person-rows.sql.js';
import type { Seed } from './subject.js';

/** Link steps followed from the subject; a real person is a handful of devices and ids. */
const MAX_LINK_STEPS = 4;

async function followLinks(trx: Transaction<DB>, siteId: string, seed: Seed) {
  const visitors = new Set(seed.visitors);
  const personKeys = new Set(seed.personKeys);
  let newVisitors = [...visitors];
  let newKeys = [...personKeys];
  for (let step = 0; step < MAX_LINK_STEPS && newVisitors.length + newKeys.length > 0; step++) {
    const links = await trx
      .selectFrom('identity_links')
      .select(['visitor_id', 'person_key'])
      .where('site_id', '=', siteId)
      .where((eb) =>
        eb.or([
          ...(newVisitors.length ? [eb('visitor_id', 'in', newVisitors)] : []),
          ...(newKeys.length ? [eb('person_key', 'in', newKeys)] : []),
        ]),
      )
      .execute();
    newVisitors = [];
    newKeys = [];
    for (const link of links) {
      if (!visitors.has(link.visitor_id)) newVisitors.push(link.visitor_id);
      if (!personKeys.has(link.person_key)) newKeys.push(link.person_key);
      visitors.add(link.visitor_id);
      personKeys.add(link.person_key);
    }
  }
  return { visitors, personKeys };
}

export async function storeScope(trx: Transaction<DB>, ref: RequestRef, seed: Seed): Promise<void> {
  const { visitors, personKeys } = await followLinks(trx, ref.siteId, seed);
  const rows = (kind: ScopeKind, values: Iterable<string>) =>
    [...new Set(values)].map((value) => ({ request_id: ref.requestId, kind, value }));
  const scope = [
    ...rows('visitor', visitors),
    ...rows('person_key', personKeys),
    ...rows('customer', seed.customers),
  ];
  await trx.deleteFrom('privacy_request_scope').where('request_id', '=', ref.requestId).execute();
  for (let at = 0; at < scope.length; at += 500) {
    await trx
      .insertInto('privacy_request_scope')
      .values(scope.slice(at, at + 500))
      .execute();
  }
  // The days the person's visits, pageviews and conversions fall on: where the rollups hold them.
  await sql`
    insert into privacy_request_scope (request_id, kind, value)
    select distinct ${ref.requestId}::uuid, 'day', to_char(d, 'YYYY-MM-DD') from (
      select (visits.started_at at time zone 'UTC')::date as d from visits where ${personRows.visits(ref)}
      union
      select (visits.last_activity_at at time zone 'UTC')::date from visits where ${personRows.visits(ref)}
      union
      select (events.occurred_at at time zone 'UTC')::date from events
      where ${personRows.events(ref)} and events.type = 'event'
    ) days
  `.execute(trx);
}

/** The scope's values of one kind. */
export async function scopeValues(db: Kysely<DB>, requestId: string, kind: ScopeKind): Promise<string[]> {
  const rows = await db
    .selectFrom('privacy_request_scope')
    .select('value')
    .where('request_id', '=', requestId)
    .where('kind', '=', kind)
    .orderBy('value')
    .execute();
  return rows.map((row) => row.value);
}

/** The person's visitor ids and person keys: what ClickHouse is asked about. */
export async function scopeIds(db: Kysely<DB>, requestId: string): Promise<ScopeIds> {
  return {
    visitorIds: await scopeValues(db, requestId, 'visitor'),
    personKeys: await scopeValues(db, requestId, 'person_key'),
  };
}

/**
 * How many rows of each kind are about the person now. Events are counted in ClickHouse once
 * PostgreSQL no longer holds all traffic (503 `unavailable` when ClickHouse cannot answer).
 */
export async function countMatched(
  db: Kysely<DB>,
  ref: RequestRef,
  clickhouse?: ClickHouseReads,
): Promise<MatchedCounts> {
  const count = async (table: PersonTable) => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.table(table)} where ${personRows[table](ref)}`.execute(db);
    return rows[0]?.n ?? 0;
  };
  return {
    visitors: await count('visitors'),
    visits: await count('visits'),
    events: (await pgHoldsFrom(db))
      ? await countEventsInClickHouse(db, ref, clickhouse)
      : await count('events'),
    identity_links: await count('identity_links'),
    payments: await count('payments'),
    refunds: await count('refunds'),
  };
}

async function countEventsInClickHouse(
  db: Kysely<DB>,
  ref: RequestRef,
  clickhouse?: ClickHouseReads,
): Promise<number> {
  const ids = await scopeIds(db, ref.requestId);
  const n = await readClickHouse({ db, clickhouse }, ref.siteId, null, (ch, scope) =>
    chCountPersonEvents(ch, scope, ids),
  );
  // readClickHouse answers or refuses here: PostgreSQL does not hold every event.
  if (n === null) throw new AppError(503, 'unavailable', 'ClickHouse could not answer; retry');
  return n;
}

/** Forgets whom a request is about (an erasure does once it completes). */
export async function deleteScope(db: Kysely<DB>, requestId: string): Promise<void> {
  await db.deleteFrom('privacy_request_scope').where('request_id', '=', requestId).execute();
}

/** Whether `table` still holds a row about the person. */
export async function hasPersonRows(db: Kysely<DB>, ref: RequestRef, table: PersonTable): Promise<boolean> {
  const { rows } =
    await sql`select 1 from ${sql.table(table)} where ${personRows[table](ref)} limit 1`.execute(db);
  return rows.length > 0;
}
