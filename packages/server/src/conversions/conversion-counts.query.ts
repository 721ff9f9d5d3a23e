/**
 * Counts of the conversion listing, read from the daily totals (`daily_goal_completions`, kept
 * at ingest) rather than by counting events: the whole window's count, for one event name when
 * given, and the names seen most in the window. A conversion later removed by data deletion
 * is still counted (interface §4.5).
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';

export const EVENT_NAMES_MAX = 100;

interface CountQuery {
  siteId: string;
  from: string;
  to: string;
}

export async function countConversions(
  db: Kysely<DB>,
  q: CountQuery & { eventName?: string },
): Promise<number> {
  let query = db
    .selectFrom('daily_goal_completions')
    .select(sql<number>`coalesce(sum(completions), 0)::int8`.as('count'))
    .where('site_id', '=', q.siteId)
    .where('day', '>=', q.from)
    .where('day', '<=', q.to);
  if (q.eventName !== undefined) query = query.where('name', '=', q.eventName);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Up to 100 names with their counts in the window, most first (ties by name). */
export async function countByEventName(
  db: Kysely<DB>,
  q: CountQuery,
): Promise<{ name: string; count: number }[]> {
  const rows = await db
    .selectFrom('daily_goal_completions')
    .select(['name', sql<number>`sum(completions)::int8`.as('count')])
    .where('site_id', '=', q.siteId)
    .where('day', '>=', q.from)
    .where('day', '<=', q.to)
    .groupBy('name')
    .orderBy(sql`sum(completions)`, 'desc')
    .orderBy('name')
    .limit(EVENT_NAMES_MAX)
    .execute();
  return rows.map((row) => ({ name: row.name, count: Number(row.count) }));
}
