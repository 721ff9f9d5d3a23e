/**
 * Opens the store: PostgreSQL through `pg` when a URL is given, otherwise embedded PGlite
 * persisted in a folder (or in memory for tests). Both speak the same SQL and run the same
 * migrations; values come back in the same JavaScript types from both.
 */
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-driver.js';
import { preparingPool } from './prepared.js';
import type { DB } from './types.js';

export type DatabaseKind = 'postgres' | 'pglite';

export interface Database {
  db: Kysely<DB>;
  kind: DatabaseKind;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** PGlite only: the whole data folder as a tarball, to start copies from (tests use it). */
  snapshot?(): Promise<Blob>;
}

// OIDs: int8 and numeric arrive as numbers (counts and sums of minor units stay below 2^53);
// date stays the `YYYY-MM-DD` text it is, instead of a Date at local midnight. PGlite reads
// timestamps with `new Date(text)`, which takes the years 0001 to 0099 for 19xx or 20xx; they
// go through pg's parser instead, as on PostgreSQL.
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
const TIMESTAMP = 1114;
const TIMESTAMPTZ = 1184;
const toNumber = (value: string) => Number(value);
const asText = (value: string) => value;

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

/** The database the configuration names: PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR. */
export const configuredDatabase = (config: {
  databaseUrl: string | undefined;
  dataDir: string;
}): DatabaseTarget =>
  config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: config.dataDir };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === 'postgres' ? openPostgres(target.url, target.poolSize) : openPGlite(target);
}

function openPostgres(url: string, poolSize = 10): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        if (oid === INT8 || oid === NUMERIC) return toNumber;
        if (oid === DATE) return asText;
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
  // A client that loses its server (idle or checked out) must not crash the process: the query
  // in flight fails on its own, and the pool replaces the client.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
  return wrap(db, 'postgres', () => db.destroy());
}

async function openPGlite(target: { dataDir?: string; loadDataDir?: Blob }): Promise<Database> {
  if (target.dataDir) await mkdir(target.dataDir, { recursive: true });
  const pglite = await PGlite.create({
    dataDir: target.dataDir,
    loadDataDir: target.loadDataDir,
    parsers: {
      [INT8]: toNumber,
      [NUMERIC]: toNumber,
      [DATE]: asText,
      [TIMESTAMP]: pg.types.getTypeParser(TIMESTAMP),
      [TIMESTAMPTZ]: pg.types.getTypeParser(TIMESTAMPTZ),
    },
  });
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  const database = wrap(db, 'pglite', async () => {
    await db.destroy();
    await pglite.close();
  });
  return { ...database, snapshot: () => pglite.dumpDataDir('none') };
}

/** Whether the database answers a trivial query. */
export async function isReachable(db: Kysely<DB>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

function wrap(db: Kysely<DB>, kind: DatabaseKind, close: () => Promise<void>): Database {
  let closing: Promise<void> | undefined;
  return {
    db,
    kind,
    ping: () => isReachable(db),
    close() {
      closing ??= close();
      return closing;
    },
  };
}
