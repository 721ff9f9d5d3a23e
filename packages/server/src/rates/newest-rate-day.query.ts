/** How fresh the stored rates are, as the conversion reports show it (`rates_as_of`). */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';

/** The newest day with any stored rate (`YYYY-MM-DD`), or null when none is stored. */
export async function newestRateDay(db: Kysely<DB>): Promise<string | null> {
  const { rows } = await sql<{
    day: string | null;
  }>`select max(day)::text as day from exchange_rates`.execute(db);
  return rows[0]?.day ?? null;
}
