/**
 * Who may do what only an account-wide admin may. Decided from the person's membership as it is
 * now: a session's user, or a key's creator, so a key stops acting as an admin once its creator
 * is demoted or removed. Accounts, keys and sites all ask here.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { findRole } from './memberships.store.js';
import { notAdmin, type Principal, personOf } from './principal.js';

export async function isAdmin(db: Kysely<DB>, accountId: string, userId: string | null): Promise<boolean> {
  if (!userId) return false;
  return (await findRole(db, accountId, userId)) === 'admin';
}

export async function requireAdmin(db: Kysely<DB>, principal: Principal): Promise<void> {
  if (!(await isAdmin(db, principal.accountId, personOf(principal)))) throw notAdmin();
}
