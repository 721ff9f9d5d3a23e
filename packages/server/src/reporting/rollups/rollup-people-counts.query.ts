/**
 * Counts the people of rollup rows built before their count was stored (migration 030), so that
 * a report can bound every row's people without reading its sketch (rollup-reader.query.ts). Rows
 * built since carry their count; this only catches up on older ones, a batch at a time.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { PeopleSketch } from './people-sketch.js';

const TABLES = [
  ['stats_visit_rollups', 'day'],
  ['stats_month_rollups', 'month'],
] as const;

interface Uncounted {
  site_id: string;
  dimension: string;
  at: string;
  value: string;
  people: Uint8Array;
}

/** Counts up to `limit` rows of each table; the number of rows counted. */
export async function countRollupPeople(db: Kysely<DB>, limit: number): Promise<number> {
  let counted = 0;
  for (const [table, column] of TABLES) {
    const { rows } = await sql<Uncounted>`
      select site_id, dimension, ${sql.ref(column)}::text as at, value, people from ${sql.table(table)}
      where people_count is null
      limit ${limit}
    `.execute(db);
    if (rows.length === 0) continue;
    const counts = rows.map((row) => {
      const sketch = new PeopleSketch();
      sketch.merge(row.people);
      return sketch.count();
    });
    // Only rows still uncounted: one built again meanwhile holds a new sketch and its count.
    await sql`
      update ${sql.table(table)} t set people_count = c.n
      from unnest(
        ${rows.map((row) => row.site_id)}::uuid[], ${rows.map((row) => row.dimension)}::text[],
        ${rows.map((row) => row.at)}::date[], ${rows.map((row) => row.value)}::text[], ${counts}::int[]
      ) as c(site_id, dimension, at, value, n)
      where t.site_id = c.site_id and t.dimension = c.dimension and t.${sql.ref(column)} = c.at
        and t.value = c.value and t.people_count is null
    `.execute(db);
    counted += rows.length;
  }
  return counted;
}
