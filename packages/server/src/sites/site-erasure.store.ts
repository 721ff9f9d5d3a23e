/**
 * SQL for site erasure jobs. A job is claimed by taking a lease (`locked_by`, `locked_until`)
 * under `FOR UPDATE SKIP LOCKED`; the lease is renewed after every batch, and a worker that
 * dies simply lets it run out, after which any worker resumes the job where it stopped.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../db/types.js';

type Executor = Kysely<DB> | Transaction<DB>;

/**
 * Turns sites whose deletion window ran out into erasure jobs: marks `erasure_started_at` (from
 * then on restore answers deletion_in_progress) and inserts the job row, in one transaction.
 * Returns the snippet keys of the sites it started.
 */
export async function startDueErasures(trx: Transaction<DB>, now: Date, limit: number): Promise<string[]> {
  const due = await trx
    .selectFrom('sites')
    .select(['id', 'account_id', 'snippet_key'])
    .where('deleted_at', 'is not', null)
    .where('erasure_started_at', 'is', null)
    .where('deletion_effective_at', '<=', now)
    .orderBy('deletion_effective_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  if (due.length === 0) return [];
  const ids = due.map((site) => site.id);
  await trx.updateTable('sites').set({ erasure_started_at: now }).where('id', 'in', ids).execute();
  await trx
    .insertInto('site_erasures')
    .values(
      due.map((site) => ({
        site_id: site.id,
        account_id: site.account_id,
        snippet_key: site.snippet_key,
        status: 'running' as const,
        started_at: now,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
  return due.map((site) => site.snippet_key);
}

/** Takes the lease on one running job nobody holds (or whose lease ran out). */
export function claimErasure(db: Executor, workerId: string, now: Date, leaseUntil: Date) {
  return db
    .updateTable('site_erasures')
    .set({ locked_by: workerId, locked_until: leaseUntil, attempts: sql`attempts + 1` })
    .where('site_id', '=', (eb) =>
      eb
        .selectFrom('site_erasures')
        .select('site_id')
        .where('status', '=', 'running')
        .where((free) => free.or([free('locked_until', 'is', null), free('locked_until', '<=', now)]))
        .orderBy('started_at')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .where('status', '=', 'running')
    .returning(['site_id', 'snippet_key', 'step', 'attempts'])
    .executeTakeFirst();
}

/** Extends the lease and records the step reached; false when another worker has taken the job over. */
export async function renewLease(
  db: Executor,
  siteId: string,
  workerId: string,
  leaseUntil: Date,
  step: string,
) {
  const result = await db
    .updateTable('site_erasures')
    .set({ locked_until: leaseUntil, step })
    .where('site_id', '=', siteId)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives the job back: at once (`retryAt` null) or not before `retryAt` after a failure. */
export function releaseErasure(
  db: Executor,
  siteId: string,
  workerId: string,
  outcome: { retryAt: Date | null; error: string | null },
) {
  return db
    .updateTable('site_erasures')
    .set({ locked_by: null, locked_until: outcome.retryAt, last_error: outcome.error })
    .where('site_id', '=', siteId)
    .where('locked_by', '=', workerId)
    .execute();
}

/** The last step: the site row itself, only ever once its erasure has begun. */
export function deleteErasedSite(db: Executor, siteId: string) {
  return db
    .deleteFrom('sites')
    .where('id', '=', siteId)
    .where('deleted_at', 'is not', null)
    .where('erasure_started_at', 'is not', null)
    .execute();
}

export function finishErasure(db: Executor, siteId: string, workerId: string, now: Date) {
  return db
    .updateTable('site_erasures')
    .set({ status: 'done', finished_at: now, locked_by: null, locked_until: null, last_error: null })
    .where('site_id', '=', siteId)
    .where('locked_by', '=', workerId)
    .execute();
}

/** The erasure record of a site that may no longer exist, looked up by its public or internal id. */
export function findErasure(db: Executor, ref: { snippetKey: string } | { id: string }) {
  const query = db.selectFrom('site_erasures').select(['site_id', 'account_id', 'snippet_key']);
  return (
    'id' in ref ? query.where('site_id', '=', ref.id) : query.where('snippet_key', '=', ref.snippetKey)
  ).executeTakeFirst();
}
