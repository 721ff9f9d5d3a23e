/** SQL for `exchange_rates` (units of a currency per euro, per day). */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import type { RateRow } from './ecb-xml.js';

/** Rows per INSERT: 3,000 parameters, far below PostgreSQL's 65,535. */
export const UPSERT_BATCH_ROWS = 1000;

/**
 * Inserts or replaces rates, in batches, inside one transaction: a failure part-way leaves the
 * table as it was. A republished (corrected) rate for a day replaces the stored one.
 */
export async function upsertRates(db: Kysely<DB>, rows: readonly RateRow[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < rows.length; start += UPSERT_BATCH_ROWS) {
      const batch = rows.slice(start, start + UPSERT_BATCH_ROWS);
      await trx
        .insertInto('exchange_rates')
        .values(
          batch.map((row) => ({
            day: row.day,
            currency: row.currency,
            // The file's decimal text, so numeric(24, 10) stores exactly what the ECB published.
            per_euro: sql<number>`${row.per_euro}::numeric`,
          })),
        )
        .onConflict((conflict) =>
          conflict
            .columns(['day', 'currency'])
            .doUpdateSet({ per_euro: (eb) => eb.ref('excluded.per_euro') }),
        )
        .execute();
    }
  });
}

/**
 * The rate of `currency` on `day` or, when none was published that day (weekends, holidays), on
 * the most recent earlier day; as exact decimal text, or null when there is none on or before.
 */
export async function findRateOnOrBefore(
  db: Kysely<DB>,
  currency: string,
  day: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('exchange_rates')
    .select(sql<string>`per_euro::text`.as('per_euro'))
    .where('currency', '=', currency)
    .where('day', '<=', day)
    .orderBy('day', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.per_euro ?? null;
}

/** False when the migration that creates `exchange_rates` has not been applied. */
export async function hasRatesTable(db: Kysely<DB>): Promise<boolean> {
  const { rows } = await sql<{ present: boolean }>`
    select to_regclass('exchange_rates') is not null as present
  `.execute(db);
  return rows[0]?.present === true;
}
