/** `npm run rates:import -- FILE`, run in-process: one line out on success, one line and exit 1 on any failure. */
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createManualClock } from '../lib/clock.js';
import { openTestDatabase } from '../test/database.js';
import { RATES_IMPORT_USAGE, runRatesImport } from './rates-import-command.js';

const HIST_PATH = fileURLToPath(new URL('./fixtures/eurofxref-hist-sample.xml', import.meta.url));

describe('rates:import', () => {
  let database: Database;
  let out: string[];
  let err: string[];
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    out = [];
    err = [];
    await database.db.deleteFrom('exchange_rates').execute();
  });

  // The command closes what it opens; the shared test database stays open for the next test.
  const run = (...args: string[]) =>
    runRatesImport(args, {
      openDatabase: async () => ({ ...database, close: async () => {} }),
      clock: createManualClock(new Date('2026-11-20T12:00:00Z')),
      stdout: (line) => out.push(line),
      stderr: (line) => err.push(line),
    });
  const count = async () => (await database.db.selectFrom('exchange_rates').select('day').execute()).length;

  it('imports a file and prints what it held', async () => {
    expect(await run(HIST_PATH)).toBe(0);
    expect(out).toEqual([`imported 14 rates for 3 days (2026-11-12 to 2026-11-16) from ${HIST_PATH}`]);
    expect(err).toEqual([]);
    expect(await count()).toBe(14);
  });

  it('prints the usage without exactly one file argument', async () => {
    expect(await run()).toBe(1);
    expect(await run(HIST_PATH, HIST_PATH)).toBe(1);
    expect(await run('--help')).toBe(1);
    expect(err).toEqual([
      `rates:import: ${RATES_IMPORT_USAGE}`,
      `rates:import: ${RATES_IMPORT_USAGE}`,
      `rates:import: ${RATES_IMPORT_USAGE}`,
    ]);
  });

  it('fails in one line on a missing file', async () => {
    expect(await run('/nonexistent/eurofxref-hist.xml')).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^rates:import: cannot read \/nonexistent\/eurofxref-hist\.xml: ENOENT/);
  });

  it('fails in one line on a malformed file, importing nothing', async () => {
    const bad = fileURLToPath(new URL('./fixtures/eurofxref-daily-sample.xml', import.meta.url));
    expect(await run(bad)).toBe(0);
    await database.db.deleteFrom('exchange_rates').execute();
    const notXml = fileURLToPath(new URL('./rates-import-command.test.ts', import.meta.url));
    expect(await run(notXml)).toBe(1);
    expect(err).toEqual([
      `rates:import: ${notXml}: not an ECB reference-rate file: it does not start with <gesmes:Envelope>`,
    ]);
    expect(await count()).toBe(0);
  });

  it('says so when the table is missing', async () => {
    const scratch = await openTestDatabase();
    try {
      await sql`drop table exchange_rates`.execute(scratch.db);
      const code = await runRatesImport([HIST_PATH], {
        openDatabase: async () => scratch,
        clock: createManualClock(new Date('2026-11-20T12:00:00Z')),
        stdout: (line) => out.push(line),
        stderr: (line) => err.push(line),
      });
      expect(code).toBe(1);
      expect(err).toEqual(['rates:import: the exchange_rates table is missing: run `npm run migrate` first']);
    } finally {
      await scratch.close();
    }
  });
});
