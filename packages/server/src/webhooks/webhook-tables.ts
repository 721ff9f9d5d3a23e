/**
 * Row types of the webhook tables (migrations/007_webhooks.sql), merged into the `DB` interface
 * by declaration merging so the feature stays in its own folder. `outbox_events` gains the
 * `dispatched_at` mark that the fan-out sets.
 */
import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from '../db/column-types.js';

/** What an endpoint can subscribe to; new endpoints get `ai_session.classified` alone (webhooks.service.ts). */
export const EVENT_TYPES = ['ai_session.classified', 'conversion.attributed', 'conversion.refunded'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const PING_EVENT_TYPE = 'webhook.ping';

export const VERIFICATION_STATUSES = ['verified', 'failing', 'unverified'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const DELIVERY_STATUSES = ['pending', 'retrying', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface WebhooksTable {
  site_id: string;
  id: string;
  url: string;
  event_types: string[];
  enabled: Generated<boolean>;
  verification_status: VerificationStatus;
  secret_sealed: string;
  failing_since: NullableTimestamp;
  test_window_start: NullableTimestamp;
  test_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  site_id: string;
  id: string;
  webhook_id: string;
  event_type: string;
  envelope_id: string;
  dedupe_key: string;
  payload: string;
  status: DeliveryStatus;
  attempt_count: Generated<number>;
  response_status: number | null;
  last_error: string | null;
  next_attempt_at: NullableTimestamp;
  last_attempt_at: NullableTimestamp;
  locked_by: string | null;
  locked_until: NullableTimestamp;
  created_at: Timestamp;
}

declare module '../db/types.js' {
  interface DB {
    webhooks: WebhooksTable;
    webhook_deliveries: WebhookDeliveriesTable;
  }
}

declare module '../db/ingest-types.js' {
  interface OutboxEventsTable {
    dispatched_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  }
}
