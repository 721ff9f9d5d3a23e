/** Row types of the per-site data tables of migrations/003_ingest.sql and 006_revenue.sql. */
import type { ColumnType, Generated, GeneratedAlways, JSONColumnType } from 'kysely';
import type { AttributionModel, NullableTimestamp, Timestamp } from './column-types.js';

export type EventType = 'pageview' | 'event' | 'identify' | 'engagement';
export type SourceKindColumn = 'ai' | 'non_ai' | 'unknown';

export interface EventsTable {
  site_id: string;
  event_id: string;
  type: EventType;
  name: string | null;
  visitor_id: string | null;
  person_key: string | null;
  visit_id: string | null;
  occurred_at: Timestamp;
  received_at: Timestamp;
  url: string | null;
  /** The URL's path, computed by the database (migration 023, `touchtrail_url_path`). */
  path: GeneratedAlways<string | null>;
  properties: JSONColumnType<Record<string, unknown> | null, string | null, string | null>;
  value_minor: number | null;
  currency: string | null;
  origin: 'browser' | 'server';
}

export interface VisitsTable {
  site_id: string;
  id: string;
  visitor_id: string;
  started_at: Timestamp;
  last_activity_at: Timestamp;
  entry_url: string;
  source_kind: SourceKindColumn;
  session_ai_source: string;
  source_name: string;
  source_key: string;
  campaign: string;
  utm_source: string;
  utm_medium: string;
  utm_content: string;
  utm_term: string;
  ref: string;
  device_type: string;
  os: string;
  browser: string;
  country_code: string;
  city: string;
  pageviews: number;
  engaged_seconds: number;
  is_new: boolean;
  /** The URL of the visit's latest pageview. */
  exit_url: string;
}

export interface VisitorsTable {
  site_id: string;
  visitor_id: string;
  first_seen: Timestamp;
  last_seen: Timestamp;
}

export interface IdentityLinksTable {
  site_id: string;
  person_key: string;
  visitor_id: string;
  created_at: Timestamp;
}

export interface GoalsTable {
  site_id: string;
  id: string;
  name: string;
  display_name: string | null;
  emoji: string | null;
  sort_order: Generated<number>;
  created_at: Timestamp;
  archived_at: NullableTimestamp;
}

export interface DailyGoalCompletionsTable {
  site_id: string;
  day: string;
  name: string;
  completions: number;
}

/** Events of a goal per day carrying one property key and value (migrations/009). */
export interface DailyGoalPropertiesTable {
  site_id: string;
  name: string;
  day: string;
  pair: string;
  key: string;
  value: string;
  events: number;
}

export interface DailyVisitsTable {
  site_id: string;
  day: string;
  source_kind: string;
  session_ai_source: string;
  visits: Generated<number>;
  pageviews: Generated<number>;
}

export interface OutboxEventsTable {
  site_id: string;
  id: string;
  type: string;
  dedupe_key: string;
  payload: JSONColumnType<Record<string, unknown>, string, string>;
  created_at: Timestamp;
}

export interface IngestTables {
  events: EventsTable;
  visits: VisitsTable;
  visitors: VisitorsTable;
  identity_links: IdentityLinksTable;
  goals: GoalsTable;
  daily_goal_completions: DailyGoalCompletionsTable;
  daily_goal_properties: DailyGoalPropertiesTable;
  daily_visits: DailyVisitsTable;
  outbox_events: OutboxEventsTable;
}

export interface ExchangeRatesTable {
  day: string;
  currency: string;
  per_euro: number;
}

export interface PaymentsTable {
  site_id: string;
  id: string;
  provider: string;
  transaction_id: string;
  kind: 'payment' | 'trial';
  amount_minor: number;
  currency: string;
  refunded_minor: Generated<number>;
  renewal: Generated<boolean>;
  customer_id: string | null;
  visitor_id: string | null;
  person_key: string | null;
  paid_at: Timestamp;
  received_at: Timestamp;
  attributed_at: NullableTimestamp;
  settlement_minor: ColumnType<number | null, number | null | undefined, number | null>;
  settlement_currency: ColumnType<string | null, string | null | undefined, string | null>;
  /** The payment's conversion event (`pay_` + id), unique per site (migration 016). */
  event_id: string;
}

export interface RefundsTable {
  site_id: string;
  id: string;
  payment_id: string;
  amount_minor: number;
  /** The refund's part of the payment's settlement; null when the payment has none. */
  settlement_minor: ColumnType<number | null, number | null | undefined, number | null>;
  refunded_at: Timestamp;
  created_at: Timestamp;
  /** In daily_revenue yet: the revenue ledger's own state (revenue/revenue-ledger.ts). */
  applied: Generated<boolean>;
}

export interface AttributionJobsTable {
  site_id: string;
  event_id: string;
  status: Generated<'pending' | 'done' | 'failed'>;
  attempts: Generated<number>;
  run_after: Timestamp;
  last_error: string | null;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
}

export interface AttributionCreditsTable {
  site_id: string;
  event_id: string;
  model: AttributionModel;
  source: string;
  source_kind: string;
  share: number;
}

export interface DailyRevenueTable {
  site_id: string;
  day: string;
  model: string;
  source: string;
  currency: string;
  gross_minor: Generated<number>;
  refunded_minor: Generated<number>;
  conversions: Generated<number>;
  trials: Generated<number>;
}

export interface RevenueTables {
  exchange_rates: ExchangeRatesTable;
  payments: PaymentsTable;
  refunds: RefundsTable;
  attribution_jobs: AttributionJobsTable;
  attribution_credits: AttributionCreditsTable;
  daily_revenue: DailyRevenueTable;
}
