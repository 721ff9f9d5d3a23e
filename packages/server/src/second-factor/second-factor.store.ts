/** SQL for TOTP factors and their recovery codes (migrations/020). */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/types.js';

type Executor = Kysely<DB> | Transaction<DB>;

export function findFactor(db: Executor, userId: string) {
  return db.selectFrom('totp_factors').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/**
 * Stores a pending secret, replacing an earlier pending one; answers nothing when the person
 * already has a confirmed factor (the conditional upsert is the gate for concurrent requests).
 */
export function upsertPendingFactor(db: Executor, row: { userId: string; sealed: string; now: Date }) {
  return db
    .insertInto('totp_factors')
    .values({ user_id: row.userId, secret_sealed: row.sealed, created_at: row.now })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ secret_sealed: row.sealed, created_at: row.now, last_used_step: null })
        .where('totp_factors.confirmed_at', 'is', null),
    )
    .returning('user_id')
    .executeTakeFirst();
}

/**
 * Records `step` as the last accepted code, only when it is later than the last one, so one
 * code cannot be used twice. `confirming` confirms a pending factor in the same statement.
 */
export function acceptStep(db: Executor, userId: string, step: number, confirming: Date | null) {
  return db
    .updateTable('totp_factors')
    .set(confirming ? { last_used_step: step, confirmed_at: confirming } : { last_used_step: step })
    .where('user_id', '=', userId)
    .where('confirmed_at', confirming ? 'is' : 'is not', null)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .returning('user_id')
    .executeTakeFirst();
}

export async function replaceRecoveryCodes(trx: Transaction<DB>, userId: string, codeHashes: string[]) {
  await trx.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
  await trx
    .insertInto('totp_recovery_codes')
    .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash })))
    .execute();
}

/** Marks an unused recovery code used; answers nothing when it is unknown or spent. */
export function useRecoveryCode(db: Executor, userId: string, codeHash: string, now: Date) {
  return db
    .updateTable('totp_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .returning('user_id')
    .executeTakeFirst();
}

export async function deleteFactor(trx: Transaction<DB>, userId: string) {
  await trx.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('totp_factors').where('user_id', '=', userId).execute();
}
