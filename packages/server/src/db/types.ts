/** Row types of every table, as Kysely sees them; db/row-types.test.ts checks them against `migrations/`. */
import type { Generated, JSONColumnType } from 'kysely';
import type { AttributionModel, NullableTimestamp, Region, Role, Timestamp } from './column-types.js';
import type { CrawlerTables } from './crawler-types.js';
import type { ImportTables } from './import-types.js';
import type { IngestTables, RevenueTables } from './ingest-types.js';
import type { PrivacyTables } from './privacy-types.js';
import type { ProcessorTables } from './processor-types.js';
import type { SharedLinkTables } from './shared-link-types.js';
import type { StatsTables } from './stats-types.js';

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
  /** Null for a person who joined through OpenID Connect (migrations/022). */
  password_hash: string | null;
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
  /** Public id for listing and ending sessions (migrations/020). */
  id: Generated<string>;
  user_agent: string | null;
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
  events_retention_days: number | null;
  visits_retention_days: number | null;
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

/** Invitations to join an account (migrations/021); the token is kept as its SHA-256. */
export interface InvitationsTable {
  id: string;
  account_id: string;
  email: string;
  role: Role;
  token_hash: string;
  invited_by: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

/** Password reset links (migrations/021); the token is kept as its SHA-256. */
export interface PasswordResetsTable {
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

/** A person's identity at the OpenID Connect provider (migrations/022). */
export interface OidcLinksTable {
  issuer: string;
  subject: string;
  user_id: string;
  created_at: Timestamp;
}

/** A session begun through OpenID Connect, with its sealed ID token for the provider's logout. */
export interface OidcSessionsTable {
  session_token_hash: string;
  id_token_sealed: string;
  created_at: Timestamp;
}

/** `state` values callbacks have used (SHA-256), kept until they would have expired anyway. */
export interface OidcUsedStatesTable {
  state_hash: string;
  expires_at: Timestamp;
}

/** A person's TOTP second factor, pending until confirmed (migrations/020). */
export interface TotpFactorsTable {
  user_id: string;
  secret_sealed: string;
  created_at: Timestamp;
  confirmed_at: NullableTimestamp;
  last_used_step: number | null;
}

export interface TotpRecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: NullableTimestamp;
}

/** Hits the ingest refused, per site, five-minute period and reason (sites/site-refusals.ts). */
export interface IngestRefusalsTable {
  site_id: string;
  period_start: Timestamp;
  reason: string;
  hits: number;
}

export interface PendingSignInsTable {
  token_hash: string;
  user_id: string;
  account_id: string;
  user_agent: string | null;
  expires_at: Timestamp;
}

export interface DB
  extends IngestTables,
    RevenueTables,
    CrawlerTables,
    StatsTables,
    SharedLinkTables,
    ProcessorTables,
    PrivacyTables,
    ImportTables {
  schema_migrations: SchemaMigrationsTable;
  sql_sources: SqlSourcesTable;
  server_settings: ServerSettingsTable;
  accounts: AccountsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  dashboard_sessions: DashboardSessionsTable;
  sites: SitesTable;
  ingest_refusals: IngestRefusalsTable;
  api_keys: ApiKeysTable;
  site_erasures: SiteErasuresTable;
  funnels: FunnelsTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
  oidc_links: OidcLinksTable;
  oidc_sessions: OidcSessionsTable;
  oidc_used_states: OidcUsedStatesTable;
  totp_factors: TotpFactorsTable;
  totp_recovery_codes: TotpRecoveryCodesTable;
  pending_sign_ins: PendingSignInsTable;
}
