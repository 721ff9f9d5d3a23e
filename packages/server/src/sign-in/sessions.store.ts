/** SQL for dashboard sessions (stored by the SHA-256 of the cookie value). */
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DashboardSessionsTable, DB, PendingSignInsTable } from '../db/types.js';

export function insertSession(db: Kysely<DB>, row: Omit<Insertable<DashboardSessionsTable>, 'last_seen_at'>) {
  return db
    .insertInto('dashboard_sessions')
    .values({ ...row, last_seen_at: row.created_at })
    .execute();
}

export function findSession(db: Kysely<DB>, tokenHash: string) {
  return db
    .selectFrom('dashboard_sessions')
    .innerJoin('memberships', (join) =>
      join
        .onRef('memberships.user_id', '=', 'dashboard_sessions.user_id')
        .onRef('memberships.account_id', '=', 'dashboard_sessions.account_id'),
    )
    .select([
      'dashboard_sessions.user_id',
      'dashboard_sessions.account_id',
      'dashboard_sessions.last_seen_at',
      'dashboard_sessions.expires_at',
      'memberships.role',
    ])
    .where('dashboard_sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export function touchSession(db: Kysely<DB>, tokenHash: string, now: Date) {
  return db
    .updateTable('dashboard_sessions')
    .set({ last_seen_at: now })
    .where('token_hash', '=', tokenHash)
    .execute();
}

export function deleteSession(db: Kysely<DB>, tokenHash: string) {
  return db.deleteFrom('dashboard_sessions').where('token_hash', '=', tokenHash).execute();
}

export function deleteUserSessions(db: Kysely<DB>, userId: string) {
  return db.deleteFrom('dashboard_sessions').where('user_id', '=', userId).execute();
}

export function deleteExpiredSessions(db: Kysely<DB>, idleBefore: Date, now: Date) {
  return db
    .deleteFrom('dashboard_sessions')
    .where((eb) => eb.or([eb('last_seen_at', '<', idleBefore), eb('expires_at', '<', now)]))
    .execute();
}

/** A person's live sessions, most recently used first. */
export function listUserSessions(db: Kysely<DB>, userId: string, idleBefore: Date, now: Date) {
  return db
    .selectFrom('dashboard_sessions')
    .select(['id', 'token_hash', 'created_at', 'last_seen_at', 'user_agent'])
    .where('user_id', '=', userId)
    .where('last_seen_at', '>', idleBefore)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .orderBy('created_at', 'desc')
    .execute();
}

/** Ends one session of a person; answers nothing when the id is unknown or someone else's. */
export function deleteUserSession(db: Kysely<DB>, userId: string, id: string) {
  return db
    .deleteFrom('dashboard_sessions')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
}

export function deleteOtherUserSessions(
  db: Kysely<DB> | Transaction<DB>,
  userId: string,
  keepTokenHash: string,
) {
  return db
    .deleteFrom('dashboard_sessions')
    .where('user_id', '=', userId)
    .where('token_hash', '!=', keepTokenHash)
    .execute();
}

export function insertPendingSignIn(db: Kysely<DB>, row: Insertable<PendingSignInsTable>) {
  return db.insertInto('pending_sign_ins').values(row).execute();
}

export function findPendingSignIn(db: Kysely<DB>, tokenHash: string) {
  return db
    .selectFrom('pending_sign_ins')
    .innerJoin('memberships', (join) =>
      join
        .onRef('memberships.user_id', '=', 'pending_sign_ins.user_id')
        .onRef('memberships.account_id', '=', 'pending_sign_ins.account_id'),
    )
    .select([
      'pending_sign_ins.user_id',
      'pending_sign_ins.account_id',
      'pending_sign_ins.user_agent',
      'pending_sign_ins.expires_at',
      'memberships.role',
    ])
    .where('pending_sign_ins.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Takes a pending sign-in once: answers nothing when another request already took it. */
export function claimPendingSignIn(db: Kysely<DB>, tokenHash: string) {
  return db
    .deleteFrom('pending_sign_ins')
    .where('token_hash', '=', tokenHash)
    .returning('user_id')
    .executeTakeFirst();
}

export function deleteUserPendingSignIns(db: Kysely<DB> | Transaction<DB>, userId: string) {
  return db.deleteFrom('pending_sign_ins').where('user_id', '=', userId).execute();
}

export function deleteExpiredPendingSignIns(db: Kysely<DB>, now: Date) {
  return db.deleteFrom('pending_sign_ins').where('expires_at', '<=', now).execute();
}
