/** SQL for `exchange_rates` (units of a currency per euro, per day). */
import { type Kysely, sql } from 'kysely';
import { exchangeRatesFillLockId, holdTransactionLock } from '../db/advisory-locks.js';
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

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Rows per INSERT of a fill: one statement of three arrays, whatever its length. */
export const FILL_BATCH_ROWS = 50_000;

/**
 * Inserts the rows the table lacks and leaves every stored rate as it is (a refresh may have
 * stored a corrected one), counting first so that a table already holding them all costs one
 * query. Several processes starting at once take turns on an advisory lock: the first fills,
 * the others then count a full table. Resolves to the number of rows inserted.
 */
export async function fillMissingRates(db: Kysely<DB>, rows: readonly RateRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  // In primary-key order, each insert lands at the end of the index: twice as fast on PGlite.
  const sorted = [...rows].sort((a, b) => compareText(a.day, b.day) || compareText(a.currency, b.currency));
  const [first, last] = [sorted[0] as RateRow, sorted[sorted.length - 1] as RateRow];
  const currencies = [...new Set(rows.map((row) => row.currency))];
  return db.transaction().execute(async (trx) => {
    await holdTransactionLock(trx, exchangeRatesFillLockId());
    const { stored } = await trx
      .selectFrom('exchange_rates')
      .select((eb) => eb.fn.countAll<string | number>().as('stored'))
      .where('day', '>=', first.day)
      .where('day', '<=', last.day)
      .where('currency', 'in', currencies)
      .executeTakeFirstOrThrow();
    if (Number(stored) >= sorted.length) return 0;
    let inserted = 0;
    for (let start = 0; start < sorted.length; start += FILL_BATCH_ROWS) {
      const batch = sorted.slice(start, start + FILL_BATCH_ROWS);
      // Three array parameters instead of three per row: one short statement to parse per batch.
      const result = await sql`
        insert into exchange_rates (day, currency, per_euro)
        select * from unnest(
          ${batch.map((row) => row.day)}::date[],
          ${batch.map((row) => row.currency)}::text[],
          ${batch.map((row) => row.per_euro)}::numeric[]
        )
        on conflict (day, currency) do nothing
      `.execute(trx);
      inserted += Number(result.numAffectedRows ?? 0);
    }
    return inserted;
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
