/**
 * Completions per goal and day, read from the `daily_goal_completions` rollup that ingest keeps
 * up to date (retried events were dropped before they were counted). Goals come in registry
 * order (`sort_order`, then name); names never registered sort last. Reserved names are left
 * out even if something recorded them.
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import type { DailyGoalCompletionsTable } from '../db/ingest-types.js';
import type { DB } from '../db/types.js';
import { SORT_ORDER_MAX } from './goal-fields.js';
import { RESERVED_EVENT_NAMES, RESERVED_PREFIX } from './goal-names.js';

/** A goal's completions on one day; `day` is `YYYY-MM-DD` (UTC). */
export type GoalCompletionsOnDay = Pick<
  Selectable<DailyGoalCompletionsTable>,
  'name' | 'day' | 'completions'
>;

/** Days with completions between `from` and `to` inclusive; days without any have no row. */
export function goalCompletionsByDay(
  db: Kysely<DB>,
  siteId: string,
  window: { from: string; to: string },
): Promise<GoalCompletionsOnDay[]> {
  return db
    .selectFrom('daily_goal_completions as d')
    .leftJoin('goals as g', (join) =>
      join.onRef('g.site_id', '=', 'd.site_id').onRef('g.name', '=', 'd.name'),
    )
    .select(['d.name', 'd.day', 'd.completions'])
    .where('d.site_id', '=', siteId)
    .where('d.day', '>=', window.from)
    .where('d.day', '<=', window.to)
    .where('d.completions', '>', 0)
    .where('d.name', 'not in', [...RESERVED_EVENT_NAMES])
    .where(sql<boolean>`not starts_with(d.name, ${RESERVED_PREFIX})`)
    .orderBy(sql`coalesce(g.sort_order, ${SORT_ORDER_MAX + 1})`)
    .orderBy(sql`d.name collate "C"`)
    .orderBy('d.day')
    .execute();
}
