/**
 * Currency conversion for reports, read straight from `exchange_rates` (the ECB's units of a
 * currency per euro, migrations/006_revenue.sql): the rate of a day is that day's, or the most
 * recent earlier one (the ECB publishes on working days only). The report queries (revenue,
 * conversions, goal visitors) compose the SQL of exchange.sql.ts; they depend on the table
 * alone, not on the service that loads it. Here: the arithmetic on the rates they read.
 */
import { currencyExponent } from '../lib/money.js';

/** Days after which the newest stored rate is stale: the ECB publishes every working day. */
export const RATES_STALE_AFTER_DAYS = 7;

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
