/** Savepoints: part of a transaction that can be undone while the rest carries on. */
import { sql, type Transaction } from 'kysely';
import type { DB } from './types.js';

/**
 * Runs `work` after a savepoint; when it throws, rolls back to the savepoint and answers
 * `onError(error)` in the same transaction, which stays usable.
 */
export async function withSavepoint<T>(
  trx: Transaction<DB>,
  name: string,
  work: () => Promise<T>,
  onError: (error: unknown) => Promise<T>,
): Promise<T> {
  await sql`savepoint ${sql.id(name)}`.execute(trx);
  try {
    return await work();
  } catch (error) {
    await sql`rollback to savepoint ${sql.id(name)}`.execute(trx);
    return onError(error);
  }
}
