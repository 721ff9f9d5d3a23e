/**
 * The fan-out: each new outbox fact becomes one pending delivery per enabled endpoint of its
 * site subscribed to its type, in the same transaction that marks the fact dispatched. The
 * fact's `dedupe_key` and the unique (endpoint, type, dedupe_key) key mean one fact is never
 * enqueued twice for one endpoint. An endpoint disabled when the fact is dispatched gets no
 * delivery of it; deliveries enqueued before it was disabled wait until it is enabled again.
 */
import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import * as store from './dispatch.store.js';
import { buildEnvelope, newEnvelopeId } from './webhook-envelope.js';
import type { WebhookDeliveriesTable } from './webhook-tables.js';

export const DISPATCH_BATCH = 200;

type Endpoint = Awaited<ReturnType<typeof store.lockEnabledEndpoints>>[number];

export function createDispatcher({ db, clock }: { db: Kysely<DB>; clock: Clock }) {
  /** Dispatches up to `limit` facts; returns how many it took and how many deliveries it enqueued. */
  async function dispatchOnce(limit = DISPATCH_BATCH): Promise<{ facts: number; deliveries: number }> {
    return db.transaction().execute(async (trx) => {
      const events = await store.claimUndispatched(trx, limit);
      if (events.length === 0) return { facts: 0, deliveries: 0 };
      const now = clock.now();
      const siteIds = [...new Set(events.map((event) => event.site_id))];
      const endpoints = await store.lockEnabledEndpoints(trx, siteIds);
      const rows: Insertable<WebhookDeliveriesTable>[] = [];
      let inserted = 0;
      if (endpoints.length > 0) {
        const bySite = groupBySite(endpoints);
        const snippetKeys = await store.snippetKeysOf(trx, siteIds);
        const last = await store.lastCreatedMicros(
          trx,
          endpoints.map((endpoint) => endpoint.id),
        );
        const allocate = store.createdAtAllocator(last, now.getTime() * 1000);
        for (const event of events) {
          for (const endpoint of bySite.get(event.site_id) ?? []) {
            if (!endpoint.event_types.includes(event.type)) continue;
            const envelopeId = newEnvelopeId();
            // `data` always names the site by its snippet key, whatever the writer put there.
            const data = { ...event.payload, site_id: snippetKeys.get(event.site_id) ?? null };
            rows.push({
              site_id: event.site_id,
              id: newId(),
              webhook_id: endpoint.id,
              event_type: event.type,
              envelope_id: envelopeId,
              dedupe_key: event.dedupe_key,
              payload: buildEnvelope(event.type, envelopeId, event.created_at, data),
              status: 'pending',
              next_attempt_at: now,
              created_at: allocate(endpoint.id),
            });
          }
        }
        inserted = await store.insertDeliveries(trx, rows);
      }
      await store.markDispatched(trx, events, now);
      return { facts: events.length, deliveries: inserted };
    });
  }

  /** Dispatches until the backlog is empty or `maxRounds` batches were taken. */
  async function dispatchAll(maxRounds = 50) {
    const total = { facts: 0, deliveries: 0 };
    for (let round = 0; round < maxRounds; round++) {
      const done = await dispatchOnce();
      total.facts += done.facts;
      total.deliveries += done.deliveries;
      if (done.facts < DISPATCH_BATCH) break;
    }
    return total;
  }

  return { dispatchOnce, dispatchAll };
}

function groupBySite(endpoints: Endpoint[]): Map<string, Endpoint[]> {
  const bySite = new Map<string, Endpoint[]>();
  for (const endpoint of endpoints) {
    const list = bySite.get(endpoint.site_id) ?? [];
    list.push(endpoint);
    bySite.set(endpoint.site_id, list);
  }
  return bySite;
}
