/**
 * The SDK against the real Touchtrail server (its test harness, on PGlite or PostgreSQL): a
 * retried call counts once, refunds follow §4.4, and refusals surface as `TouchtrailError`.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, mintKey, setUpOwner, type TestApp } from '../../server/src/test/app.js';
import { insertSite } from '../../server/src/test/factories.js';
import { type EventInput, SDK_VERSION, Touchtrail } from '../src/index.js';
import { caught } from './caught.js';

type Fetch = typeof fetch;
const VISITOR_ID = 'vid_0123456789abcdef';

/** A fetch that counts attempts and keeps each body, then passes the request on to the server. */
function countingFetch(loseFirstAnswer = false) {
  const bodies: Record<string, unknown>[] = [];
  const headers: unknown[] = [];
  const send: Fetch = async (url, init) => {
    bodies.push(JSON.parse(String(init?.body)));
    headers.push(init?.headers);
    const response = await fetch(url, init);
    if (loseFirstAnswer && bodies.length === 1) {
      await response.text();
      throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
    }
    return response;
  };
  return { send, bodies, headers };
}

describe('Touchtrail client (against the server)', () => {
  let t: TestApp;
  let endpoint: string;
  let apiKey: string;
  let siteId: string;
  let snippetKey: string;

  beforeAll(async () => {
    t = await createTestApp();
    const owner = await setUpOwner(t);
    apiKey = (await mintKey(t, owner.cookie, { scopes: ['ingest:write'] })).api_key;
    const site = await insertSite(t, owner.accountId);
    siteId = site.id;
    snippetKey = site.snippet_key;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    endpoint = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  const eventsWithId = (eventId: string) =>
    t.database.db
      .selectFrom('events')
      .select(['event_id', 'name'])
      .where('site_id', '=', siteId)
      .where('event_id', '=', eventId)
      .execute();

  const paymentRows = async (transactionId: string) => {
    const payments = await t.database.db
      .selectFrom('payments')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('transaction_id', '=', transactionId)
      .execute();
    if (payments.length === 0) return { payments, refunds: [] };
    const refunds = await t.database.db
      .selectFrom('refunds')
      .select('amount_minor')
      .where('site_id', '=', siteId)
      .where(
        'payment_id',
        'in',
        payments.map((p) => p.id),
      )
      .orderBy('created_at')
      .execute();
    return { payments, refunds: refunds.map((r) => r.amount_minor) };
  };

  it('records an event once when the answer to the first attempt is lost and the call retries', async () => {
    const watched = countingFetch(true);
    const touchtrail = new Touchtrail({ apiKey, endpoint, fetch: watched.send, maxRetries: 1 });
    const result = await touchtrail.events.send({
      site_id: snippetKey,
      name: 'signup',
      user_id: 'u_42',
      visitor_id: VISITOR_ID,
    });

    expect(watched.bodies).toHaveLength(2);
    const eventId = watched.bodies[0]?.event_id as string;
    expect(eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(watched.bodies[1]?.event_id).toBe(eventId);
    // The first attempt was recorded; the retry found it there.
    expect(result).toEqual({ status: 'duplicate', event_id: eventId });
    expect(await eventsWithId(eventId)).toEqual([{ event_id: eventId, name: 'signup' }]);
  });

  it('gives each call its own event id, keeps the caller’s, and sends its headers', async () => {
    const watched = countingFetch();
    const touchtrail = new Touchtrail({ apiKey, endpoint: `${endpoint}/`, fetch: watched.send });
    const first = await touchtrail.events.send({ site_id: snippetKey, name: 'trial_started' });
    const second = await touchtrail.events.send({ site_id: snippetKey, name: 'trial_started' });
    expect(first.status).toBe('recorded');
    expect(second.status).toBe('recorded');
    expect(second.event_id).not.toBe(first.event_id);

    const order = {
      site_id: snippetKey,
      name: 'order_paid',
      event_id: 'order-1001',
      value: 49,
      currency: 'USD',
    };
    expect(await touchtrail.events.send(order)).toEqual({ status: 'recorded', event_id: 'order-1001' });
    expect(await touchtrail.events.send(order)).toEqual({ status: 'duplicate', event_id: 'order-1001' });
    expect(await eventsWithId('order-1001')).toHaveLength(1);

    expect(watched.headers[0]).toEqual({
      authorization: `Bearer ${apiKey}`,
      'content-type': 'application/json',
      'user-agent': `touchtrail-node/${SDK_VERSION}`,
    });
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(SDK_VERSION).toBe(manifest.version);
  });

  it('records a payment once, and lowers it by a later partial refund (a running total)', async () => {
    const touchtrail = new Touchtrail({ apiKey, endpoint });
    const payment = {
      site_id: snippetKey,
      transaction_id: 'ch_123',
      amount: 49,
      currency: 'usd',
      visitor_id: VISITOR_ID,
      email: 'buyer@example.com',
    };
    const recorded = await touchtrail.payments.record(payment);
    expect(recorded).toEqual({
      status: 'recorded',
      transaction_id: 'ch_123',
      event_id: expect.stringMatching(/^pay_/),
    });
    // Every answer about this payment names the same payment.
    const event_id = recorded.event_id;
    expect(await touchtrail.payments.record(payment)).toEqual({
      status: 'duplicate',
      transaction_id: 'ch_123',
      event_id,
    });
    const refund = { ...payment, refunded_amount: 10 };
    expect(await touchtrail.payments.record(refund)).toEqual({
      status: 'refunded',
      transaction_id: 'ch_123',
      event_id,
    });
    // The same running total again takes nothing more back.
    expect(await touchtrail.payments.record(refund)).toEqual({
      status: 'refunded',
      transaction_id: 'ch_123',
      event_id,
    });

    const { payments, refunds } = await paymentRows('ch_123');
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ amount_minor: 4900, refunded_minor: 1000, currency: 'USD' });
    expect(refunds).toEqual([1000]);
  });

  it('sends the settlement the processor reported, which the server keeps with the payment', async () => {
    const touchtrail = new Touchtrail({ apiKey, endpoint });
    const payment = {
      site_id: snippetKey,
      transaction_id: 'ch_settled',
      amount: 100,
      currency: 'EUR',
      settlement_amount: 108.5,
      settlement_currency: 'usd',
    };
    expect(await touchtrail.payments.record(payment)).toEqual({
      status: 'recorded',
      transaction_id: 'ch_settled',
      event_id: expect.stringMatching(/^pay_/),
    });
    const { payments } = await paymentRows('ch_settled');
    expect(payments[0]).toMatchObject({
      amount_minor: 10_000,
      settlement_minor: 10_850,
      settlement_currency: 'USD',
    });
    const half = await caught(
      touchtrail.payments.record({ ...payment, transaction_id: 'ch_half', settlement_currency: undefined }),
    );
    expect(half).toMatchObject({ status: 422, code: 'validation_failed', field: 'settlement_currency' });
  });

  it('records a payment once when the answer to the first attempt is lost', async () => {
    const watched = countingFetch(true);
    const touchtrail = new Touchtrail({ apiKey, endpoint, fetch: watched.send, maxRetries: 1 });
    const result = await touchtrail.payments.record({
      site_id: snippetKey,
      transaction_id: 'ch_lost_answer',
      amount: 1200,
      currency: 'JPY',
    });
    expect(watched.bodies).toHaveLength(2);
    expect(result).toEqual({
      status: 'duplicate',
      transaction_id: 'ch_lost_answer',
      event_id: expect.stringMatching(/^pay_/),
    });
    expect((await paymentRows('ch_lost_answer')).payments).toMatchObject([{ amount_minor: 1200 }]);
  });

  it('surfaces a 422 with its code and field, without retrying', async () => {
    const watched = countingFetch();
    const touchtrail = new Touchtrail({ apiKey, endpoint, fetch: watched.send });
    const payment = await caught(
      touchtrail.payments.record({
        site_id: snippetKey,
        transaction_id: 'ch_neg',
        amount: -1,
        currency: 'USD',
      }),
    );
    expect(payment).toMatchObject({ status: 422, code: 'validation_failed', field: 'amount' });
    expect(payment.message).toMatch(/^POST \/v1\/server\/payments answered 422 validation_failed \(amount: /);
    expect(payment.body).toMatchObject({ error: 'validation_failed', issues: [{ field: 'amount' }] });
    expect(payment.requestId).toEqual(expect.any(String));

    const event = await caught(touchtrail.events.send({ site_id: snippetKey, name: 'x'.repeat(65) }));
    expect(event).toMatchObject({ status: 422, code: 'validation_failed', field: 'name' });
    const missing = await caught(touchtrail.events.send({ name: 'signup' } as EventInput));
    expect(missing).toMatchObject({ status: 422, code: 'validation_failed', field: 'site_id' });
    const unknown = await caught(
      touchtrail.events.send({ site_id: snippetKey, name: 'signup', colour: 'red' } as EventInput),
    );
    expect(unknown.message).toMatch(/ \(Unknown field: colour\)$/);
    // The server's message already starts with the field: the SDK names it once, not twice.
    for (const [error, field] of [
      [payment, 'amount'],
      [event, 'name'],
      [missing, 'site_id'],
    ] as const) {
      expect(error.message).toMatch(new RegExp(`\\(${field}: `));
      expect(error.message).not.toMatch(new RegExp(`${field}: ${field}`));
    }
    expect(watched.bodies).toHaveLength(4);
    expect((await paymentRows('ch_neg')).payments).toEqual([]);
  });

  it('surfaces a 401 for a wrong key, without retrying, and never shows the key', async () => {
    const wrongKey = `tk_live_${'W'.repeat(40)}`;
    const watched = countingFetch();
    const touchtrail = new Touchtrail({ apiKey: wrongKey, endpoint, fetch: watched.send });
    const error = await caught(touchtrail.events.send({ site_id: snippetKey, name: 'signup' }));
    expect(error).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(watched.bodies).toHaveLength(1);
    for (const text of [JSON.stringify(error), String(error), error.stack, inspect(error, { depth: 10 })]) {
      expect(text).not.toContain(wrongKey);
    }
    expect(inspect(touchtrail, { depth: 10, showHidden: true })).not.toContain(wrongKey);
  });

  it('keeps the key out of an error even when a custom fetch puts it in its own error', async () => {
    const leaky: Fetch = async (_url, init) => {
      const auth = new Headers(init?.headers).get('authorization');
      throw new Error('proxy refused the connection', { cause: new Error(`sent headers: ${auth}`) });
    };
    const touchtrail = new Touchtrail({ apiKey, endpoint, fetch: leaky, maxRetries: 0 });
    const error = await caught(
      touchtrail.payments.record({ site_id: snippetKey, transaction_id: 'ch_x', amount: 1, currency: 'USD' }),
    );
    expect(error).toMatchObject({ status: undefined, code: 'network_error' });
    const texts = [JSON.stringify(error), String(error), error.stack, inspect(error, { depth: 10 })];
    expect(texts.join('\n')).toContain('[REDACTED]');
    for (const text of texts) expect(text).not.toContain(apiKey);
  });
});
