/**
 * SQL functions are code, not migrations: their bodies live in `sql/<folder>/*.sql`, each file
 * safe to run again (`create or replace`, types dropped and made anew). After the migrations,
 * `applySqlSources` compares each file's SHA-256 with the one recorded in `sql_sources` and,
 * when any differs, is new or is gone, runs every file again in path order in one transaction,
 * under the migration lock. The whole set goes together because the files depend on each other
 * (a type made again takes the functions that use it along).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Kysely, sql } from 'kysely';
import { holdTransactionLock, MIGRATION_LOCK_ID } from './advisory-locks.js';
import type { DB } from './types.js';

export const SQL_SOURCES_DIR = fileURLToPath(new URL('../../sql/', import.meta.url));

interface SqlSource {
  name: string;
  text: string;
  checksum: string;
}

async function readSources(dir: string): Promise<SqlSource[]> {
  const entries = await readdir(dir, { recursive: true });
  const names = entries
    .map((entry) => entry.split(path.sep).join('/'))
    .filter((name) => /^[a-z0-9_]+\/\d{2}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const text = await readFile(path.join(dir, name), 'utf8');
      return { name, text, checksum: createHash('sha256').update(text).digest('hex') };
    }),
  );
}

/** Applies the SQL sources when they changed; answers the names of the files that differed. */
export async function applySqlSources(db: Kysely<DB>, dir = SQL_SOURCES_DIR): Promise<string[]> {
  const sources = await readSources(dir);
  return db.transaction().execute(async (trx) => {
    await holdTransactionLock(trx, MIGRATION_LOCK_ID);
    await sql`create table if not exists sql_sources (
      name text primary key,
      checksum text not null,
      applied_at timestamptz not null default now()
    )`.execute(trx);
    const recorded = new Map(
      (await trx.selectFrom('sql_sources').select(['name', 'checksum']).execute()).map((row) => [
        row.name,
        row.checksum,
      ]),
    );
    const changed = sources.filter((source) => recorded.get(source.name) !== source.checksum);
    const isSetChanged = changed.length > 0 || recorded.size !== sources.length;
    if (!isSetChanged) return [];
    for (const source of sources) await sql.raw(source.text).execute(trx);
    await trx.deleteFrom('sql_sources').execute();
    if (sources.length > 0)
      await trx
        .insertInto('sql_sources')
        .values(sources.map(({ name, checksum }) => ({ name, checksum })))
        .execute();
    return changed.map((source) => source.name);
  });
}
