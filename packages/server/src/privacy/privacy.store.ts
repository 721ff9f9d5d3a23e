/**
 * SQL of privacy requests. A request is worked under a lease (`locked_by`, `locked_until`) taken
 * with `FOR UPDATE SKIP LOCKED`, renewed after every batch; a worker that dies lets it run out,
 * and any worker then resumes the request at the step it recorded.
 */
import { type Insertable, type Kysely, sql } from 'kysely';
import type { MatchedCounts, PrivacyRequestsTable } from '../db/privacy-types.js';
import type { DB } from '../db/types.js';

export function insertRequest(db: Kysely<DB>, row: Insertable<PrivacyRequestsTable>) {
  return db.insertInto('privacy_requests').values(row).execute();
}

const requestColumns = [
  'r.id',
  'r.account_id',
  'r.site_id',
  's.snippet_key',
  'r.type',
  'r.subject_kind',
  'r.status',
  'r.requested_by_user',
  'r.requested_by_key',
  'r.matched',
  'r.last_error',
  'r.created_at',
  'r.completed_at',
  'r.export_expires_at',
] as const;

function selectRequests(db: Kysely<DB>, accountId: string) {
  return db
    .selectFrom('privacy_requests as r')
    .innerJoin('sites as s', 's.id', 'r.site_id')
    .select(requestColumns)
    .where('r.account_id', '=', accountId);
}

export type RequestRow = NonNullable<Awaited<ReturnType<typeof findRequest>>>;

export function findRequest(db: Kysely<DB>, accountId: string, id: string) {
  return selectRequests(db, accountId).where('r.id', '=', id).executeTakeFirst();
}

/** Newest first; `before` is the last row of the previous page. */
export function listRequests(
  db: Kysely<DB>,
  accountId: string,
  options: { siteId: string | null; limit: number; before: { createdAt: Date; id: string } | null },
) {
  const { siteId, before } = options;
  return selectRequests(db, accountId)
    .$if(siteId !== null, (query) => query.where('r.site_id', '=', siteId as string))
    .$if(before !== null, (query) =>
      query.where(
        sql<boolean>`(r.created_at, r.id) < (${before?.createdAt}::timestamptz, ${before?.id}::uuid)`,
      ),
    )
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(options.limit)
    .execute();
}

/** Takes the lease on the oldest open request nobody holds (or whose lease ran out). */
export function claimRequest(db: Kysely<DB>, workerId: string, now: Date, leaseUntil: Date) {
  return db
    .updateTable('privacy_requests')
    .set({ status: 'running', locked_by: workerId, locked_until: leaseUntil, attempts: sql`attempts + 1` })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('privacy_requests')
        .select('id')
        .where('status', 'in', ['pending', 'running'])
        .where((free) => free.or([free('locked_until', 'is', null), free('locked_until', '<=', now)]))
        .orderBy('created_at')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .where('status', 'in', ['pending', 'running'])
    .returning(['id', 'site_id', 'type', 'subject_kind', 'step', 'attempts'])
    .executeTakeFirst();
}

/** Extends the lease and records the step reached; false once another worker has taken it over. */
export async function renewLease(
  db: Kysely<DB>,
  id: string,
  workerId: string,
  leaseUntil: Date,
  changes: { step: string; matched?: MatchedCounts },
) {
  const result = await db
    .updateTable('privacy_requests')
    .set({
      locked_until: leaseUntil,
      step: changes.step,
      ...(changes.matched ? { matched: JSON.stringify(changes.matched) } : {}),
    })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives the request back: at once (`retryAt` null), not before `retryAt`, or as failed for good. */
export function releaseRequest(
  db: Kysely<DB>,
  id: string,
  workerId: string,
  outcome: { retryAt: Date | null; error: string | null; failed?: Date },
) {
  return db
    .updateTable('privacy_requests')
    .set({
      locked_by: null,
      locked_until: outcome.retryAt,
      last_error: outcome.error,
      ...(outcome.failed ? { status: 'failed' as const, completed_at: outcome.failed } : {}),
    })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .execute();
}

export function completeRequest(
  db: Kysely<DB>,
  id: string,
  workerId: string,
  done: { at: Date; exportExpiresAt: Date | null },
) {
  return db
    .updateTable('privacy_requests')
    .set({
      status: 'completed',
      completed_at: done.at,
      export_expires_at: done.exportExpiresAt,
      step: null,
      locked_by: null,
      locked_until: null,
      last_error: null,
    })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .execute();
}

/** Forgets whom expired access requests were about: their exports can no longer be read. */
export function dropExpiredScopes(db: Kysely<DB>, now: Date) {
  return db
    .deleteFrom('privacy_request_scope')
    .where('request_id', 'in', (eb) =>
      eb
        .selectFrom('privacy_requests')
        .select('id')
        .where('type', '=', 'access')
        .where('export_expires_at', '<=', now),
    )
    .execute();
}

/**
 * Ends the exports of the site's access requests that share a visitor id, person key or customer
 * id with erasure `id`: what they would export is gone, and their scopes name the person.
 */
export async function endExportsAbout(db: Kysely<DB>, id: string, now: Date) {
  const { rows } = await sql<{ id: string }>`
    select distinct other.id from privacy_requests other
    join privacy_request_scope theirs on theirs.request_id = other.id and theirs.kind <> 'day'
    join privacy_request_scope mine on mine.request_id = ${id} and mine.kind = theirs.kind and mine.value = theirs.value
    where other.type = 'access' and other.id <> ${id}
      and other.site_id = (select site_id from privacy_requests where id = ${id})
  `.execute(db);
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return;
  await db.deleteFrom('privacy_request_scope').where('request_id', 'in', ids).execute();
  await db
    .updateTable('privacy_requests')
    .set({ export_expires_at: now })
    .where('id', 'in', ids)
    .where('status', '=', 'completed')
    .execute();
}

/** The visitor id of a stored visit, for a subject named by its handle. */
export async function findVisitorOfVisit(db: Kysely<DB>, siteId: string, visitId: string) {
  const visit = await db
    .selectFrom('visits')
    .select('visitor_id')
    .where('site_id', '=', siteId)
    .where('id', '=', visitId)
    .executeTakeFirst();
  return visit?.visitor_id;
}

/** The visitor ids and person keys the payments of a customer carry. */
export function findSendersOfCustomer(db: Kysely<DB>, siteId: string, customerId: string) {
  return db
    .selectFrom('payments')
    .select(['visitor_id', 'person_key'])
    .where('site_id', '=', siteId)
    .where('customer_id', '=', customerId)
    .execute();
}

export async function setMatched(db: Kysely<DB>, requestId: string, matched: MatchedCounts): Promise<void> {
  await db
    .updateTable('privacy_requests')
    .set({ matched: JSON.stringify(matched) })
    .where('id', '=', requestId)
    .execute();
}
