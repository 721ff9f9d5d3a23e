import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/database.js';
import type { Database } from './database.js';
import { migrate } from './migrate.js';
import { applySqlSources } from './sql-sources.js';

/** The bodies of the functions of that name (one per overload). */
const bodyOf = async (database: Database, name: string) =>
  (
    await sql<{ body: string }>`select prosrc as body from pg_proc where proname = ${name}`.execute(
      database.db,
    )
  ).rows.map((row) => row.body);

describe('SQL functions kept in step with their source files', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('leaves a database alone when every checksum matches', async () => {
    expect(await applySqlSources(database.db)).toEqual([]);
    const [first, second] = await Promise.all([applySqlSources(database.db), migrate(database.db)]);
    expect(first).toEqual([]);
    expect(second).toEqual([]);
  });

  it('gives a database that holds an older body the new one at the next start', async () => {
    const current = await bodyOf(database, 'touchtrail_goals_lock_id');
    await sql`create or replace function touchtrail_goals_lock_id(p_site uuid) returns bigint
      language sql immutable strict as $$ select 0::bigint $$`.execute(database.db);
    await sql`update sql_sources set checksum = 'an older body' where name = 'ingest/02_goals_lock.sql'`.execute(
      database.db,
    );
    expect(await bodyOf(database, 'touchtrail_goals_lock_id')).not.toEqual(current);

    expect(await migrate(database.db)).toEqual([]);
    expect(await bodyOf(database, 'touchtrail_goals_lock_id')).toEqual(current);
    const { rows } = await sql<{ id: string }>`
      select touchtrail_goals_lock_id('00000000-0000-4000-8000-000000000000')::text as id`.execute(
      database.db,
    );
    expect(rows[0]?.id).not.toBe('0');
  });

  it('applies the sources to a database made before they existed (only migration 014 ran)', async () => {
    await sql`drop table sql_sources`.execute(database.db);
    await sql`drop function touchtrail_ingest_visits`.execute(database.db);
    expect((await applySqlSources(database.db)).length).toBeGreaterThan(5);
    expect(await bodyOf(database, 'touchtrail_ingest_visits')).toHaveLength(1);
    // The overload 014 made with table row types is gone: one touchtrail_record_events remains.
    expect(await bodyOf(database, 'touchtrail_record_events')).toHaveLength(1);
  });

  it('applies the whole folder again when a file is added or removed', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'touchtrail-sql-'));
    try {
      await mkdir(path.join(folder, 'probe'));
      await writeFile(
        path.join(folder, 'probe', '01_probe.sql'),
        'create or replace function touchtrail_probe() returns int language sql as $$ select 1 $$;',
      );
      expect(await applySqlSources(database.db, folder)).toEqual(['probe/01_probe.sql']);
      expect(await applySqlSources(database.db, folder)).toEqual([]);
      await writeFile(
        path.join(folder, 'probe', '02_probe.sql'),
        'create or replace function touchtrail_probe() returns int language sql as $$ select 2 $$;',
      );
      expect(await applySqlSources(database.db, folder)).toEqual(['probe/02_probe.sql']);
      const { rows } = await sql<{ n: number }>`select touchtrail_probe() as n`.execute(database.db);
      expect(rows[0]?.n).toBe(2);
    } finally {
      await rm(folder, { recursive: true, force: true });
      await sql`drop function if exists touchtrail_probe`.execute(database.db);
      await applySqlSources(database.db);
    }
  });
});
