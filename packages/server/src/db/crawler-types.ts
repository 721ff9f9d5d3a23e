/**
 * Row types of migrations/008_crawlers.sql, 011_crawler_ranges.sql, 013_crawler_paths.sql and
 * 015_crawler_path_statuses.sql.
 */
import type { ColumnType } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.js';

export interface BotTokensTable {
  id: string;
  account_id: string;
  site_id: string;
  created_by: string | null;
  name: string;
  display_prefix: string;
  token_hash: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface CrawlerHitsTable {
  site_id: string;
  id: string;
  crawler: string;
  operator: string;
  purpose: string;
  path: string;
  status: number | null;
  occurred_at: Timestamp;
  received_at: Timestamp;
  verified: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
}

export interface DailyCrawlerHitsTable {
  site_id: string;
  day: string;
  crawler: string;
  operator: string;
  purpose: string;
  hits: number;
  verified_hits: ColumnType<number, number | undefined, number>;
  spoofed_hits: ColumnType<number, number | undefined, number>;
}

export interface DailyCrawlerPathsTable {
  site_id: string;
  day: string;
  operator: string;
  /** md5 of the path as a uuid. */
  path_key: string;
  path: string;
  hits: number;
  /** The part of `hits` answered with a status outside 200-299; a hit without a status is not one. */
  non_2xx_hits: ColumnType<number, number | undefined, number>;
}

export interface CrawlerIpRangesTable {
  crawler: string;
  source_url: string;
  /** CIDR prefixes, IPv4 and IPv6 (`jsonb` array of strings). */
  prefixes: ColumnType<string[], string, string>;
  fetched_at: Timestamp;
}

export interface CrawlerTables {
  bot_tokens: BotTokensTable;
  crawler_hits: CrawlerHitsTable;
  daily_crawler_hits: DailyCrawlerHitsTable;
  crawler_ip_ranges: CrawlerIpRangesTable;
  daily_crawler_paths: DailyCrawlerPathsTable;
}
