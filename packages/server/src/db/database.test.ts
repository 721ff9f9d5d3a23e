import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/database.js';
import { withDatabaseName } from '../test/global-setup.js';
import { type Database, openDatabase } from './database.js';
import { migrate } from './migrate.js';
import { preparedAs } from './prepared.js';

describe('the store (on the engine under test)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('returns bigint counts as numbers and dates as YYYY-MM-DD text', async () => {
    const { rows } = await sql<{ n: number; total: number; day: string }>`
      select 9007199254740991::int8 as n, sum(x)::numeric as total, date '2026-03-01' as day
      from (values (1::int8), (2::int8)) as v (x)`.execute(database.db);
    expect(rows[0]).toEqual({ n: 9007199254740991, total: 3, day: '2026-03-01' });
  });

  it('returns timestamps of any year from 0001 to 9999 as the instant stored', async () => {
    const instants = [
      '0001-01-01T00:00:00.000Z',
      '0050-06-01T12:30:00.250Z',
      '2026-11-22T20:00:00.123Z',
      '9999-12-31T23:59:59.999Z',
    ];
    const { rows } = await sql<{ at: Date }>`
      select at from unnest(${instants}::timestamptz[]) with ordinality as v (at, n) order by n`.execute(
      database.db,
    );
    expect(rows.map((row) => row.at.toISOString())).toEqual(instants);
  });

  it('rolls back a failed transaction completely and stays usable', async () => {
    await sql`create table if not exists scratch (id int primary key)`.execute(database.db);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await sql`insert into scratch values (1)`.execute(trx);
        await sql`insert into scratch values (1)`.execute(trx);
      }),
    ).rejects.toThrow();
    const { rows } = await sql<{ count: number }>`select count(*)::int as count from scratch`.execute(
      database.db,
    );
    expect(rows[0]?.count).toBe(0);
  });

  it('runs concurrent transactions without losing an update', async () => {
    await sql`create table if not exists counter (id int primary key, n int not null)`.execute(database.db);
    await sql`insert into counter values (1, 0) on conflict do nothing`.execute(database.db);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        database.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ n: number }>`select n from counter where id = 1 for update`.execute(
            trx,
          );
          await sql`update counter set n = ${(rows[0]?.n ?? 0) + 1} where id = 1`.execute(trx);
        }),
      ),
    );
    const { rows } = await sql<{ n: number }>`select n from counter where id = 1`.execute(database.db);
    expect(rows[0]?.n).toBe(20);
  });

  it('prepares a marked statement once per PostgreSQL connection and answers each call', async () => {
    const prepared = await database.db.connection().execute(async (connection) => {
      const doubled: number[] = [];
      for (const n of [1, 2, 3]) {
        const { rows } = await sql<{ doubled: number }>`${preparedAs('tt_probe')}
          select ${n}::int * 2 as doubled`.execute(connection);
        doubled.push(rows[0]?.doubled ?? 0);
      }
      expect(doubled).toEqual([2, 4, 6]);
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_prepared_statements where name = 'tt_probe'`.execute(connection);
      return rows[0]?.n;
    });
    // PGlite reads the marker as a comment; PostgreSQL keeps one named statement.
    expect(prepared).toBe(database.kind === 'postgres' ? 1 : 0);
  });

  it('applies migrations once, however often it is asked', async () => {
    expect(await migrate(database.db)).toEqual([]);
    const [first, second] = await Promise.all([migrate(database.db), migrate(database.db)]);
    expect([...(first ?? []), ...(second ?? [])]).toEqual([]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('several processes starting at once on PostgreSQL', () => {
  it('migrate an empty database once between them', async () => {
    const adminUrl = process.env.DATABASE_URL as string;
    const name = `tt_migrate_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const processes = await Promise.all(
      [1, 2, 3].map(() =>
        openDatabase({ kind: 'postgres', url: withDatabaseName(adminUrl, name), poolSize: 2 }),
      ),
    );
    try {
      const applied = await Promise.all(processes.map((database) => migrate(database.db)));
      const files = applied.flat().sort();
      expect(files.length).toBeGreaterThan(0);
      expect(new Set(files).size).toBe(files.length);
    } finally {
      await Promise.all(processes.map((database) => database.close()));
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});

describe('embedded PGlite on disk', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'touchtrail-pglite-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('keeps data across a close and reopen', async () => {
    const first = await openDatabase({ kind: 'pglite', dataDir: folder });
    expect((await migrate(first.db)).length).toBeGreaterThan(0);
    await first.db.insertInto('server_settings').values({ name: 'probe', value: 'kept' }).execute();
    await first.close();

    const second = await openDatabase({ kind: 'pglite', dataDir: folder });
    expect(await migrate(second.db)).toEqual([]);
    const row = await second.db
      .selectFrom('server_settings')
      .select('value')
      .where('name', '=', 'probe')
      .executeTakeFirst();
    expect(row?.value).toBe('kept');
    await second.close();
  });
});
