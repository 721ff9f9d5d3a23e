/** SQL for dashboard sessions (stored by the SHA-256 of the cookie value). */
import type { Insertable, Kysely } from 'kysely';
import type { DashboardSessionsTable, DB } from '../db/types.js';

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
