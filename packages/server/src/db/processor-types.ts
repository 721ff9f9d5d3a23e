/** Row types of the payment-processor connection tables (migration 026). */
import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.js';

export interface ProcessorConnectionsTable {
  id: string;
  site_id: string;
  provider: string;
  name: string | null;
  /** The signing secret, sealed (integrations/connection-secrets.ts). */
  secret_sealed: string;
  created_by: string | null;
  created_at: Timestamp;
  last_event_at: NullableTimestamp;
  last_error: string | null;
  last_error_at: NullableTimestamp;
  events_received: Generated<number>;
}

export interface ProcessorEventsTable {
  site_id: string;
  provider: string;
  event_id: string;
  received_at: Timestamp;
}

export interface ProcessorPaymentAliasesTable {
  site_id: string;
  provider: string;
  alias: string;
  transaction_id: string;
}

export interface ProcessorTables {
  processor_connections: ProcessorConnectionsTable;
  processor_events: ProcessorEventsTable;
  processor_payment_aliases: ProcessorPaymentAliasesTable;
}
