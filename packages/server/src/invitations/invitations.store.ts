/** SQL for invitations (migrations/021). "Pending" is: not accepted, not revoked, not expired. */
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DB, InvitationsTable } from '../db/types.js';

type Executor = Kysely<DB> | Transaction<DB>;

const VIEW = ['id', 'email', 'role', 'created_at', 'expires_at'] as const;

export function insertInvitation(trx: Executor, row: Insertable<InvitationsTable>) {
  return trx.insertInto('invitations').values(row).execute();
}

/** Revokes the email's open invitation in the account, if any (a re-invitation replaces it). */
export function revokeOpenForEmail(trx: Executor, accountId: string, email: string, now: Date) {
  return trx
    .updateTable('invitations')
    .set({ revoked_at: now })
    .where('account_id', '=', accountId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

export function listPending(db: Executor, accountId: string, now: Date) {
  return db
    .selectFrom('invitations')
    .select(VIEW)
    .where('account_id', '=', accountId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('email')
    .execute();
}

export type InvitationRow = Awaited<ReturnType<typeof listPending>>[number];

/** Revokes an invitation not yet accepted; the number of rows it matched (0: none of the account's). */
export async function revokeInvitation(db: Executor, accountId: string, id: string, now: Date) {
  const result = await db
    .updateTable('invitations')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Marks a pending invitation accepted and answers it, or nothing when the token is unknown,
 * used, revoked or expired (or, with `email`, meant for another address). The conditional
 * update is the one-time gate: of two concurrent accepts, the second finds it already used.
 */
export function claimInvitation(trx: Transaction<DB>, tokenHash: string, now: Date, email?: string) {
  let query = trx
    .updateTable('invitations')
    .set({ accepted_at: now })
    .where('token_hash', '=', tokenHash)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
  if (email !== undefined) query = query.where('email', '=', email);
  return query.returning(['id', 'account_id', 'email', 'role']).executeTakeFirst();
}
