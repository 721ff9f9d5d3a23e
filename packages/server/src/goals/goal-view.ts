/**
 * What callers see of a goal (interface §2.2). `site_id` is always the site's snippet key,
 * also when a dashboard session addressed the site by its internal UUID.
 */
import type { GoalRow } from './goals.store.js';

export function presentGoal(row: GoalRow, snippetKey: string) {
  return {
    id: row.id,
    site_id: snippetKey,
    name: row.name,
    display_name: row.display_name,
    emoji: row.emoji,
    sort_order: row.sort_order,
    created_at: new Date(row.created_at).toISOString(),
    archived_at: row.archived_at === null ? null : new Date(row.archived_at).toISOString(),
  };
}

export type GoalView = ReturnType<typeof presentGoal>;
