/**
 * SQL of the event reports besides the report queries: the people behind events, read through
 * identity/identity.sql.ts as every report reads them.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { personLinks } from '../identity/identity.sql.js';

/** The person key each linked visitor id belongs to; unlinked ids are left out. */
export async function findPersonKeys(
  db: Kysely<DB>,
  siteId: string,
  visitorIds: readonly string[],
): Promise<Map<string, string>> {
  if (visitorIds.length === 0) return new Map();
  const { rows } = await sql<{ visitor_id: string; person_key: string }>`
    select l.visitor_id, l.person_key from ${personLinks(siteId)} l
    where l.visitor_id in (${sql.join(visitorIds)})
  `.execute(db);
  return new Map(rows.map((row) => [row.visitor_id, row.person_key]));
}

/** The visitor id of a visit and the person key it belongs to (null when unlinked); null for no visit. */
export async function findSenderOfVisit(db: Kysely<DB>, siteId: string, visitId: string) {
  const { rows } = await sql<{ visitor_id: string; person_key: string | null }>`
    select v.visitor_id, l.person_key
    from visits v
    left join ${personLinks(siteId)} l on l.visitor_id = v.visitor_id
    where v.site_id = ${siteId} and v.id = ${visitId}
  `.execute(db);
  return rows[0] ?? null;
}

/** The earliest visit (start time, then id) among all visitor ids of each person key. */
export async function findFirstVisitsOfKeys(
  db: Kysely<DB>,
  siteId: string,
  personKeys: readonly string[],
): Promise<Map<string, string>> {
  if (personKeys.length === 0) return new Map();
  const { rows } = await sql<{ person_key: string; id: string }>`
    select distinct on (l.person_key) l.person_key, v.id
    from ${personLinks(siteId)} l
    join visits v on v.site_id = ${siteId} and v.visitor_id = l.visitor_id
    where l.person_key in (${sql.join(personKeys)})
    order by l.person_key, v.started_at, v.id
  `.execute(db);
  return new Map(rows.map((row) => [row.person_key, row.id]));
}

/** The earliest visit (start time, then id) of each visitor id. */
export async function findFirstVisitsOfVisitors(
  db: Kysely<DB>,
  siteId: string,
  visitorIds: readonly string[],
): Promise<Map<string, string>> {
  if (visitorIds.length === 0) return new Map();
  const { rows } = await sql<{ visitor_id: string; id: string }>`
    select distinct on (v.visitor_id) v.visitor_id, v.id
    from visits v
    where v.site_id = ${siteId} and v.visitor_id in (${sql.join(visitorIds)})
    order by v.visitor_id, v.started_at, v.id
  `.execute(db);
  return new Map(rows.map((row) => [row.visitor_id, row.id]));
}
