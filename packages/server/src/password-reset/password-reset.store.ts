/** SQL for password reset links (migrations/021). */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/types.js';

type Executor = Kysely<DB> | Transaction<DB>;

interface NewReset {
  tokenHash: string;
  now: Date;
  expiresAt: Date;
}

/**
 * Stores a link for the person with this email, if there is one, in one statement: the same
 * query runs whether the email exists or not. Answers the person's id, or nothing.
 */
export function insertResetForEmail(db: Executor, email: string, reset: NewReset) {
  return db
    .insertInto('password_resets')
    .columns(['token_hash', 'user_id', 'created_at', 'expires_at'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select([
          eb.val(reset.tokenHash).as('token_hash'),
          'users.id',
          eb.val(reset.now).as('created_at'),
          eb.val(reset.expiresAt).as('expires_at'),
        ])
        .where('users.email', '=', email),
    )
    .returning('user_id')
    .executeTakeFirst();
}

export function insertResetForUser(db: Executor, userId: string, reset: NewReset) {
  return db
    .insertInto('password_resets')
    .values({
      token_hash: reset.tokenHash,
      user_id: userId,
      created_at: reset.now,
      expires_at: reset.expiresAt,
    })
    .execute();
}

/** Links past their hour; nobody can use them, so they go. */
export function deleteExpiredResets(db: Executor, now: Date) {
  return db.deleteFrom('password_resets').where('expires_at', '<=', now).execute();
}

/**
 * Marks an open link used and answers whose it is, or nothing when the token is unknown, used
 * or expired. The conditional update is the one-time gate for concurrent confirmations.
 */
export function claimReset(trx: Transaction<DB>, tokenHash: string, now: Date) {
  return trx
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
}

/** The person's other links stop working once one was used. */
export function closeOtherResets(trx: Transaction<DB>, userId: string, now: Date) {
  return trx
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
