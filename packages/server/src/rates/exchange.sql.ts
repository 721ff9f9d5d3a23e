/** SQL for the rate of a currency on a day, as the report queries compose it (exchange.ts). */
import { type RawBuilder, sql } from 'kysely';

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
