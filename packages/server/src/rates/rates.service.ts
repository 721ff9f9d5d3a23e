/**
 * Exchange rates: the ECB's euro reference rates, imported from a file or refreshed from a URL,
 * and conversions between any two currencies through the euro on a given day. A day without a
 * published rate (weekends, TARGET holidays) uses the most recent earlier one.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { type Clock, DAY_MS } from '../lib/clock.js';
import { FETCH_FILE_TIMEOUT_MS, fetchFile } from '../lib/fetch-file.js';
import { currencyExponent } from '../lib/money.js';
import { convertMinorExact } from './convert-minor.js';
import { type Currency, SUPPORTED_CURRENCIES } from './currencies.js';
import { isIsoDay, parseEcbXml, RatesFileError } from './ecb-xml.js';
import { findRateOnOrBefore, upsertRates } from './rates.store.js';

/** The full ECB history is about 7 MB. */
const MAX_RATES_FILE_BYTES = 64 * 1024 * 1024;

export interface RatesImport {
  /** Distinct days with at least one rate in the file. */
  days: number;
  /** Rates in the file (each inserted, or replacing the stored rate of that day and currency). */
  rows: number;
  firstDay: string;
  lastDay: string;
}

export interface RatesService {
  /** Parses a whole ECB file and stores every rate in it, or nothing (throws `RatesFileError`). */
  importXml(xml: string): Promise<RatesImport>;
  /**
   * Downloads `url` (one deadline of 10 s for the whole transfer; `signal` cancels it sooner)
   * and imports it. Throws `FetchFileError` or `RatesFileError` with nothing imported; the
   * caller logs it.
   */
  refresh(url: string, options?: { signal?: AbortSignal }): Promise<RatesImport>;
  /** Units of `currency` per euro on `day` (`YYYY-MM-DD`) or the latest earlier day; EUR is 1. */
  rateOn(currency: string, day: string): Promise<number | null>;
  /**
   * `amountMinor` (integer minor units of `from`) in MAJOR units of `to`, at the rates of `day`
   * or the latest earlier day, rounded half away from zero to `to`'s minor unit; null when
   * either currency has no rate on or before `day`. The same currency converts to itself.
   */
  convertMinor(amountMinor: number, from: string, to: string, day: string): Promise<number | null>;
  /** Reporting currencies a site may choose (EUR and the ECB's published list). */
  supportedCurrencies(): readonly Currency[];
}

const CODE_PATTERN = /^[A-Z]{3}$/;

function assertDay(day: string): void {
  if (!isIsoDay(day)) throw new RangeError(`day must be YYYY-MM-DD, got ${JSON.stringify(day)}`);
}

export function createRatesService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  fetch?: typeof globalThis.fetch;
  /** Deadline of one refresh download; tests shorten it. */
  refreshTimeoutMs?: number;
}): RatesService {
  const { db, clock } = deps;
  const fetchImpl = deps.fetch ?? globalThis.fetch;
  const timeoutMs = deps.refreshTimeoutMs ?? FETCH_FILE_TIMEOUT_MS;

  async function importXml(xml: string): Promise<RatesImport> {
    const { rows, days } = parseEcbXml(xml);
    const firstDay = days[0] as string;
    const lastDay = days[days.length - 1] as string;
    // The ECB dates a file by the day it publishes; a later day means a wrong file or clock.
    const tomorrow = new Date(clock.now().getTime() + DAY_MS).toISOString().slice(0, 10);
    if (lastDay > tomorrow) {
      throw new RatesFileError(`the file has rates for ${lastDay}, a day that has not come yet`);
    }
    await upsertRates(db, rows);
    return { days: days.length, rows: rows.length, firstDay, lastDay };
  }

  /** Exact decimal text of the rate of an upper-case code, '1' for the euro. */
  async function rateText(code: string, day: string): Promise<string | null> {
    if (code === 'EUR') return '1';
    return findRateOnOrBefore(db, code, day);
  }

  return {
    importXml,

    async refresh(url, options = {}) {
      return importXml(
        await fetchFile(url, {
          fetch: fetchImpl,
          timeoutMs,
          maxBytes: MAX_RATES_FILE_BYTES,
          accept: 'application/xml, text/xml',
          signal: options.signal,
        }),
      );
    },

    async rateOn(currency, day) {
      assertDay(day);
      const code = currency.toUpperCase();
      if (!CODE_PATTERN.test(code)) return null;
      const text = await rateText(code, day);
      return text === null ? null : Number(text);
    },

    async convertMinor(amountMinor, from, to, day) {
      if (!Number.isSafeInteger(amountMinor)) throw new RangeError('amountMinor must be a safe integer');
      assertDay(day);
      const fromCode = from.toUpperCase();
      const toCode = to.toUpperCase();
      if (!CODE_PATTERN.test(fromCode) || !CODE_PATTERN.test(toCode)) return null;
      const [fromRate, toRate] =
        fromCode === toCode
          ? ['1', '1']
          : await Promise.all([rateText(fromCode, day), rateText(toCode, day)]);
      if (fromRate === null || toRate === null) return null;
      return convertMinorExact(
        amountMinor,
        { perEuro: fromRate, exponent: currencyExponent(fromCode) },
        { perEuro: toRate, exponent: currencyExponent(toCode) },
      );
    },

    supportedCurrencies: () => SUPPORTED_CURRENCIES,
  };
}
