/**
 * SQL of the fan-out from `outbox_events` to `webhook_deliveries`. Outbox rows are claimed with
 * FOR UPDATE SKIP LOCKED, so several dispatchers split the backlog; subscribed endpoints are
 * locked (in id order, so two dispatchers never deadlock) while their delivery timestamps are
 * allocated, which keeps `created_at` strictly increasing per endpoint.
 */
import { type Insertable, sql, type Transaction } from 'kysely';
import type { DB } from '../db/types.js';
import type { WebhookDeliveriesTable } from './webhook-tables.js';

type Trx = Transaction<DB>;

/** Rows per insert statement: 13 columns each keeps a statement well under 65,535 parameters. */
const INSERT_CHUNK = 1000;

export function claimUndispatched(trx: Trx, limit: number) {
  return trx
    .selectFrom('outbox_events')
    .select(['site_id', 'id', 'type', 'dedupe_key', 'payload', 'created_at'])
    .where('dispatched_at', 'is', null)
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export type OutboxEvent = Awaited<ReturnType<typeof claimUndispatched>>[number];

/** Enabled endpoints of these sites, locked until the transaction ends. */
export function lockEnabledEndpoints(trx: Trx, siteIds: string[]) {
  return trx
    .selectFrom('webhooks')
    .select(['id', 'site_id', 'event_types'])
    .where('site_id', 'in', siteIds)
    .where('enabled', '=', true)
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function snippetKeysOf(trx: Trx, siteIds: string[]): Promise<Map<string, string>> {
  const rows = await trx
    .selectFrom('sites')
    .select(['id', 'snippet_key'])
    .where('id', 'in', siteIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row.snippet_key]));
}

/** The newest delivery time of each endpoint, in microseconds since the epoch. */
export async function lastCreatedMicros(trx: Trx, webhookIds: string[]): Promise<Map<string, number>> {
  if (webhookIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom('webhook_deliveries')
    .select(['webhook_id', sql<number>`(extract(epoch from max(created_at)) * 1000000)::bigint`.as('micros')])
    .where('webhook_id', 'in', webhookIds)
    .groupBy('webhook_id')
    .execute();
  return new Map(rows.map((row) => [row.webhook_id, Number(row.micros)]));
}

/** Inserts deliveries; one that exists for the same (endpoint, type, fact) is skipped. Returns how many went in. */
export async function insertDeliveries(
  trx: Trx,
  rows: Insertable<WebhookDeliveriesTable>[],
): Promise<number> {
  let inserted = 0;
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    // Counted from RETURNING: PGlite reports no row count for an insert.
    const added = await trx
      .insertInto('webhook_deliveries')
      .values(rows.slice(start, start + INSERT_CHUNK))
      .onConflict((oc) => oc.columns(['webhook_id', 'event_type', 'dedupe_key']).doNothing())
      .returning('id')
      .execute();
    inserted += added.length;
  }
  return inserted;
}

export async function markDispatched(trx: Trx, events: OutboxEvent[], now: Date) {
  const siteIds = [...new Set(events.map((event) => event.site_id))];
  await trx
    .updateTable('outbox_events')
    .set({ dispatched_at: now })
    .where('site_id', 'in', siteIds)
    .where(
      'id',
      'in',
      events.map((event) => event.id),
    )
    .execute();
}

/**
 * Hands out delivery timestamps for one endpoint: never before `nowMicros`, always after the
 * endpoint's newest one. Call with the endpoint row locked.
 */
export function createdAtAllocator(last: Map<string, number>, nowMicros: number) {
  return (webhookId: string): string => {
    const next = Math.max(nowMicros, (last.get(webhookId) ?? 0) + 1);
    last.set(webhookId, next);
    return microsToIso(next);
  };
}

/** `2026-01-15T12:00:00.123456Z` from microseconds since the epoch. */
export function microsToIso(micros: number): string {
  const millis = Math.floor(micros / 1000);
  const extra = String(micros - millis * 1000).padStart(3, '0');
  return new Date(millis).toISOString().replace(/Z$/, `${extra}Z`);
}
