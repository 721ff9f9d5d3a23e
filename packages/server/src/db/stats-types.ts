/**
 * Row types of the stats rollups (migrations/024_stats_rollups.sql, 030_rollup_people_count.sql,
 * 032_goal_rollups.sql).
 */
import type { NullableTimestamp, Timestamp } from './column-types.js';

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
  /** A stored PeopleSketch (reporting/rollups/people-sketch.ts). */
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

export interface StatsGoalRollupsTable {
  site_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  /** The goal: the conversion event's name. */
  name: string;
  /** Conversions a site sent (not the payment events the product records). */
  events: number;
  conversions: number;
  /** A stored PeopleSketch, and its count. */
  people: Uint8Array;
  people_count: number;
}

export interface StatsGoalValueRollupsTable {
  site_id: string;
  day: string;
  name: string;
  currency: string;
  /** Summed value in minor units of `currency` (numeric, read as a string). */
  value_minor: string | number;
}

export interface StatsGoalRollupDaysTable {
  site_id: string;
  day: string;
  /** Null: the day's goals are to be built again (a conversion came for it later). */
  built_at: NullableTimestamp;
}

export interface StatsTables {
  stats_visit_rollups: StatsVisitRollupsTable;
  stats_rollup_days: StatsRollupDaysTable;
  stats_rollup_sites: StatsRollupSitesTable;
  stats_month_rollups: StatsMonthRollupsTable;
  stats_rollup_months: StatsRollupMonthsTable;
  stats_goal_rollups: StatsGoalRollupsTable;
  stats_goal_value_rollups: StatsGoalValueRollupsTable;
  stats_goal_rollup_days: StatsGoalRollupDaysTable;
}
