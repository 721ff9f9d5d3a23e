/** SQL for accounts, the people in them and their roles. */
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { AccountsTable, DB, MembershipsTable, Role, UsersTable } from '../db/types.js';

type Executor = Kysely<DB> | Transaction<DB>;

/** Whether the server is set up: it has an account. */
export async function anyAccountExists(db: Executor): Promise<boolean> {
  return (await db.selectFrom('accounts').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Sets the site cap of every self-hosted account that differs from `siteLimit`. */
export async function applySelfHostedSiteLimit(db: Executor, siteLimit: number): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ site_limit: siteLimit })
    .where('plan', '=', 'self_hosted')
    .where('site_limit', '<>', siteLimit)
    .execute();
}

export function countAccounts(db: Executor) {
  return db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.count));
}

export function insertAccount(db: Executor, account: Insertable<AccountsTable>) {
  return db.insertInto('accounts').values(account).execute();
}

export function getAccount(db: Executor, id: string) {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(
  trx: Transaction<DB>,
  user: Insertable<UsersTable>,
  membership: Pick<Insertable<MembershipsTable>, 'account_id' | 'role'>,
) {
  await trx.insertInto('users').values(user).execute();
  await trx
    .insertInto('memberships')
    .values({ ...membership, user_id: user.id, created_at: user.created_at })
    .execute();
}

/** The one place a password is changed (reset, change); callers end the sessions it should end. */
export function setPasswordHash(db: Executor, userId: string, passwordHash: string) {
  return db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

export function findUser(db: Executor, userId: string) {
  return db
    .selectFrom('users')
    .select(['email', 'password_hash'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

export function findLogin(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .innerJoin('memberships', 'memberships.user_id', 'users.id')
    .select(['users.id as user_id', 'users.password_hash', 'memberships.account_id', 'memberships.role'])
    .where('users.email', '=', email)
    .executeTakeFirst();
}

export function findUserByEmail(db: Executor, email: string) {
  return db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
}

export function getMember(db: Executor, accountId: string, userId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id as user_id', 'users.email', 'memberships.role', 'memberships.created_at'])
    .where('memberships.account_id', '=', accountId)
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();
}

export function listMembers(db: Executor, accountId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id as user_id', 'users.email', 'memberships.role', 'memberships.created_at'])
    .where('memberships.account_id', '=', accountId)
    .orderBy('memberships.created_at')
    .orderBy('users.email')
    .execute();
}

export type MemberRow = Awaited<ReturnType<typeof listMembers>>[number];

/** Locks the account's admin rows so two concurrent demotions cannot both pass the last-admin check. */
export function lockAdmins(trx: Transaction<DB>, accountId: string) {
  return trx
    .selectFrom('memberships')
    .select('user_id')
    .where('account_id', '=', accountId)
    .where('role', '=', 'admin')
    .forUpdate()
    .execute();
}

export function updateRole(trx: Transaction<DB>, accountId: string, userId: string, role: Role) {
  return trx
    .updateTable('memberships')
    .set({ role })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .execute();
}

/** Removes a person: their membership, sessions and user row (keys they made stay, creator unset). */
export function deleteUser(trx: Transaction<DB>, userId: string) {
  return trx.deleteFrom('users').where('id', '=', userId).execute();
}
