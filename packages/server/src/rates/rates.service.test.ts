/**
 * The rates service on a real database: imports (whole or nothing, idempotent, batched), the
 * most-recent-earlier rule, and conversions through the euro with exact results.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createManualClock } from '../lib/clock.js';
import { openTestDatabase } from '../test/database.js';
import { SUPPORTED_CURRENCIES } from './currencies.js';
import { RatesFileError } from './ecb-xml.js';
import { createRatesService, type RatesService } from './rates.service.js';
import { UPSERT_BATCH_ROWS, upsertRates } from './rates.store.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const HIST = fixture('eurofxref-hist-sample.xml');
const DAILY = fixture('eurofxref-daily-sample.xml');

describe('rates service', () => {
  let database: Database;
  let rates: RatesService;
  const clock = createManualClock(new Date('2026-11-20T12:00:00Z'));
  beforeAll(async () => {
    database = await openTestDatabase();
    rates = createRatesService({ db: database.db, clock });
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.db.deleteFrom('exchange_rates').execute();
  });

  const storedRows = () =>
    database.db
      .selectFrom('exchange_rates')
      .select(['day', 'currency', 'per_euro'])
      .orderBy('day')
      .orderBy('currency')
      .execute();

  describe('importXml', () => {
    it('stores every rate of a file and reports what it held', async () => {
      expect(await rates.importXml(HIST)).toEqual({
        days: 3,
        rows: 14,
        firstDay: '2026-11-12',
        lastDay: '2026-11-16',
      });
      const rows = await storedRows();
      expect(rows).toHaveLength(14);
      expect(rows[0]).toEqual({ day: '2026-11-12', currency: 'GBP', per_euro: 0.875 });
    });

    it('is idempotent, and a republished rate replaces the stored one', async () => {
      await rates.importXml(HIST);
      const first = await storedRows();
      expect(await rates.importXml(HIST)).toMatchObject({ days: 3, rows: 14 });
      expect(await storedRows()).toEqual(first);

      await rates.importXml(HIST.replace('rate="1.17"', 'rate="1.1712"'));
      expect(await rates.rateOn('USD', '2026-11-13')).toBe(1.1712);
      expect(await storedRows()).toHaveLength(14);
    });

    it('adds a daily file to what is stored', async () => {
      await rates.importXml(HIST);
      expect(await rates.importXml(DAILY)).toEqual({
        days: 1,
        rows: 5,
        firstDay: '2026-11-17',
        lastDay: '2026-11-17',
      });
      expect(await storedRows()).toHaveLength(19);
    });

    it('imports nothing from a malformed file, even when its first days are fine', async () => {
      await rates.importXml(DAILY);
      const before = await storedRows();
      const broken = HIST.replace('<Cube currency="ISK" rate="150.0"/>', '<Cube currency="ISK" rate=""/>');
      await expect(rates.importXml(broken)).rejects.toThrow(RatesFileError);
      await expect(rates.importXml(broken)).rejects.toThrow(/invalid rate "" for ISK/);
      expect(await storedRows()).toEqual(before);
    });

    it('refuses a file dated after tomorrow (a wrong file or a wrong clock)', async () => {
      const early = createRatesService({
        db: database.db,
        clock: createManualClock(new Date('2026-11-14T12:00:00Z')),
      });
      await expect(early.importXml(HIST)).rejects.toThrow(/2026-11-16/);
      await expect(early.importXml(DAILY)).rejects.toThrow(/has not come yet/);
      expect(await storedRows()).toEqual([]);
    });

    it(`writes more than ${UPSERT_BATCH_ROWS} rates in batches`, async () => {
      const codes = SUPPORTED_CURRENCIES.filter((code) => code !== 'EUR');
      const days = Array.from({ length: 40 }, (_, i) =>
        new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
      );
      const cubes = days
        .map((day, d) => {
          const lines = codes.map(
            (code, c) => `<Cube currency="${code}" rate="${(1 + d + c / 100).toFixed(2)}"/>`,
          );
          return `<Cube time="${day}">${lines.join('')}</Cube>`;
        })
        .join('\n');
      const xml = `<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"><Cube>${cubes}</Cube></gesmes:Envelope>`;
      const expected = days.length * codes.length;
      expect(expected).toBeGreaterThan(UPSERT_BATCH_ROWS);
      expect(await rates.importXml(xml)).toMatchObject({ days: 40, rows: expected });
      expect(await storedRows()).toHaveLength(expected);
      expect(await rates.rateOn('ZAR', '2026-02-09')).toBe(
        Number((40 + (codes.length - 1) / 100).toFixed(2)),
      );
    });

    it('rolls back every batch when a later one fails', async () => {
      const rows = Array.from({ length: UPSERT_BATCH_ROWS + 10 }, (_, i) => ({
        day: new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10),
        currency: 'USD',
        per_euro: i === UPSERT_BATCH_ROWS + 5 ? '0' : '1.1',
      }));
      // A zero rate breaks the table's check constraint in the second batch.
      await expect(upsertRates(database.db, rows)).rejects.toThrow();
      expect(await storedRows()).toEqual([]);
    });
  });

  describe('rateOn', () => {
    beforeEach(async () => {
      await rates.importXml(HIST);
    });

    it('answers the rate of the day', async () => {
      expect(await rates.rateOn('USD', '2026-11-12')).toBe(1.165);
      expect(await rates.rateOn('KRW', '2026-11-16')).toBe(1710.35);
    });

    it('uses the most recent earlier day on weekends and for a currency missing that day', async () => {
      expect(await rates.rateOn('USD', '2026-11-14')).toBe(1.17);
      expect(await rates.rateOn('USD', '2026-11-15')).toBe(1.17);
      expect(await rates.rateOn('ISK', '2026-11-13')).toBe(150);
      expect(await rates.rateOn('JPY', '2030-01-01')).toBe(181.25);
    });

    it('is null before the first rate and for unknown currencies; EUR is always 1', async () => {
      expect(await rates.rateOn('USD', '2026-11-11')).toBeNull();
      expect(await rates.rateOn('XYZ', '2026-11-13')).toBeNull();
      expect(await rates.rateOn('dollars', '2026-11-13')).toBeNull();
      expect(await rates.rateOn('EUR', '1999-01-04')).toBe(1);
      expect(await rates.rateOn('usd', '2026-11-13')).toBe(1.17);
    });

    it('refuses a day that is not YYYY-MM-DD', async () => {
      await expect(rates.rateOn('USD', '13/11/2026')).rejects.toThrow(RangeError);
    });
  });

  describe('convertMinor', () => {
    beforeEach(async () => {
      await rates.importXml(HIST);
    });

    it('converts JPY to USD exactly, rounding half away from zero to cents', async () => {
      expect(await rates.convertMinor(1000, 'JPY', 'USD', '2026-11-13')).toBe(6.5);
      expect(await rates.convertMinor(1, 'JPY', 'USD', '2026-11-13')).toBe(0.01);
      expect(await rates.convertMinor(-1000, 'JPY', 'USD', '2026-11-13')).toBe(-6.5);
      expect(await rates.convertMinor(123_456_789, 'JPY', 'USD', '2026-11-16')).toBe(790_123.45);
    });

    it('converts EUR to KRW (cents in, whole won out) and between two zero-decimal currencies', async () => {
      expect(await rates.convertMinor(1234, 'EUR', 'KRW', '2026-11-16')).toBe(21_106);
      expect(await rates.convertMinor(1_000_000, 'KRW', 'ISK', '2026-11-13')).toBe(88_106);
      expect(await rates.convertMinor(1000, 'USD', 'JPY', '2026-11-13')).toBe(1538);
      expect(await rates.convertMinor(100, 'GBP', 'EUR', '2026-11-12')).toBe(1.14);
    });

    it('uses the weekend rule on both sides', async () => {
      expect(await rates.convertMinor(1000, 'JPY', 'USD', '2026-11-15')).toBe(6.5);
    });

    it('is null when either side has no rate on or before the day, or is unknown', async () => {
      expect(await rates.convertMinor(1000, 'JPY', 'USD', '2026-11-11')).toBeNull();
      expect(await rates.convertMinor(1000, 'EUR', 'USD', '2026-11-11')).toBeNull();
      expect(await rates.convertMinor(1000, 'XYZ', 'USD', '2026-11-13')).toBeNull();
      expect(await rates.convertMinor(1000, 'USD', 'CHF', '2026-11-13')).toBeNull();
      expect(await rates.convertMinor(1000, 'US', 'USD', '2026-11-13')).toBeNull();
    });

    it('converts a currency to itself without a rate', async () => {
      expect(await rates.convertMinor(1999, 'CHF', 'CHF', '2020-01-01')).toBe(19.99);
      expect(await rates.convertMinor(1999, 'EUR', 'EUR', '2020-01-01')).toBe(19.99);
    });

    it('refuses an amount that is not an integer of minor units', async () => {
      await expect(rates.convertMinor(10.5, 'USD', 'EUR', '2026-11-13')).rejects.toThrow(RangeError);
    });
  });

  it('lists the supported site currencies', () => {
    expect(rates.supportedCurrencies()).toBe(SUPPORTED_CURRENCIES);
    expect(rates.supportedCurrencies()).toContain('EUR');
  });
});
