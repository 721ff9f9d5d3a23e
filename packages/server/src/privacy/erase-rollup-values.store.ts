/**
 * Values a person sent, out of the visit rollups: a row of a page, referrer or campaign tag
 * that only the person made (its people list holds none but them) is deleted, so the value
 * itself goes. A row others made too keeps its counts, as plain counts may stay, and its
 * people list has the person swapped out (erasure-steps.store.ts). Categories a report derives
 * (country, city, device, browser, channel) hold nothing the person sent and stay.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { holdsOnly } from '../reporting/rollups/people-sketch.js';
import { monthOf, PAGE } from '../reporting/rollups/rollup-day.query.js';
import type { RequestRef } from './person-rows.sql.js';
import { scopeValues } from './scope.store.js';

/** Rollup dimensions whose values come from what the person's browser sent. */
export const SENT_VALUE_DIMENSIONS: readonly string[] = [
  'visit:referrer',
  'visit:utm_source',
  'visit:utm_medium',
  'visit:utm_campaign',
  'visit:utm_content',
  'visit:utm_term',
  'visit:entry_page',
  'visit:exit_page',
  PAGE,
];

/**
 * Deletes up to `limit` rows of the request's days (and their months) that only `people` made
 * (their people hashes, before and after the swap, so a re-run after the swap finds them too);
 * how many went. Deleting is idempotent: a repeated batch finds nothing more to delete.
 */
export async function deleteSoleValueRows(
  db: Kysely<DB>,
  ref: RequestRef,
  people: ReadonlySet<number>,
  limit: number,
): Promise<number> {
  const days = await scopeValues(db, ref.requestId, 'day');
  const months = [...new Set(days.map(monthOf))];
  let deleted = 0;
  for (const [table, column, values] of [
    ['stats_visit_rollups', 'day', days],
    ['stats_month_rollups', 'month', months],
  ] as const) {
    // A row the person alone made counts at most as many people as they have hashes.
    const { rows } = await sql<{ dimension: string; at: string; value: string; people: Uint8Array }>`
      select dimension, ${sql.ref(column)}::text as at, value, people from ${sql.table(table)}
      where site_id = ${ref.siteId} and ${sql.ref(column)} = any(${values}::date[])
        and dimension = any(${SENT_VALUE_DIMENSIONS}::text[])
        and (people_count is null or people_count <= ${people.size})
    `.execute(db);
    for (const row of rows) {
      if (!holdsOnly(row.people, people)) continue;
      await sql`delete from ${sql.table(table)}
        where site_id = ${ref.siteId} and dimension = ${row.dimension}
          and ${sql.ref(column)} = ${row.at}::date and value = ${row.value}`.execute(db);
      deleted += 1;
      if (deleted >= limit) return deleted;
    }
  }
  return deleted;
}
