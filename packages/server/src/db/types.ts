/** Row types of every table, as Kysely sees them. Keep in step with `migrations/`. */
import type { Generated, JSONColumnType } from 'kysely';
import type { AttributionModel, NullableTimestamp, Region, Role, Timestamp } from './column-types.js';
import type { CrawlerTables } from './crawler-types.js';
import type { IngestTables, RevenueTables } from './ingest-types.js';

export type { AttributionModel, NullableTimestamp, Region, Role, Timestamp } from './column-types.js';

/** The checksum of each SQL source file last applied (db/sql-sources.ts). */
export interface SqlSourcesTable {
  name: string;
  checksum: string;
  applied_at: Generated<Date>;
}

export interface SchemaMigrationsTable {
  name: string;
  applied_at: Generated<Date>;
}

export interface ServerSettingsTable {
  name: string;
  value: string;
  created_at: Generated<Date>;
}

export interface AccountsTable {
  id: string;
  name: string;
  plan: Generated<string>;
  site_limit: number;
  region: Generated<Region>;
  pending_deletion_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  created_at: Timestamp;
}

export interface MembershipsTable {
  account_id: string;
  user_id: string;
  role: Role;
  created_at: Timestamp;
}

export interface DashboardSessionsTable {
  token_hash: string;
  user_id: string;
  account_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

export interface SitesTable {
  id: string;
  account_id: string;
  snippet_key: string;
  domain: string;
  name: string | null;
  region: Region;
  attribution_model: Generated<AttributionModel>;
  cookie_apex_domain: string | null;
  currency: Generated<string>;
  currency_chosen: Generated<boolean>;
  created_at: Timestamp;
  verified_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  deletion_effective_at: NullableTimestamp;
  erasure_started_at: NullableTimestamp;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  created_by: string | null;
  name: string;
  display_prefix: string;
  key_hash: string;
  scopes: string[];
  site_id: string | null;
  expires_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: Timestamp;
}

export type SiteErasureStatus = 'running' | 'done';

export interface SiteErasuresTable {
  site_id: string;
  account_id: string;
  snippet_key: string;
  status: SiteErasureStatus;
  step: string | null;
  locked_by: string | null;
  locked_until: NullableTimestamp;
  attempts: Generated<number>;
  last_error: string | null;
  started_at: Timestamp;
  finished_at: NullableTimestamp;
}

/** Saved funnels (migrations/018_funnels.sql); `steps` as funnels/funnel-steps.ts checks them. */
export interface FunnelsTable {
  site_id: string;
  id: string;
  name: string;
  steps: JSONColumnType<unknown[], string, string>;
  window_hours: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DB extends IngestTables, RevenueTables, CrawlerTables {
  schema_migrations: SchemaMigrationsTable;
  sql_sources: SqlSourcesTable;
  server_settings: ServerSettingsTable;
  accounts: AccountsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  dashboard_sessions: DashboardSessionsTable;
  sites: SitesTable;
  api_keys: ApiKeysTable;
  site_erasures: SiteErasuresTable;
  funnels: FunnelsTable;
}
