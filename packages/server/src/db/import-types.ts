/** Row types of imports (migrations/039_imports.sql). */
import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.js';

export type ImportSource = 'plausible' | 'umami' | 'ga4' | 'matomo';
export type ImportStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface ImportsTable {
  id: string;
  site_id: string;
  source: ImportSource;
  status: Generated<ImportStatus>;
  file_sha256: string;
  bytes_total: number;
  bytes_read: Generated<number>;
  rows_read: Generated<number>;
  rows_refused: Generated<number>;
  date_from: string | null;
  date_to: string | null;
  native_from: string | null;
  error_line: number | null;
  error_message: string | null;
  attempts: Generated<number>;
  locked_by: string | null;
  locked_until: NullableTimestamp;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface ImportFileChunksTable {
  import_id: string;
  seq: number;
  bytes: Uint8Array;
  written_at: Timestamp;
}

export interface ImportHitsTable {
  import_id: string;
  seq: number;
  visitor_key: string;
  session_key: string;
  at: Timestamp;
  is_pageview: boolean;
  path: string;
  name: string;
  source_key: string;
  source_kind: string;
  session_ai_source: string;
  source_name: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_content: string;
  utm_term: string;
  country: string;
  device: string;
  browser: string;
  os: string;
  engaged_seconds: number;
}

/** Counts of one day and dimension value: a staged row (`import_day_rows`) or a kept one. */
export interface DayCounts {
  day: string;
  dimension: string;
  value: string;
  visitors: number;
  visits: number;
  pageviews: number;
  bounces: number;
  duration_seconds: number;
  events: number;
}

export interface ImportDayRowsTable extends DayCounts {
  import_id: string;
  seq: number;
}

export interface ImportedDaysTable extends DayCounts {
  import_id: string;
  site_id: string;
}

export interface ImportTables {
  imports: ImportsTable;
  import_file_chunks: ImportFileChunksTable;
  import_hits: ImportHitsTable;
  import_day_rows: ImportDayRowsTable;
  imported_days: ImportedDaysTable;
}
