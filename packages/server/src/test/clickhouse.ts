/**
 * ClickHouse for tests: the real engine in-process (npm `chdb`, which `.ci/run` installs), one
 * folder per test process (the engine allows one) and a fresh database per call.
 * TOUCHTRAIL_TEST_CLICKHOUSE=chdb runs every test app with ClickHouse on (the CI's third run);
 * tests of ClickHouse itself run whenever `chdb` is installed, and with `required` (as .ci/run
 * sets) fail when it is not, rather than being skipped.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { type ClickHouse, openClickHouse } from '../clickhouse/connection.js';
import type { Shipper } from '../clickhouse/shipper.js';
import type { DB } from '../db/types.js';
import { rowsNotCopied } from './clickhouse-lag.query.js';

/** `chdb`: every test app runs with ClickHouse on. */
export const CLICKHOUSE_FOR_EVERY_APP = process.env.TOUCHTRAIL_TEST_CLICKHOUSE === 'chdb';

function isChdbInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('chdb/connection');
    return true;
  } catch {
    return false;
  }
}

/** Whether ClickHouse tests can run here. */
export const chdbInstalled = isChdbInstalled();
if (!chdbInstalled && (process.env.TOUCHTRAIL_TEST_CLICKHOUSE === 'required' || CLICKHOUSE_FOR_EVERY_APP))
  throw new Error('the ClickHouse tests need npm chdb: `npm install chdb@3.4.0 --no-save` (.ci/run does)');

const FOLDER = path.join(os.tmpdir(), `touchtrail-chdb-test-${process.pid}`);

/** A ClickHouse with an empty database of its own; `close()` drops it. */
export async function openTestClickHouse(): Promise<ClickHouse> {
  const database = `test_${randomBytes(6).toString('hex')}`;
  const ch = await openClickHouse({
    url: undefined,
    username: undefined,
    password: undefined,
    chdbPath: FOLDER,
    database,
    cluster: undefined,
  });
  return {
    ...ch,
    async close() {
      await ch.client.command({ query: `DROP DATABASE IF EXISTS ${database}` });
      await ch.close();
    },
  };
}

/**
 * Copies until no committed traffic row is left behind. On PostgreSQL a write transaction of any
 * database of the server (another test file's) holds the shipper back until it ends, so one
 * round is not always enough.
 */
export async function copyEverything(
  db: Kysely<DB>,
  shipper: Pick<Shipper, 'shipAll'>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await shipper.shipAll();
    if ((await rowsNotCopied(db)) === 0) return;
    if (Date.now() > deadline) throw new Error('copyEverything: rows are still not copied');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
