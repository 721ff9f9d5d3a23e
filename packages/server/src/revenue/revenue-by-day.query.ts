/**
 * The daily revenue rollup of one site under one model (written by the attribution worker and
 * the payments endpoint), one row per day, credited source and currency, with the exchange
 * rates that turn the row into the site's currency.
 */
import { type Kysely, sql } from 'kysely';
import type { AttributionModel, DB } from '../db/types.js';
import { perEuroOn } from '../rates/exchange.sql.js';

export interface RevenueDayRow {
  day: string;
  /** '' for revenue no visit could be credited with. */
  source: string;
  currency: string;
  /** Fractional minor units of `currency` (a share of a payment). */
  gross_minor: number;
  refunded_minor: number;
  /** Conversions counted for the source (trials included), and trials alone (credited-source.ts). */
  conversions: number;
  trials: number;
  from_per_euro: number | null;
  to_per_euro: number | null;
}

export async function revenueByDay(
  db: Kysely<DB>,
  q: { siteId: string; model: AttributionModel; from: string; to: string; siteCurrency: string },
): Promise<RevenueDayRow[]> {
  const { rows } = await sql<RevenueDayRow>`
    select d.day, d.source, d.currency, d.gross_minor, d.refunded_minor, d.conversions, d.trials,
      ${perEuroOn(sql`d.currency`, sql`d.day`)} as from_per_euro,
      ${perEuroOn(q.siteCurrency, sql`d.day`)} as to_per_euro
    from daily_revenue d
    where d.site_id = ${q.siteId} and d.model = ${q.model}
      and d.day >= ${q.from}::date and d.day <= ${q.to}::date
    order by d.day, d.source, d.currency
  `.execute(db);
  return rows;
}
