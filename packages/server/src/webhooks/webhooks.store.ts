/** SQL for webhook endpoints. */
import {
  type Insertable,
  type Kysely,
  type Selectable,
  sql,
  type Transaction,
  type Updateable,
} from 'kysely';
import { holdTransactionLock, webhookSetLockId } from '../db/advisory-locks.js';
import type { DB } from '../db/types.js';
import type { VerificationStatus, WebhooksTable } from './webhook-tables.js';

type Executor = Kysely<DB> | Transaction<DB>;

export type WebhookRow = Selectable<WebhooksTable>;

/** Serialises creations on one site until the transaction ends, so the cap of 10 holds. */
export async function lockSiteWebhooks(trx: Transaction<DB>, siteId: string) {
  await holdTransactionLock(trx, webhookSetLockId(siteId));
}

export async function countWebhooks(db: Executor, siteId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function insertWebhook(db: Executor, row: Insertable<WebhooksTable>) {
  return db.insertInto('webhooks').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Newest first. */
export function listWebhooks(db: Executor, siteId: string) {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function findWebhook(db: Executor, siteId: string, id: string) {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Locks the endpoint row until the transaction ends (delivery timestamps are allocated under it). */
export function lockWebhook(trx: Transaction<DB>, id: string) {
  return trx.selectFrom('webhooks').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function updateWebhook(db: Executor, siteId: string, id: string, changes: Updateable<WebhooksTable>) {
  return db
    .updateTable('webhooks')
    .set(changes)
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the endpoint; its deliveries go with it (foreign key, on delete cascade). */
export async function deleteWebhook(db: Executor, siteId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhooks')
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Takes one test ping from the endpoint's budget of `perWindow` per window, atomically (every
 * process shares it). False when the budget is spent: nothing is changed then.
 */
export async function takeTestSlot(
  db: Executor,
  id: string,
  now: Date,
  windowStart: Date,
  perWindow: number,
): Promise<boolean> {
  const result = await db
    .updateTable('webhooks')
    .set((eb) => ({
      test_count: eb
        .case()
        .when('test_window_start', '>', windowStart)
        .then(sql<number>`test_count + 1`)
        .else(1)
        .end(),
      test_window_start: eb
        .case()
        .when('test_window_start', '>', windowStart)
        .then(eb.ref('test_window_start'))
        .else(now)
        .end(),
    }))
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('test_window_start', 'is', null),
        eb('test_window_start', '<=', windowStart),
        eb('test_count', '<', perWindow),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export function setVerification(db: Executor, id: string, status: VerificationStatus, now: Date) {
  return db
    .updateTable('webhooks')
    .set({ verification_status: status, updated_at: now })
    .where('id', '=', id)
    .where('verification_status', '!=', status)
    .execute();
}

/**
 * Follows an endpoint's run of failures: a success ends it; a failure starts it, and one that
 * comes `failingCutoff` or more after its start disables the endpoint and marks it `failing`.
 * `failingSince` is what the worker saw when it claimed the attempt; a healthy endpoint's
 * success writes nothing.
 */
export async function noteAttemptOutcome(
  db: Executor,
  id: string,
  outcome: { ok: boolean; failingSince: Date | null; now: Date; failingCutoff: Date },
) {
  const { ok, failingSince, now, failingCutoff } = outcome;
  if (ok || failingSince === null) {
    if (ok && failingSince === null) return;
    await db
      .updateTable('webhooks')
      .set({ failing_since: ok ? null : now })
      .where('id', '=', id)
      .where('failing_since', ok ? 'is not' : 'is', null)
      .execute();
    return;
  }
  await db
    .updateTable('webhooks')
    .set({ enabled: false, verification_status: 'failing', updated_at: now })
    .where('id', '=', id)
    .where('enabled', '=', true)
    .where('failing_since', '<=', failingCutoff)
    .execute();
}
