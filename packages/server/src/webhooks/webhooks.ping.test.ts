/**
 * `POST …/test` and `POST …/rotate-secret` against real receivers: the verification status
 * transitions of §3.3, the per-endpoint cap (429, nothing changed), pings on a disabled
 * endpoint, and rotation (the old secret fails to verify right after).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../lib/clock.js';
import { verificationAfterPing } from './webhook-ping.js';
import { startReceiver, type TestReceiver } from './webhooks.fixtures.js';
import { deliveryRows, useWebhookTestApp, verifyReceived } from './webhooks.test-app.js';

describe('test pings and secret rotation', () => {
  const w = useWebhookTestApp();
  let flaky: TestReceiver;
  let healthy = true;
  beforeAll(async () => {
    flaky = await w.startReceiver((_request, response) =>
      healthy ? response.writeHead(200).end('pong') : response.writeHead(502).end('bad gateway'),
    );
  });

  it('moves the verification status as §3.3 says', async () => {
    healthy = false;
    const created = await w.api.add(flaky.url);
    expect(created.verification_status).toBe('unverified');

    const failedAgain = (await w.api.test(created.id)).json();
    expect(failedAgain).toEqual({
      ok: false,
      status_code: 502,
      latency_ms: expect.any(Number),
      response_snippet: 'bad gateway',
      verification_status: 'unverified',
    });
    healthy = true;
    const proven = await w.api.test(created.id);
    expect(proven.statusCode).toBe(200);
    expect(proven.json()).toMatchObject({
      ok: true,
      status_code: 200,
      response_snippet: 'pong',
      verification_status: 'verified',
    });
    healthy = false;
    expect((await w.api.test(created.id)).json()).toMatchObject({
      ok: false,
      verification_status: 'failing',
    });
    expect((await w.api.test(created.id)).json()).toMatchObject({ verification_status: 'failing' });
    healthy = true;
    w.t.clock.advance(MINUTE_MS);
    expect((await w.api.test(created.id)).json()).toMatchObject({
      ok: true,
      verification_status: 'verified',
    });

    const pings = await deliveryRows(w.t, created.id);
    expect(pings.map((row) => [row.event_type, row.status, row.attempt_count])).toEqual([
      ['webhook.ping', 'failed', 1],
      ['webhook.ping', 'failed', 1],
      ['webhook.ping', 'succeeded', 1],
      ['webhook.ping', 'failed', 1],
      ['webhook.ping', 'failed', 1],
      ['webhook.ping', 'succeeded', 1],
    ]);
    expect(pings.every((row) => row.next_attempt_at === null)).toBe(true);
  });

  it('covers every transition in the pure rule', () => {
    expect(verificationAfterPing(null, true)).toBe('verified');
    expect(verificationAfterPing(null, false)).toBe('unverified');
    expect(verificationAfterPing('unverified', true)).toBe('verified');
    expect(verificationAfterPing('unverified', false)).toBe('unverified');
    expect(verificationAfterPing('verified', false)).toBe('failing');
    expect(verificationAfterPing('failing', false)).toBe('failing');
    expect(verificationAfterPing('failing', true)).toBe('verified');
  });

  it('caps test pings per endpoint: 429 with nothing sent and nothing changed', async () => {
    healthy = true;
    const created = await w.api.add(flaky.url);
    for (let i = 0; i < 5; i++) expect((await w.api.test(created.id)).statusCode).toBe(200);
    const received = flaky.requests.length;
    const logged = (await deliveryRows(w.t, created.id)).length;
    healthy = false;
    const capped = await w.api.test(created.id);
    expect(capped.statusCode).toBe(429);
    expect(capped.json()).toEqual({ statusCode: 429, message: expect.any(String) });
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(0);
    expect(flaky.requests).toHaveLength(received);
    expect(await deliveryRows(w.t, created.id)).toHaveLength(logged);
    const listed = (await w.api.list())
      .json()
      .webhooks.find((hook: { id: string }) => hook.id === created.id);
    expect(listed.verification_status).toBe('verified');
    w.t.clock.advance(MINUTE_MS + 1);
    expect((await w.api.test(created.id)).json()).toMatchObject({
      ok: false,
      verification_status: 'failing',
    });
  });

  it('pings a disabled endpoint too', async () => {
    healthy = true;
    const created = await w.api.add(flaky.url);
    await w.api.update(created.id, { enabled: false });
    expect((await w.api.test(created.id)).json()).toMatchObject({ ok: true, status_code: 200 });
  });

  it('reports why when no answer came (status_code 0)', async () => {
    const closed = await startReceiver(w.pki.leaf);
    const created = await w.api.add(closed.url);
    await closed.close();
    const result = (await w.api.test(created.id)).json();
    expect(result).toMatchObject({ ok: false, status_code: 0, verification_status: 'failing' });
    expect(result.response_snippet).toContain('ECONNREFUSED');
  });

  it('rotates the secret: the old one stops verifying at once', async () => {
    healthy = true;
    const created = await w.api.add(flaky.url);
    const creationPing = flaky.requests.at(-1);
    if (!creationPing) throw new Error('no ping');
    expect(verifyReceived(creationPing, created.secret).type).toBe('webhook.ping');

    const rotated = await w.api.rotate(created.id);
    expect(rotated.statusCode).toBe(200);
    const { id, secret } = rotated.json();
    expect(id).toBe(created.id);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(created.secret);

    await w.api.test(created.id);
    const next = flaky.requests.at(-1);
    if (!next) throw new Error('no ping');
    expect(verifyReceived(next, secret).type).toBe('webhook.ping');
    expect(() => verifyReceived(next, created.secret)).toThrow('No matching signature found');
    expect(w.t.logs()).not.toContain(secret);
  });
});
