/** Row types of the stats rollups (migrations/024_stats_rollups.sql, 030_rollup_people_count.sql). */
import type { Timestamp } from './column-types.js';

export interface StatsVisitRollupsTable {
  site_id: string;
  dimension: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** '' for a null value. */
  value: string;
  visits: number;
  pageviews: number;
  bounces: number;
  engaged_seconds: number;
  /** Pages: visits that viewed the page the day before too. */
  continued_visits: number;
  /** A stored PeopleSketch (stats/rollups/people-sketch.ts). */
  people: Uint8Array;
  /** The sketch's count; null on rows built before migration 030 and not counted yet. */
  people_count: number | null;
}

export interface StatsMonthRollupsTable extends Omit<StatsVisitRollupsTable, 'day'> {
  /** YYYY-MM-01. */
  month: string;
}

export interface StatsRollupMonthsTable {
  site_id: string;
  month: string;
  built_at: Timestamp;
}

export interface StatsRollupDaysTable {
  site_id: string;
  day: string;
  built_at: Timestamp;
}

export interface StatsRollupSitesTable {
  site_id: string;
  links_checked_at: Timestamp;
}

export interface StatsTables {
  stats_visit_rollups: StatsVisitRollupsTable;
  stats_rollup_days: StatsRollupDaysTable;
  stats_rollup_sites: StatsRollupSitesTable;
  stats_month_rollups: StatsMonthRollupsTable;
  stats_rollup_months: StatsRollupMonthsTable;
}
