/** Which calls are tried again, how long they wait, and when they give up, against a scripted server. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, retryAfterMs, TouchtrailNetworkError, unwrap } from '../src/index.js';
import { type Answer, startScriptedServer } from './scripted-server.js';

const SITE = 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed';
const UNAVAILABLE: Answer = { status: 503, body: { error: 'unavailable' }, headers: { 'retry-after': '1' } };
const GOALS: Answer = { status: 200, body: { goals: [] } };
const PAYMENT = { site_id: SITE, transaction_id: 'ch_1', amount: 1200, currency: 'EUR', provider: 'stripe' };

let servers: Awaited<ReturnType<typeof startScriptedServer>>[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(...script: Answer[]) {
  const server = await startScriptedServer(script);
  servers.push(server);
  return { server, client: createClient({ baseUrl: server.endpoint, apiKey: 'tk_live_x', maxRetries: 2 }) };
}

describe('retries', () => {
  it('tries a read again after a 503, no sooner than its Retry-After', async () => {
    const { server, client } = await serve(UNAVAILABLE, GOALS);
    expect(await unwrap(client.GET('/v1/goals', { params: { query: { site_id: SITE } } }))).toEqual({
      goals: [],
    });
    expect(server.seen).toHaveLength(2);
    expect(server.gapMs()).toBeGreaterThanOrEqual(950);
  });

  it('tries a payment again with the same body, since the transaction id makes it idempotent', async () => {
    const { server, client } = await serve(UNAVAILABLE, { status: 200, body: { status: 'recorded' } });
    await client.POST('/v1/server/payments', { body: PAYMENT as never });
    expect(server.seen.map((request) => request.body)).toEqual([
      JSON.stringify(PAYMENT),
      JSON.stringify(PAYMENT),
    ]);
  });

  it('sends any other write once', async () => {
    const { server, client } = await serve(UNAVAILABLE, GOALS);
    const answer = await client.POST('/v1/goals', { body: { site_id: SITE, name: 'signup' } });
    expect(answer.response.status).toBe(503);
    expect(server.seen).toHaveLength(1);
  });

  it('gives up after maxRetries with the last answer, and at once when Retry-After asks for over a minute', async () => {
    const { server, client } = await serve({ ...UNAVAILABLE, headers: { 'retry-after': '0' } });
    expect((await client.GET('/v1/sites')).response.status).toBe(503);
    expect(server.seen).toHaveLength(3);
    const later = await serve({ ...UNAVAILABLE, headers: { 'retry-after': '120' } }, GOALS);
    expect((await later.client.GET('/v1/sites')).response.status).toBe(503);
    expect(later.server.seen).toHaveLength(1);
  });

  it('ends an attempt that hangs after timeoutMs and reports the address', async () => {
    const { server } = await serve('hang');
    const client = createClient({ baseUrl: server.endpoint, timeoutMs: 200, maxRetries: 1 });
    const error = await client.GET('/v1/sites').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(TouchtrailNetworkError);
    expect((error as Error).message).toBe(
      `Could not reach ${server.endpoint}/v1/sites: no answer within 200 ms`,
    );
    expect(server.seen).toHaveLength(2);
  });

  it('does not time out a body that is still arriving once the answer has started', async () => {
    // Headers at once, then the JSON body in two halves 400 ms apart: longer than timeoutMs.
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"sites":');
      setTimeout(() => response.end('[]}'), 400);
    });
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 200, maxRetries: 0 });
      const answer = await client.GET('/v1/sites');
      expect(answer.data).toEqual({ sites: [] });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('reads Retry-After as seconds or an HTTP date, and ignores what it cannot read', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Sun, 01 Mar 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBe(0);
    expect(retryAfterMs(null, now)).toBe(0);
  });
});
