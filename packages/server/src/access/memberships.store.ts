/** SQL for the access rules: a person's role in an account. */
import type { Kysely, Transaction } from 'kysely';
import type { DB, Role } from '../db/types.js';

type Executor = Kysely<DB> | Transaction<DB>;

export async function findRole(db: Executor, accountId: string, userId: string): Promise<Role | undefined> {
  const row = await db
    .selectFrom('memberships')
    .select('role')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}
