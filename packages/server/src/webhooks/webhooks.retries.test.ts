/**
 * The retry path against real receivers, with time moved by the test clock: 500 then 200,
 * Retry-After within the schedule, eight failures to `failed`, redirects not followed, a bad
 * certificate, and the 10 s deadline. Five failing days: webhooks.failing.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../lib/clock.js';
import type { ReceivedRequest, ReceiverHandler, TestReceiver } from './webhooks.fixtures.js';
import { deliveryRows, insertFact, useWebhookTestApp, verifyReceived } from './webhooks.test-app.js';

const isPing = (request: ReceivedRequest) => request.body.includes('"type":"webhook.ping"');

describe('webhook retries', () => {
  const w = useWebhookTestApp();
  /** A receiver that accepts pings and answers events with `events`. */
  const receiver = (events: ReceiverHandler, tls = w.pki.leaf) =>
    w.startReceiver(
      (request, response, index) =>
        isPing(request) ? response.writeHead(204).end() : events(request, response, index),
      tls,
    );
  const run = () => w.t.app.services.webhooks.runDeliveriesOnce();
  const lastRow = async (hookId: string) => (await deliveryRows(w.t, hookId)).at(-1);
  const eventsAt = (target: TestReceiver) => target.requests.filter((request) => !isPing(request));

  it('retries a 500 about 5 s later with the same webhook-id, then succeeds', async () => {
    let calls = 0;
    const target = await receiver((_request, response) => {
      calls += 1;
      return calls === 1 ? response.writeHead(500).end('boom') : response.writeHead(200).end('ok');
    });
    const hook = await w.api.add(target.url);
    await insertFact(w.t, w.siteId);
    const now = w.t.clock.now().getTime();
    expect(await run()).toMatchObject({ attempted: 1, retrying: 1 });
    const first = await lastRow(hook.id);
    expect(first).toMatchObject({
      status: 'retrying',
      attempt_count: 1,
      response_status: 500,
      last_error: 'HTTP 500: boom',
    });
    const wait = (first?.next_attempt_at?.getTime() ?? 0) - now;
    expect(wait).toBeGreaterThanOrEqual(4_500);
    expect(wait).toBeLessThanOrEqual(5_500);
    expect(await run()).toMatchObject({ attempted: 0 });

    w.t.clock.advance(5_600);
    expect(await run()).toMatchObject({ attempted: 1, succeeded: 1 });
    expect(await lastRow(hook.id)).toMatchObject({
      status: 'succeeded',
      attempt_count: 2,
      response_status: 200,
      last_error: null,
      next_attempt_at: null,
    });
    const [one, two] = eventsAt(target);
    expect(one?.headers['webhook-id']).toBe(two?.headers['webhook-id']);
    expect(one?.body).toBe(two?.body);
    for (const request of [one, two])
      expect(verifyReceived(request as ReceivedRequest, hook.secret).type).toBe('ai_session.classified');
    await w.api.remove(hook.id);
  });

  it('honours Retry-After on 503 and 429, but never beyond the longest step (10 h)', async () => {
    const answers: [number, string][] = [
      [503, '3600'],
      [429, '99999999'],
    ];
    let calls = 0;
    const target = await receiver((_request, response) => {
      const [status, retryAfter] = answers[calls++ % 2] as [number, string];
      response.writeHead(status, { 'retry-after': retryAfter }).end();
    });
    const hook = await w.api.add(target.url);
    for (const expected of [HOUR_MS, 10 * HOUR_MS]) {
      await insertFact(w.t, w.siteId);
      const now = w.t.clock.now().getTime();
      await run();
      const row = await lastRow(hook.id);
      expect((row?.next_attempt_at?.getTime() ?? 0) - now).toBe(expected);
    }
    await w.api.remove(hook.id);
  });

  it('fails a delivery after its 8th failed attempt', async () => {
    const target = await receiver((_request, response) => response.writeHead(500).end());
    const hook = await w.api.add(target.url);
    await insertFact(w.t, w.siteId);
    for (let attempt = 1; attempt <= 8; attempt++) {
      expect(await run(), `attempt ${attempt}`).toMatchObject({ attempted: 1 });
      w.t.clock.advance(11 * HOUR_MS);
    }
    expect(await lastRow(hook.id)).toMatchObject({
      status: 'failed',
      attempt_count: 8,
      next_attempt_at: null,
    });
    expect(await run()).toMatchObject({ attempted: 0 });
    expect(new Set(eventsAt(target).map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(eventsAt(target)).toHaveLength(8);
    const listed = (await w.api.deliveries(hook.id, 'status=failed')).json();
    expect(listed.deliveries.map((d: { event_type: string }) => d.event_type)).toEqual([
      'ai_session.classified',
    ]);
    await w.api.remove(hook.id);
  });

  it('does not follow a redirect to a private address', async () => {
    const inner = await receiver((_request, response) => response.writeHead(200).end());
    const target = await receiver((_request, response) =>
      response.writeHead(302, { location: 'https://127.0.0.1:1/admin' }).end(),
    );
    const hook = await w.api.add(target.url);
    const innerBefore = inner.requests.length;
    await insertFact(w.t, w.siteId);
    await run();
    expect(await lastRow(hook.id)).toMatchObject({
      status: 'retrying',
      response_status: 302,
      last_error: 'HTTP 302: redirect to https://127.0.0.1:1/admin not followed',
    });
    expect(inner.requests).toHaveLength(innerBefore);
    await w.api.remove(hook.id);
  });

  it('refuses a receiver whose certificate the CA did not sign', async () => {
    const rogue = await receiver((_request, response) => response.writeHead(200).end(), w.pki.rogue);
    const hook = await w.api.add(rogue.url);
    expect(hook.verification_status).toBe('unverified');
    await insertFact(w.t, w.siteId);
    await run();
    const row = await lastRow(hook.id);
    expect(row).toMatchObject({ status: 'retrying', response_status: null });
    expect(row?.last_error).toContain('TLS certificate rejected (DEPTH_ZERO_SELF_SIGNED_CERT)');
    expect(rogue.requests).toHaveLength(0);
    await w.api.remove(hook.id);
  });

  it('gives up on a receiver that hangs, at the 10 s deadline', { timeout: 30_000 }, async () => {
    const hanging = await receiver(() => {});
    const hook = await w.api.add(hanging.url);
    await insertFact(w.t, w.siteId);
    const started = Date.now();
    expect(await run()).toMatchObject({ attempted: 1, retrying: 1 });
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(await lastRow(hook.id)).toMatchObject({
      status: 'retrying',
      last_error: 'no complete response within 10 s',
    });
    await w.api.remove(hook.id);
  });
});
