/**
 * Currency conversion for reports, read straight from `exchange_rates` (the ECB's units of a
 * currency per euro, migrations/006_revenue.sql): the rate of a day is that day's, or the most
 * recent earlier one (the ECB publishes on working days only). The report queries (revenue,
 * conversions, goal visitors) compose these; they depend on the table alone, not on the service
 * that loads it.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { currencyExponent } from '../lib/money.js';

/**
 * SQL for the units of `currency` per euro on `day` (a date expression) or the latest day
 * before it with a rate: 1 for EUR, null when no rate is on record.
 */
export function perEuroOn(
  currency: RawBuilder<unknown> | string,
  day: RawBuilder<unknown>,
): RawBuilder<number | null> {
  const code = typeof currency === 'string' ? sql`${currency}::text` : currency;
  return sql<number | null>`(case when ${code} = 'EUR' then 1::numeric else (
    select r.per_euro from exchange_rates r
    where r.currency = ${code} and r.day <= ${day}
    order by r.day desc limit 1
  ) end)`;
}

/**
 * SQL for the day (`YYYY-MM-DD` text) of the rate `perEuroOn` reads for `currency` on `day`:
 * null for EUR (no rate needed) and when no rate is on record.
 */
export function rateDayOn(
  currency: RawBuilder<unknown> | string,
  day: RawBuilder<unknown>,
): RawBuilder<string | null> {
  const code = typeof currency === 'string' ? sql`${currency}::text` : currency;
  return sql<string | null>`(case when ${code} = 'EUR' then null else (
    select r.day::text from exchange_rates r
    where r.currency = ${code} and r.day <= ${day}
    order by r.day desc limit 1
  ) end)`;
}

/** Days after which the newest stored rate is stale: the ECB publishes every working day. */
export const RATES_STALE_AFTER_DAYS = 7;

/** The newest day with any stored rate (`YYYY-MM-DD`), or null when none is stored. */
export async function newestRateDay(db: Kysely<DB>): Promise<string | null> {
  const { rows } = await sql<{
    day: string | null;
  }>`select max(day)::text as day from exchange_rates`.execute(db);
  return rows[0]?.day ?? null;
}

/** Rounds a major-unit amount to the currency's minor unit (2 decimals for USD, 0 for JPY). */
export function roundToCurrency(amount: number, currency: string): number {
  const factor = 10 ** currencyExponent(currency);
  // `+ 0` turns a rounded -0 into 0.
  return Math.round(amount * factor) / factor + 0;
}

/**
 * `amount` (major units of `from`) in major units of `to`, through the euro: amount ÷ rate(from)
 * × rate(to). Null when a rate is missing; no rate is needed when the currencies are equal.
 */
export function convertMajor(
  amount: number,
  from: string,
  to: string,
  perEuro: { from: number | null; to: number | null },
): number | null {
  if (from === to) return amount;
  if (!perEuro.from || !perEuro.to) return null;
  return (amount / perEuro.from) * perEuro.to;
}
