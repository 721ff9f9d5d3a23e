/**
 * The property breakdown of one goal (interface §2.4 and its "Properties scan rule"): every
 * (key, value) pair of the goal's events in the window with the number of events carrying it,
 * then one pass over the pairs ordered by key, then count, that reads at most 200 of them
 * across all keys, keeping at most 10 values per key. A key with 200 or more values therefore
 * uses the whole budget, and when the budget runs out the alphabetically earliest keys survive.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';

/** Key/value pairs one pass reads, shared across keys (§8). */
export const PROPERTY_SCAN_BUDGET = 200;
/** Values shown per key, most common first (§8). */
export const PROPERTY_VALUES_PER_KEY = 10;

export interface GoalPropertyValue {
  key: string;
  value: string;
  /** Events carrying this value under this key. */
  count: number;
}

/**
 * Rows in answer order: key (bytewise), then count descending, then value (bytewise) — the
 * last two also decide which pairs fall inside the budget when counts tie. Keys and values are
 * the stored text (`jsonb_each_text`: numbers and booleans as written); JSON nulls carry no
 * value and are skipped. Counts come from `daily_goal_properties`, which ingest adds to only
 * for events it actually inserted, so they count distinct events (a retried event once). The
 * window is whole UTC days, the rollup's unit.
 */
export async function goalPropertyValues(
  db: Kysely<DB>,
  siteId: string,
  name: string,
  window: { start: Date; end: Date },
): Promise<GoalPropertyValue[]> {
  const firstDay = window.start.toISOString().slice(0, 10);
  const endDay = window.end.toISOString().slice(0, 10);
  const result = await sql<GoalPropertyValue>`
    with pairs as (
      select key, value, sum(events)::int as count
      from daily_goal_properties
      where site_id = ${siteId} and name = ${name}
        and day >= ${firstDay}::date and day < ${endDay}::date
      group by key, value
    ),
    scanned as (
      select key, value, count,
        row_number() over (order by key collate "C", count desc, value collate "C") as pair_number,
        row_number() over (partition by key order by count desc, value collate "C") as value_rank
      from pairs
    )
    select key, value, count
    from scanned
    where pair_number <= ${PROPERTY_SCAN_BUDGET} and value_rank <= ${PROPERTY_VALUES_PER_KEY}
    order by pair_number`.execute(db);
  return result.rows;
}
