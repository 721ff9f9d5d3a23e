/**
 * Deletes the rows of one owner (a site, an account) from a table a bounded batch at a time, so
 * erasing a large owner never holds a table-long lock or one huge transaction. Each batch is
 * its own statement; running the same deletion twice, or from two workers, is harmless.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';

export interface OwnedRows {
  table: keyof DB & string;
  /** The column holding the owner's id. */
  ownerColumn: string;
  /** The table's primary key columns, to pick one batch of rows. */
  key: readonly string[];
}

/** Deletes up to `limit` rows of `owner` from `target.table`; returns how many went. */
export async function deleteOwnedBatch(db: Kysely<DB>, target: OwnedRows, owner: string, limit: number) {
  const table = sql.table(target.table);
  const key = sql.join(target.key.map((column) => sql.ref(column)));
  const result = await sql`
    delete from ${table} where (${key}) in (
      select ${key} from ${table} where ${sql.ref(target.ownerColumn)} = ${owner} limit ${limit}
    )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** True when `owner` still has rows in `target.table`. */
export async function hasOwnedRows(db: Kysely<DB>, target: OwnedRows, owner: string): Promise<boolean> {
  const result = await sql`
    select 1 from ${sql.table(target.table)} where ${sql.ref(target.ownerColumn)} = ${owner} limit 1
  `.execute(db);
  return result.rows.length > 0;
}
