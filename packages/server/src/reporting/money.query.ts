/**
 * Money metrics in the site's currency: amounts summed per group, currency and UTC day are
 * converted at the ECB rate of their day (rates/exchange.ts); an amount with no rate on record is
 * never guessed but set aside per currency, for `meta.unconverted`.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { currencyExponent, toMajorUnits } from '../lib/money.js';
import { convertMajor } from '../rates/exchange.js';
import { perEuroOn } from '../rates/exchange.sql.js';
import type { GroupedRow } from './grouped.query.js';

export interface Unconverted {
  metric: string;
  currency: string;
  /** Minor units of `currency`. */
  amount: number;
}

/**
 * Rows whose extras are `[currency, day]` and whose metrics are amounts in minor units of that
 * currency, as fractional minor units of the site currency (null where no rate).
 */
export async function inSiteCurrency(
  db: Kysely<DB>,
  rows: GroupedRow[],
  siteCurrency: string,
): Promise<
  { dimensions: (string | null)[]; metrics: (number | null)[]; currency: string; original: number[] }[]
> {
  const rates = await ratesFor(db, rows, siteCurrency);
  const scale = 10 ** currencyExponent(siteCurrency);
  return rows.map((row) => {
    const [currency, day] = row.extras as [string, string];
    const perEuro = rates.get(`${currency} ${day}`) ?? { from: null, to: null };
    const metrics = row.metrics.map((minor) => {
      const major = convertMajor(toMajorUnits(minor, currency), currency, siteCurrency, perEuro);
      return major === null ? null : major * scale;
    });
    return { dimensions: row.dimensions, metrics, currency, original: row.metrics };
  });
}

async function ratesFor(db: Kysely<DB>, rows: GroupedRow[], siteCurrency: string) {
  const pairs = new Map<string, [string, string]>();
  for (const row of rows) {
    const [currency, day] = row.extras as [string, string];
    if (currency !== siteCurrency) pairs.set(`${currency} ${day}`, [currency, day]);
  }
  const rates = new Map<string, { from: number | null; to: number | null }>();
  if (pairs.size === 0) return rates;
  const values = [...pairs.values()].map(([currency, day]) => sql`(${currency}::text, ${day}::date)`);
  const { rows: found } = await sql<{
    currency: string;
    day: string;
    from: string | null;
    to: string | null;
  }>`
    select p.currency, to_char(p.day, 'YYYY-MM-DD') as day,
      ${perEuroOn(sql`p.currency`, sql`p.day`)} as from, ${perEuroOn(siteCurrency, sql`p.day`)} as to
    from (values ${sql.join(values)}) as p(currency, day)
  `.execute(db);
  for (const rate of found) {
    rates.set(`${rate.currency} ${rate.day}`, {
      from: rate.from === null ? null : Number(rate.from),
      to: rate.to === null ? null : Number(rate.to),
    });
  }
  return rates;
}
