/**
 * The packaged rate history: the shipped file itself, rebuilding it from an ECB history CSV, and
 * the start-up fill into a database (empty, complete, partly filled, two starts at once, and a
 * missing or broken file). Small snapshots written here keep most tests fast; one test loads
 * the real file.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { openTestDatabase } from '../test/database.js';
import {
  buildRatesSnapshot,
  loadRatesSnapshot,
  RATES_SNAPSHOT_FILE,
  readRatesSnapshot,
} from './rates-snapshot.js';

// The ECB's layout: trailing commas, N/A, and currencies no site may choose (BGN, RUB).
const ECB_CSV = [
  'Date,USD,JPY,BGN,RUB,GBP,',
  '2026-04-13,1.1684,186.75,N/A,N/A,0.87058,',
  '2026-04-10,1.1711,186.43,N/A,N/A,0.87105,',
  '2022-03-01,1.1163,128.62,1.9558,117.2807,0.8345,',
  '',
].join('\n');

function recordingLog() {
  const lines: { level: 'info' | 'warn'; fields: object; message: string }[] = [];
  return {
    lines,
    info: (fields: object, message: string) => lines.push({ level: 'info', fields, message }),
    warn: (fields: object, message: string) => lines.push({ level: 'warn', fields, message }),
  };
}

const storedRates = async (db: Database['db']) =>
  (
    await db
      .selectFrom('exchange_rates')
      .select(['currency', sql<string>`day::text`.as('day'), sql<string>`per_euro::text`.as('per_euro')])
      .orderBy('day')
      .orderBy('currency')
      .execute()
  ).map((row) => `${row.day} ${row.currency} ${Number(row.per_euro)}`);

describe('the packaged ECB snapshot', () => {
  it('is the ECB history up to the day reference-data/README.md names, in the supported currencies only', async () => {
    const parsed = await readRatesSnapshot(RATES_SNAPSHOT_FILE);
    expect(parsed.days).toHaveLength(6983);
    expect([parsed.days[0], parsed.days.at(-1)]).toEqual(['1999-01-04', '2026-04-13']);
    expect(parsed.rows).toHaveLength(178_728);
    expect(new Set(parsed.rows.map((row) => row.currency)).size).toBe(29);
    expect(parsed.rows).toContainEqual({ day: '2026-04-13', currency: 'USD', per_euro: '1.1684' });
    expect(parsed.rows).toContainEqual({ day: '1999-01-04', currency: 'JPY', per_euro: '133.73' });
    expect(parsed.rows.some((row) => row.currency === 'BGN' || row.currency === 'EUR')).toBe(false);
  });

  it('is rebuilt from an ECB history CSV, keeping the supported currencies', () => {
    const { gzip, parsed } = buildRatesSnapshot(ECB_CSV);
    expect(parsed.days).toEqual(['2022-03-01', '2026-04-10', '2026-04-13']);
    expect(parsed.rows.filter((row) => row.day === '2022-03-01')).toEqual([
      { day: '2022-03-01', currency: 'USD', per_euro: '1.1163' },
      { day: '2022-03-01', currency: 'JPY', per_euro: '128.62' },
      { day: '2022-03-01', currency: 'GBP', per_euro: '0.8345' },
    ]);
    expect(gzip.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it.each([
    ['an empty file', '', 'the file is empty'],
    ['an XML file', '<gesmes:Envelope>\n', 'first column is not Date'],
    ['a lower-case code', 'Date,usd,\n2026-04-13,1.1,\n', 'line 1: invalid currency code "usd"'],
    ['a euro column', 'Date,EUR,\n2026-04-13,1,\n', 'line 1: a column for EUR'],
    ['a short line', 'Date,USD,JPY,\n2026-04-13,1.1,\n', 'line 2: 1 rates for 2 currencies'],
    ['a bad date', 'Date,USD,\n2026-02-30,1.1,\n', 'line 2: invalid date "2026-02-30"'],
    ['a day before the euro', 'Date,USD,\n1998-12-31,1.1,\n', 'before the euro existed'],
    ['a day twice', 'Date,USD,\n2026-04-13,1.1,\n2026-04-13,1.2,\n', 'line 3: day 2026-04-13 appears twice'],
    ['a negative rate', 'Date,USD,\n2026-04-13,-1.1,\n', 'line 2: invalid rate "-1.1" for USD'],
    ['a zero rate', 'Date,USD,\n2026-04-13,0.000,\n', 'invalid rate "0.000"'],
    ['no rate at all', 'Date,USD,\n2026-04-13,N/A,\n', 'the file holds no rates'],
  ])('refuses %s', (_name, csv, message) => {
    expect(() => buildRatesSnapshot(csv)).toThrow(message);
  });
});

describe('loading the snapshot at start', () => {
  let database: Database;
  let folder: string;
  let snapshot: string;
  beforeAll(async () => {
    database = await openTestDatabase();
    folder = await mkdtemp(path.join(tmpdir(), 'touchtrail-rates-'));
    snapshot = path.join(folder, 'ecb-rates.csv.gz');
    await writeFile(snapshot, buildRatesSnapshot(ECB_CSV).gzip);
  });
  afterAll(async () => {
    await database?.close();
    await rm(folder, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await database.db.deleteFrom('exchange_rates').execute();
  });

  it('fills an empty table with one log line, then stays quiet once every rate is stored', async () => {
    const log = recordingLog();
    const load = await loadRatesSnapshot({ db: database.db, log, file: snapshot });
    expect(load).toEqual({ inserted: 9, days: 3, firstDay: '2022-03-01', lastDay: '2026-04-13' });
    expect(await storedRates(database.db)).toContain('2026-04-10 USD 1.1711');
    expect(await storedRates(database.db)).toHaveLength(9);
    expect(log.lines).toEqual([
      {
        level: 'info',
        fields: { job: 'rates-snapshot', ...load },
        message: 'exchange rates loaded from the packaged ECB snapshot: 3 days up to 2026-04-13',
      },
    ]);

    expect(await loadRatesSnapshot({ db: database.db, log, file: snapshot })).toBeNull();
    expect(log.lines).toHaveLength(1);
  });

  it('adds only the rates a table lacks and never replaces a stored one', async () => {
    // A refresh stored a corrected USD rate and a later day; the history is still missing.
    await database.db
      .insertInto('exchange_rates')
      .values([
        { day: '2026-04-13', currency: 'USD', per_euro: 1.2 },
        { day: '2026-11-20', currency: 'USD', per_euro: 1.15 },
      ])
      .execute();
    const log = recordingLog();
    const load = await loadRatesSnapshot({ db: database.db, log, file: snapshot });
    expect(load?.inserted).toBe(8);
    const stored = await storedRates(database.db);
    expect(stored).toHaveLength(10);
    expect(stored).toEqual(expect.arrayContaining(['2026-04-13 USD 1.2', '2026-11-20 USD 1.15']));
  });

  it('loads once when two starts run at the same time', async () => {
    const log = recordingLog();
    const loads = await Promise.all([
      loadRatesSnapshot({ db: database.db, log, file: snapshot }),
      loadRatesSnapshot({ db: database.db, log, file: snapshot }),
    ]);
    expect(loads.filter((load) => load !== null)).toHaveLength(1);
    expect(log.lines).toHaveLength(1);
    expect(await storedRates(database.db)).toHaveLength(9);
  });

  it.each([
    ['missing', null, 'ENOENT'],
    ['not gzipped', Buffer.from('Date,USD,\n2026-04-13,1.1,\n'), 'incorrect header check'],
    [
      'a broken CSV',
      gzipSync('Date,USD,\n2026-04-13,1.1,\n2026-04-14,oops,\n'),
      'line 3: invalid rate "oops"',
    ],
  ])('warns once and stores nothing when the file is %s', async (name, content, error) => {
    const file = path.join(folder, `${name.replace(/\W/g, '-')}.csv.gz`);
    if (content) await writeFile(file, content);
    const log = recordingLog();
    expect(await loadRatesSnapshot({ db: database.db, log, file })).toBeNull();
    expect(log.lines).toEqual([
      {
        level: 'warn',
        fields: { job: 'rates-snapshot', error: expect.stringContaining(error) },
        message: expect.stringContaining('npm run rates:import'),
      },
    ]);
    expect(await storedRates(database.db)).toEqual([]);
  });

  it('loads the shipped file into an empty table', async () => {
    const log = recordingLog();
    const started = performance.now();
    const load = await loadRatesSnapshot({ db: database.db, log });
    // Reported, not asserted: the figure for the README and the report.
    console.info(`snapshot load on ${database.kind}: ${Math.round(performance.now() - started)} ms`);
    expect(load).toEqual({ inserted: 178_728, days: 6983, firstDay: '1999-01-04', lastDay: '2026-04-13' });
    const { count } = await database.db
      .selectFrom('exchange_rates')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(178_728);
    expect(await loadRatesSnapshot({ db: database.db, log })).toBeNull();
  });
});
