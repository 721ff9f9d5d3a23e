/**
 * Retries, timeouts, cancelling and the constructor's checks, against a scripted local server
 * that answers 503 with Retry-After, hangs or sends what the real server never would.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type Answer, startScriptedServer } from '../../client/test/scripted-server.js';
import { Touchtrail, TouchtrailError } from '../src/index.js';
import { caught } from './caught.js';

const API_KEY = `tk_live_${'a1'.repeat(20)}`;
const EVENT = { site_id: `ttid_${'A'.repeat(22)}`, name: 'signup' };
const ACCEPTED: Answer = { status: 202, body: { status: 'recorded', event_id: 'e1' } };
const UNAVAILABLE: Answer = { status: 503, body: { error: 'unavailable' } };

let servers: Awaited<ReturnType<typeof startScriptedServer>>[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(...script: Answer[]) {
  const server = await startScriptedServer(script);
  servers.push(server);
  return server;
}

describe('Touchtrail client: retries', () => {
  it('retries a 503 no sooner than its Retry-After in seconds', async () => {
    const server = await serve({ ...UNAVAILABLE, headers: { 'retry-after': '1' } }, ACCEPTED);
    const touchtrail = new Touchtrail({ apiKey: API_KEY, endpoint: server.endpoint, maxRetries: 1 });
    expect(await touchtrail.events.send(EVENT)).toEqual({ status: 'recorded', event_id: 'e1' });
    expect(server.seen).toHaveLength(2);
    expect(server.gapMs()).toBeGreaterThanOrEqual(950);
    expect(JSON.parse(server.seen[1]?.body ?? '').event_id).toBe(
      JSON.parse(server.seen[0]?.body ?? '').event_id,
    );
  });

  it('retries a 429 no sooner than its Retry-After as an HTTP date', async () => {
    const inTwoSeconds = new Date(Date.now() + 2000).toUTCString();
    const server = await serve(
      { status: 429, body: { error: 'rate_limited' }, headers: { 'retry-after': inTwoSeconds } },
      ACCEPTED,
    );
    const touchtrail = new Touchtrail({ apiKey: API_KEY, endpoint: server.endpoint, maxRetries: 1 });
    await touchtrail.events.send(EVENT);
    expect(server.seen).toHaveLength(2);
    // The date has whole seconds, so the wait is one to two seconds; a backoff alone is 0.5 s at most.
    expect(server.gapMs()).toBeGreaterThanOrEqual(800);
  });

  it('gives up after maxRetries with the last error, and at once when Retry-After asks for over a minute', async () => {
    const failing = await serve(UNAVAILABLE);
    const touchtrail = new Touchtrail({ apiKey: API_KEY, endpoint: failing.endpoint, maxRetries: 2 });
    const error = await caught(touchtrail.events.send(EVENT));
    expect(error).toMatchObject({ status: 503, code: 'unavailable' });
    expect(failing.seen).toHaveLength(3);

    const later = await serve({ ...UNAVAILABLE, headers: { 'retry-after': '120' } }, ACCEPTED);
    const patient = new Touchtrail({ apiKey: API_KEY, endpoint: later.endpoint });
    expect(await caught(patient.events.send(EVENT))).toMatchObject({ status: 503 });
    expect(later.seen).toHaveLength(1);
  });

  it('never retries a 4xx other than 429, nor a 429 quota_exceeded, nor a 2xx that is not JSON', async () => {
    const answers: [Answer, Partial<TouchtrailError>][] = [
      [
        { status: 400, body: { error: 'invalid JSON' } },
        { status: 400, code: 'invalid JSON' },
      ],
      [
        { status: 404, body: { error: 'not_found' } },
        { status: 404, code: 'not_found' },
      ],
      [
        { status: 429, body: { error: 'quota_exceeded' } },
        { status: 429, code: 'quota_exceeded' },
      ],
      [
        { status: 202, raw: '<html>proxy</html>' },
        { status: 202, code: 'invalid_response' },
      ],
    ];
    for (const [answer, expected] of answers) {
      const server = await serve(answer, ACCEPTED);
      const touchtrail = new Touchtrail({ apiKey: API_KEY, endpoint: server.endpoint });
      expect(await caught(touchtrail.events.send(EVENT))).toMatchObject(expected);
      expect(server.seen).toHaveLength(1);
    }
  });

  it('abandons an attempt after timeoutMs and retries it', async () => {
    const server = await serve('hang', ACCEPTED);
    const touchtrail = new Touchtrail({
      apiKey: API_KEY,
      endpoint: server.endpoint,
      timeoutMs: 200,
      maxRetries: 1,
    });
    expect(await touchtrail.events.send(EVENT)).toEqual({ status: 'recorded', event_id: 'e1' });
    expect(server.seen).toHaveLength(2);

    const hanging = await serve('hang');
    const impatient = new Touchtrail({
      apiKey: API_KEY,
      endpoint: hanging.endpoint,
      timeoutMs: 100,
      maxRetries: 1,
    });
    const error = await caught(impatient.events.send(EVENT));
    expect(error).toMatchObject({ status: undefined, code: 'timeout' });
    expect(hanging.seen).toHaveLength(2);
  });

  it('retries a network error, then reports it without a status', async () => {
    const server = await serve(ACCEPTED);
    const endpoint = server.endpoint;
    await server.close();
    servers = [];
    const touchtrail = new Touchtrail({ apiKey: API_KEY, endpoint, maxRetries: 1 });
    const started = performance.now();
    const error = await caught(
      touchtrail.payments.record({ ...EVENT, transaction_id: 'ch_1', amount: 1, currency: 'EUR' }),
    );
    expect(error).toMatchObject({ status: undefined, code: 'network_error' });
    expect(error.cause).toBeInstanceOf(Error);
    // One backoff (0.25 to 0.5 s) means the second attempt happened.
    expect(performance.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('stops at once, with no more retries, when the caller’s signal aborts', async () => {
    const waiting = await serve({ ...UNAVAILABLE, headers: { 'retry-after': '5' } }, ACCEPTED);
    const touchtrail = new Touchtrail({ apiKey: API_KEY, endpoint: waiting.endpoint });
    const started = performance.now();
    const error = await caught(touchtrail.events.send(EVENT, { signal: AbortSignal.timeout(200) }));
    expect(error).toMatchObject({ status: undefined, code: 'aborted' });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(waiting.seen).toHaveLength(1);

    const hanging = await serve('hang', ACCEPTED);
    const inFlight = new Touchtrail({ apiKey: API_KEY, endpoint: hanging.endpoint });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await caught(inFlight.events.send(EVENT, { signal: controller.signal }))).toMatchObject({
      code: 'aborted',
    });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(hanging.seen).toHaveLength(1);

    const idle = await serve(ACCEPTED);
    const never = new Touchtrail({ apiKey: API_KEY, endpoint: idle.endpoint });
    expect(await caught(never.events.send(EVENT, { signal: AbortSignal.abort() }))).toMatchObject({
      code: 'aborted',
    });
    expect(idle.seen).toHaveLength(0);
  });

  it('keeps a path prefix of the endpoint and drops its trailing slash', async () => {
    const server = await serve(ACCEPTED);
    const touchtrail = new Touchtrail({ apiKey: API_KEY, endpoint: `${server.endpoint}/touchtrail/` });
    await touchtrail.events.send(EVENT);
    expect(server.seen.map((request) => request.path)).toEqual(['/touchtrail/v1/server/events']);
  });
});

describe('Touchtrail client: options', () => {
  const endpoint = 'https://stats.example.com';

  it('refuses a missing or malformed key without repeating it', () => {
    const keys = [
      '',
      'sk_live_secretvalue123',
      'tt_bot_secretvalue123',
      'tk_live_',
      'tk_live_secret value\n',
    ];
    for (const apiKey of keys) {
      const error = (() => {
        try {
          new Touchtrail({ apiKey, endpoint });
        } catch (thrown) {
          return thrown;
        }
      })();
      expect(error).toBeInstanceOf(TouchtrailError);
      expect(error).toMatchObject({
        code: 'invalid_options',
        message: expect.stringMatching(/apiKey.*tk_live_/),
      });
      expect(String(error)).not.toContain('secret');
    }
    // @ts-expect-error: a JavaScript caller may forget the key.
    expect(() => new Touchtrail({ endpoint })).toThrow(/apiKey/);
  });

  it('refuses an endpoint that is not an http(s) address, and bad numbers', () => {
    for (const bad of ['', 'stats.example.com', 'ftp://stats.example.com', 'https://u:p@stats.example.com']) {
      expect(() => new Touchtrail({ apiKey: API_KEY, endpoint: bad })).toThrow(/endpoint/);
    }
    expect(() => new Touchtrail({ apiKey: API_KEY, endpoint, maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => new Touchtrail({ apiKey: API_KEY, endpoint, timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(
      () => new Touchtrail({ apiKey: API_KEY, endpoint: 'http://localhost:8080/', maxRetries: 0 }),
    ).not.toThrow();
  });
});
