/** How endpoints and deliveries look in responses (interface §2.6, §2.7). Secrets never appear. */
import type { DeliveryRow } from './deliveries.store.js';
import type { WebhookRow } from './webhooks.store.js';

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export function presentWebhook(row: WebhookRow, snippetKey: string) {
  return {
    id: row.id,
    site_id: snippetKey,
    url: row.url,
    event_types: row.event_types,
    enabled: row.enabled,
    verification_status: row.verification_status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function presentDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event_type: row.event_type,
    envelope_id: row.envelope_id,
    dedupe_key: row.dedupe_key,
    status: row.status,
    attempt_count: row.attempt_count,
    response_status: row.response_status,
    last_error: row.last_error,
    next_attempt_at: iso(row.next_attempt_at),
    last_attempt_at: iso(row.last_attempt_at),
    created_at: row.created_at_text,
    payload: row.payload,
  };
}
