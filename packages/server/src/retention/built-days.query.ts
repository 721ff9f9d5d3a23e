/**
 * Which of a site's days may lose their raw rows: the reports read a day from its visit rollups
 * (reporting/rollups/rollup-day.query.ts) only once `stats_rollup_days` records it as built, and the raw
 * visits and pageviews otherwise. So a purge of rows the rollups are built from keeps to the
 * first unbroken run of built days. A visit's later custom events (its bounce) fall in that run
 * too, since the run has no gap between the visit's day and theirs.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';

/** From the start of the first built UTC day to the start of the first day after it not built. */
export interface BuiltDays {
  from: Date;
  until: Date;
}

export async function findBuiltDays(db: Kysely<DB>, siteId: string): Promise<BuiltDays | null> {
  const { rows } = await sql<{ first_day: Date | null; end_day: Date | null }>`
    select
      (min(d.day)::timestamp at time zone 'UTC') as first_day,
      (min(d.day + 1) filter (
        where not exists (select 1 from stats_rollup_days n where n.site_id = d.site_id and n.day = d.day + 1)
      )::timestamp at time zone 'UTC') as end_day
    from stats_rollup_days d
    where d.site_id = ${siteId}
  `.execute(db);
  const [row] = rows;
  if (!row?.first_day || !row.end_day) return null;
  return { from: new Date(row.first_day), until: new Date(row.end_day) };
}

/** The rows of `at` (a column) that fall on built days; none when no day is built. */
export const onBuiltDays = (built: BuiltDays | null, at: string) =>
  built === null ? sql`false` : sql`(${sql.ref(at)} >= ${built.from} and ${sql.ref(at)} < ${built.until})`;
