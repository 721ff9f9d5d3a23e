/**
 * One attempt against real HTTPS receivers: certificates checked against the test CA, one
 * deadline for the whole exchange (headers that never come, a body that drips), 1 KB read,
 * redirects not followed, and loopback refused both for IP literals and in the lookup.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEnvelope, signedHeaders } from './webhook-envelope.js';
import { createSecretBox, newWebhookSecret } from './webhook-secrets.js';
import { createTransport, parseRetryAfter, type Transport } from './webhook-transport.js';
import {
  answer,
  createTestPki,
  startReceiver,
  type TestPki,
  type TestReceiver,
} from './webhooks.fixtures.js';

const HEADERS = { 'content-type': 'application/json' };
const SHORT_DEADLINE_MS = 600;

describe('webhook transport', () => {
  let pki: TestPki;
  let transport: Transport;
  const receivers: TestReceiver[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };

  beforeAll(async () => {
    pki = createTestPki();
    transport = createTransport({
      allowPrivateTargets: true,
      extraCa: readFileSync(pki.caFile, 'utf8'),
      timeoutMs: SHORT_DEADLINE_MS,
    });
  });
  afterAll(async () => {
    await transport.close();
    for (const started of receivers) await started.close();
    pki.remove();
  });

  it('posts the body over TLS verified against the extra CA, by IP literal and by name', async () => {
    const target = await receiver(pki.leaf, answer(200, 'thanks'));
    for (const url of [target.url, target.urlWithHost('localhost')]) {
      const result = await transport.post(url, HEADERS, '{"a":1}');
      expect(result).toMatchObject({ ok: true, status: 200, snippet: 'thanks', error: null });
    }
    expect(target.requests.map((request) => request.body)).toEqual(['{"a":1}', '{"a":1}']);
  });

  it('refuses a certificate the CA did not sign', async () => {
    const rogue = await receiver(pki.rogue);
    const result = await transport.post(rogue.url, HEADERS, '{}');
    expect(result.ok).toBe(false);
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/TLS certificate rejected \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
    expect(rogue.requests).toHaveLength(0);
  });

  it('gives up on headers that never come at the deadline', async () => {
    const silent = await receiver(pki.leaf, () => {});
    const started = Date.now();
    const result = await transport.post(silent.url, HEADERS, '{}');
    expect(Date.now() - started).toBeLessThan(SHORT_DEADLINE_MS + 1000);
    expect(result).toMatchObject({ ok: false, status: null, error: 'no complete response within 0.6 s' });
  });

  it('gives up on a body dripping past the deadline, even after a 200', async () => {
    const drip = await receiver(pki.leaf, (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => response.write('.'), 100);
      response.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const result = await transport.post(drip.url, HEADERS, '{}');
    expect(Date.now() - started).toBeLessThan(SHORT_DEADLINE_MS + 1000);
    expect(result).toMatchObject({ ok: false, status: 200, error: 'no complete response within 0.6 s' });
  });

  it('reads at most 1 KB of the answer', async () => {
    const big = await receiver(pki.leaf, answer(500, 'x'.repeat(64 * 1024)));
    const result = await transport.post(big.url, HEADERS, '{}');
    expect(result.snippet).toHaveLength(1024);
    expect(result.error).toBe(`HTTP 500: ${'x'.repeat(1024)}`);
  });

  it('does not follow a redirect, even to a private address', async () => {
    const inner = await receiver(pki.leaf);
    const redirecting = await receiver(pki.leaf, answer(307, '', { location: inner.url }));
    const result = await transport.post(redirecting.url, HEADERS, '{}');
    expect(result).toMatchObject({ ok: false, status: 307 });
    expect(result.error).toBe(`HTTP 307: redirect to ${inner.url} not followed`);
    expect(inner.requests).toHaveLength(0);
  });

  it('reads Retry-After on 429 and 503', async () => {
    const busy = await receiver(pki.leaf, answer(503, 'busy', { 'retry-after': '120' }));
    expect((await transport.post(busy.url, HEADERS, '{}')).retryAfterMs).toBe(120_000);
    expect(
      parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
    ).toBe(30_000);
    expect(parseRetryAfter('soon')).toBeNull();
  });

  it('refuses loopback without WEBHOOK_ALLOW_PRIVATE_TARGETS: literal hosts and names alike', async () => {
    const target = await receiver(pki.leaf);
    const strict = createTransport({ allowPrivateTargets: false, timeoutMs: SHORT_DEADLINE_MS });
    try {
      const literal = await strict.post(target.url, HEADERS, '{}');
      expect(literal.error).toBe('refused: 127.0.0.1 is a loopback address');
      // `localhost` passes no name rule here: the connection's own lookup refuses the address.
      const named = await strict.post(target.urlWithHost('localhost'), HEADERS, '{}');
      expect(named.error).toContain('refused: localhost resolves to 127.0.0.1, a loopback address');
      expect(target.requests).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });
});

describe('signatures and secrets', () => {
  /** The receiver-side check the README shows for readers without a Standard Webhooks library. */
  function isAuthentic(secret: string, headers: Record<string, string>, rawBody: string) {
    const id = headers['webhook-id'];
    const timestamp = headers['webhook-timestamp'];
    if (!id || !timestamp || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const expected = Buffer.from(
      createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest('base64'),
    );
    return String(headers['webhook-signature'] ?? '')
      .split(' ')
      .some((entry) => {
        const [version, signature = ''] = entry.split(',');
        const given = Buffer.from(signature);
        return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
      });
  }

  it('signs per Standard Webhooks, checkable with the library or node:crypto alone', () => {
    const secret = newWebhookSecret();
    const body = buildEnvelope('webhook.ping', 'whd_test', new Date(), { site_id: 'x' });
    const headers = signedHeaders(secret, 'whd_test', body, new Date());
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(isAuthentic(secret, headers, body)).toBe(true);
    expect(isAuthentic(secret, headers, `${body} `)).toBe(false);
    expect(isAuthentic(newWebhookSecret(), headers, body)).toBe(false);
    const stale = signedHeaders(secret, 'whd_test', body, new Date(Date.now() - 10 * 60_000));
    expect(isAuthentic(secret, stale, body)).toBe(false);
  });

  it('round-trips, binds to the endpoint id, and refuses another key', () => {
    const box = createSecretBox('k'.repeat(40));
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const sealed = box.seal(secret, 'endpoint-a');
    expect(sealed).not.toContain(secret.slice(6));
    expect(box.open(sealed, 'endpoint-a')).toBe(secret);
    expect(() => box.open(sealed, 'endpoint-b')).toThrow();
    expect(() => createSecretBox('z'.repeat(40)).open(sealed, 'endpoint-a')).toThrow();
  });
});
