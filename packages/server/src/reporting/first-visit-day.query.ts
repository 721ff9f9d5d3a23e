/** The day a site's first recorded visit started, in the query's zone: where `all` begins. */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';

export async function firstVisitDay(
  db: Kysely<DB>,
  siteId: string,
  timezone: string,
): Promise<string | null> {
  const { rows } = await sql<{ day: string | null }>`
    select to_char(min(v.started_at) at time zone ${timezone}, 'YYYY-MM-DD') as day
    from visits v where v.site_id = ${siteId}
  `.execute(db);
  return rows[0]?.day ?? null;
}
