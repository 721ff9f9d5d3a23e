/**
 * Applies the numbered plain-SQL files of `migrations/` in order, each in its own transaction,
 * and records them in `schema_migrations`, then the SQL functions of `sql/` when they changed
 * (db/sql-sources.ts). An advisory lock lets several processes start at once against one
 * PostgreSQL: one applies, the others wait and then find nothing left to do.
 */
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Kysely, sql } from 'kysely';
import { holdTransactionLock, MIGRATION_LOCK_ID } from './advisory-locks.js';
import { applySqlSources, SQL_SOURCES_DIR } from './sql-sources.js';
import type { DB } from './types.js';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

export async function migrate(
  db: Kysely<DB>,
  dir = MIGRATIONS_DIR,
  sqlSourcesDir = SQL_SOURCES_DIR,
): Promise<string[]> {
  const files = (await readdir(dir)).filter((name) => /^\d{3}_[a-z0-9_]+\.sql$/.test(name)).sort();
  // Under the lock too: two processes creating the table at once collide in the catalog.
  await db.transaction().execute(async (trx) => {
    await holdTransactionLock(trx, MIGRATION_LOCK_ID);
    await sql`create table if not exists schema_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    )`.execute(trx);
  });
  const applied: string[] = [];
  for (const name of files) {
    const script = await readFile(new URL(name, `file://${dir}`), 'utf8');
    await db.transaction().execute(async (trx) => {
      await holdTransactionLock(trx, MIGRATION_LOCK_ID);
      const done = await trx
        .selectFrom('schema_migrations')
        .select('name')
        .where('name', '=', name)
        .executeTakeFirst();
      if (done) return;
      await sql.raw(script).execute(trx);
      await trx.insertInto('schema_migrations').values({ name }).execute();
      applied.push(name);
    });
  }
  await applySqlSources(db, sqlSourcesDir);
  return applied;
}
