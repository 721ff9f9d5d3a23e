/** SQL for OpenID Connect sign-in: identity links, sessions' ID tokens, used `state` values. */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/types.js';

type Executor = Kysely<DB> | Transaction<DB>;

/** The member behind a user id: their one membership. */
export function findMembership(db: Executor, userId: string) {
  return db
    .selectFrom('memberships')
    .select(['user_id', 'account_id', 'role'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export function findLinkedUser(db: Executor, issuer: string, subject: string) {
  return db
    .selectFrom('oidc_links')
    .select('user_id')
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
}

export async function hasLinkAt(db: Executor, issuer: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('oidc_links')
    .select('subject')
    .where('issuer', '=', issuer)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Links an identity to a person; a link made at the same moment by a parallel callback wins. */
export function insertLink(
  db: Executor,
  link: { issuer: string; subject: string; user_id: string; now: Date },
) {
  return db
    .insertInto('oidc_links')
    .values({ issuer: link.issuer, subject: link.subject, user_id: link.user_id, created_at: link.now })
    .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
    .execute();
}

/** The account people join through an allowed domain: the server's one account. */
export function findOnlyAccount(db: Executor) {
  return db.selectFrom('accounts').select('id').orderBy('created_at').limit(1).executeTakeFirst();
}

/** Records a used `state`; false when it was used before (a replay). */
export async function useState(
  db: Executor,
  stateHash: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  await db.deleteFrom('oidc_used_states').where('expires_at', '<', now).execute();
  const inserted = await db
    .insertInto('oidc_used_states')
    .values({ state_hash: stateHash, expires_at: expiresAt })
    .onConflict((oc) => oc.column('state_hash').doNothing())
    .returning('state_hash')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function insertOidcSession(
  db: Executor,
  row: { sessionTokenHash: string; idTokenSealed: string; now: Date },
) {
  return db
    .insertInto('oidc_sessions')
    .values({
      session_token_hash: row.sessionTokenHash,
      id_token_sealed: row.idTokenSealed,
      created_at: row.now,
    })
    .execute();
}

export function findOidcSession(db: Executor, sessionTokenHash: string) {
  return db
    .selectFrom('oidc_sessions')
    .select('id_token_sealed')
    .where('session_token_hash', '=', sessionTokenHash)
    .executeTakeFirst();
}
