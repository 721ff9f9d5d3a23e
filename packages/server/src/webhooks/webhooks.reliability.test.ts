/**
 * Reliability of the worker: two workers at once never send one attempt twice (on PostgreSQL
 * this runs SKIP LOCKED across pool connections); a worker killed mid-delivery — attempts
 * claimed, some sent, none recorded — is recovered once its lease runs out, every delivery
 * ends terminal and duplicates carry the same webhook-id (at-least-once).
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { claimDue } from './deliveries.store.js';
import { DELIVERY_LEASE_MS } from './delivery-worker.js';
import { MAX_ATTEMPTS } from './retry-schedule.js';
import { signedHeaders } from './webhook-envelope.js';
import { createSecretBox } from './webhook-secrets.js';
import { createTransport } from './webhook-transport.js';
import type { ReceivedRequest, TestReceiver } from './webhooks.fixtures.js';
import { createWebhooksService } from './webhooks.service.js';
import { deliveryRows, insertFact, useWebhookTestApp } from './webhooks.test-app.js';

const isPing = (request: ReceivedRequest) => request.body.includes('"type":"webhook.ping"');
const idsOf = (requests: ReceivedRequest[]) =>
  requests.filter((r) => !isPing(r)).map((r) => String(r.headers['webhook-id']));

describe('webhook worker reliability', () => {
  const w = useWebhookTestApp();
  let receiver: TestReceiver;
  let failing = false;
  beforeAll(async () => {
    receiver = await w.startReceiver((request, response) => {
      const status = failing && !isPing(request) ? 500 : 200;
      setTimeout(() => response.writeHead(status).end(), Math.random() * 15);
    });
  });

  it('never sends the same attempt twice with two workers at once', async () => {
    const hook = await w.api.add(receiver.url);
    const other = createWebhooksService({
      db: w.t.database.db,
      clock: w.t.clock,
      config: w.t.config,
      sites: w.t.app.services.sites,
    });
    const before = receiver.requests.length;
    for (let i = 0; i < 120; i++) await insertFact(w.t, w.siteId);
    expect(await w.t.app.services.webhooks.dispatchOutbox()).toEqual({ facts: 120, deliveries: 120 });
    const reports = await Promise.all(
      [w.t.app.services.webhooks, other].map((service) => service.deliverDue({ concurrency: 8 })),
    );
    await other.close();
    const attempted = reports.map((report) => report.attempted);
    // Both workers took a share, at the same time.
    expect(attempted.every((count) => count > 0)).toBe(true);
    expect((attempted[0] ?? 0) + (attempted[1] ?? 0)).toBe(120);
    const ids = idsOf(receiver.requests.slice(before));
    expect(ids).toHaveLength(120);
    expect(new Set(ids).size).toBe(120);
    const rows = (await deliveryRows(w.t, hook.id)).filter((row) => row.event_type !== 'webhook.ping');
    expect(rows).toHaveLength(120);
    expect(rows.every((row) => row.status === 'succeeded' && row.attempt_count === 1)).toBe(true);
    await w.api.remove(hook.id);
  });

  /** A worker process that claims due deliveries, sends the first `sendCount`, and dies. */
  async function killedWorker(sendCount: number) {
    const now = w.t.clock.now();
    const claimed = await claimDue(w.t.database.db, {
      workerId: newId(),
      now,
      leaseUntil: new Date(now.getTime() + DELIVERY_LEASE_MS),
      limit: 100,
      maxAttempts: MAX_ATTEMPTS,
    });
    const transport = createTransport({
      allowPrivateTargets: true,
      extraCa: readFileSync(w.t.config.extraCaCertsFile ?? '', 'utf8'),
    });
    const secrets = createSecretBox(w.t.config.secretKey ?? '');
    for (const delivery of claimed.slice(0, sendCount)) {
      const secret = secrets.open(delivery.secret_sealed, delivery.webhook_id);
      const headers = signedHeaders(secret, delivery.envelope_id, delivery.payload, new Date());
      await transport.post(delivery.url, headers, delivery.payload);
    }
    await transport.close();
    return claimed;
  }

  it('recovers a worker killed mid-delivery: all terminal, duplicates share the webhook-id', async () => {
    const hook = await w.api.add(receiver.url);
    for (let i = 0; i < 20; i++) await insertFact(w.t, w.siteId);
    await w.t.app.services.webhooks.dispatchOutbox();
    const before = receiver.requests.length;
    const claimed = await killedWorker(10);
    expect(claimed).toHaveLength(20);

    // The lease still holds: a restarted worker leaves the deliveries alone until it runs out.
    expect(await w.t.app.services.webhooks.runDeliveriesOnce()).toMatchObject({ attempted: 0 });
    w.t.clock.advance(DELIVERY_LEASE_MS + 1);
    expect(await w.t.app.services.webhooks.runDeliveriesOnce()).toMatchObject({
      attempted: 20,
      succeeded: 20,
    });

    const rows = (await deliveryRows(w.t, hook.id)).filter((row) => row.event_type !== 'webhook.ping');
    expect(rows.map((row) => [row.status, row.attempt_count])).toEqual(rows.map(() => ['succeeded', 2]));
    const ids = idsOf(receiver.requests.slice(before));
    expect(ids).toHaveLength(30);
    expect(new Set(ids)).toEqual(new Set(rows.map((row) => row.envelope_id)));
    const sentTwice = claimed.slice(0, 10).map((delivery) => delivery.envelope_id);
    for (const id of sentTwice) expect(ids.filter((seen) => seen === id)).toHaveLength(2);
    await w.api.remove(hook.id);
  });

  it('fails a delivery whose final attempt died with its worker', async () => {
    failing = true;
    const hook = await w.api.add(receiver.url);
    await insertFact(w.t, w.siteId);
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      await w.t.app.services.webhooks.runDeliveriesOnce();
      w.t.clock.advance(11 * HOUR_MS);
    }
    expect(await killedWorker(1)).toHaveLength(1);
    w.t.clock.advance(DELIVERY_LEASE_MS + 1);
    expect(await w.t.app.services.webhooks.runDeliveriesOnce()).toMatchObject({ attempted: 0, failed: 1 });
    const row = (await deliveryRows(w.t, hook.id)).at(-1);
    expect(row).toMatchObject({ status: 'failed', attempt_count: MAX_ATTEMPTS, next_attempt_at: null });
    expect(row?.last_error).toContain('worker stopped during the final attempt');
    failing = false;
  });
});
