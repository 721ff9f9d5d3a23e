/**
 * Lemon Squeezy webhooks over real HTTP to the running app: bodies shaped like Lemon Squeezy's
 * documented ones, signed as it signs them (hex HMAC-SHA256 of the body in `X-Signature`), and
 * their effect read back from the revenue report and the stored payments.
 */
import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { bearer } from '../test/app.js';
import {
  type Connection,
  connectProcessor,
  deliver,
  listConnections,
  revenueReport,
  siteWithVisitor,
  storedPayments,
  useProcessorTestApp,
} from './integrations.fixtures.js';
import {
  lemonSqueezyTime,
  orderEvent,
  signLemonSqueezy,
  subscriptionEvent,
  subscriptionInvoiceEvent,
} from './processors/lemonsqueezy.payloads.js';

// Lemon Squeezy lets the shop choose the secret (6 to 40 characters).
const SECRET = 'lemon-http-test-secret-42';

describe('Lemon Squeezy connection', () => {
  const t = useProcessorTestApp();
  const day = () => t.clock.now().toISOString().slice(0, 10);
  const now = () => lemonSqueezyTime(t.clock.now());

  async function send(connection: Connection, event: object, secret = SECRET) {
    const body = JSON.stringify(event);
    return deliver(t, connection, body, signLemonSqueezy(body, secret));
  }

  it('records an order, applies a replay once, and nets partial, out-of-order and full refunds', async () => {
    const from = day();
    const { site, visitorId } = await siteWithVisitor(t);
    const connection = await connectProcessor(t, site.snippet_key, 'lemonsqueezy', SECRET);
    t.clock.advance(HOUR_MS);
    const paid = {
      id: '5001',
      total: 4900,
      currency: 'USD',
      email: 'buyer@example.com',
      customData: { touchtrail_visitor_id: visitorId },
      createdAt: now(),
    };
    const order = orderEvent(paid);
    expect(await send(connection, order)).toEqual({
      status: 200,
      body: { received: true, duplicate: false, payments: 1 },
    });
    // Lemon Squeezy retries and dashboard resends carry the same body, so the same event id.
    expect(await send(connection, order)).toEqual({
      status: 200,
      body: { received: true, duplicate: true, payments: 0 },
    });

    // Two partial refunds, the later one delivered first: the running total decides.
    t.clock.advance(HOUR_MS);
    const refund = (refundedAmount: number) =>
      orderEvent({ ...paid, eventName: 'order_refunded', refundedAmount, updatedAt: now() });
    const second = refund(3500);
    const first = refund(1500);
    expect((await send(connection, second)).status).toBe(200);
    expect((await send(connection, first)).status).toBe(200);
    const partly = await revenueReport(t, site.snippet_key, { from, to: day() });
    expect(partly.totals).toMatchObject({ gross: 49, refunded: 35, net: 14, conversions: 1 });
    expect(partly.sources).toMatchObject([{ source: 'chatgpt', gross: 49, refunded: 35, net: 14 }]);

    t.clock.advance(HOUR_MS);
    expect((await send(connection, refund(4900))).status).toBe(200);
    const full = await revenueReport(t, site.snippet_key, { from, to: day() });
    expect(full.sources).toMatchObject([
      { source: 'chatgpt', gross: 49, refunded: 49, net: 0, conversions: 1 },
    ]);
    expect(await storedPayments(t, site.id)).toEqual([
      {
        transaction_id: 'order_5001',
        provider: 'lemonsqueezy',
        kind: 'payment',
        amount_minor: 4900,
        currency: 'USD',
        refunded_minor: 4900,
        renewal: false,
        visitor_id: visitorId,
      },
    ]);
  });

  it('counts a subscription once: first order, renewals, a refund before its renewal, a trial', async () => {
    const from = day();
    const { site, visitorId } = await siteWithVisitor(t);
    const connection = await connectProcessor(t, site.snippet_key, 'lemonsqueezy', SECRET);
    const customData = { touchtrail_visitor_id: visitorId };
    t.clock.advance(HOUR_MS);

    // Starting a subscription sends its order and its initial invoice: the money once.
    const start = { total: 999, customData, createdAt: now() };
    expect((await send(connection, orderEvent({ id: '6001', ...start }))).body).toMatchObject({
      payments: 1,
    });
    const initial = subscriptionInvoiceEvent({ id: '6001', billingReason: 'initial', ...start });
    expect((await send(connection, initial)).body).toMatchObject({ payments: 0 });
    expect(
      (await send(connection, subscriptionEvent({ status: 'active', orderId: 6001 }))).body,
    ).toMatchObject({
      payments: 0,
    });

    t.clock.advance(HOUR_MS);
    const renewal = { billingReason: 'renewal' as const, total: 999, customData, createdAt: now() };
    expect((await send(connection, subscriptionInvoiceEvent({ id: '7001', ...renewal }))).status).toBe(200);
    // A renewal's refund that overtakes its payment still records both, once.
    const refunded = subscriptionInvoiceEvent({
      id: '7002',
      ...renewal,
      eventName: 'subscription_payment_refunded',
      refundedAmount: 999,
      updatedAt: now(),
    });
    expect((await send(connection, refunded)).status).toBe(200);
    expect((await send(connection, subscriptionInvoiceEvent({ id: '7002', ...renewal }))).status).toBe(200);

    // A free trial: the subscription and its $0 order are one trial.
    const trial = { customData, createdAt: now() };
    expect((await send(connection, subscriptionEvent({ id: '61', orderId: 6100, ...trial }))).status).toBe(
      200,
    );
    expect((await send(connection, orderEvent({ id: '6100', total: 0, ...trial }))).status).toBe(200);

    // Events the connection does not read are acknowledged and change nothing.
    const ignored = subscriptionEvent({ eventName: 'subscription_updated', status: 'active' });
    expect(await send(connection, ignored)).toEqual({
      status: 200,
      body: { received: true, duplicate: false, payments: 0 },
    });

    const rows = await storedPayments(t, site.id);
    const byId = rows.map((row) => [row.transaction_id, row.kind, row.renewal, row.refunded_minor]).sort();
    expect(byId).toEqual([
      ['invoice_7001', 'payment', true, 0],
      ['invoice_7002', 'payment', true, 999],
      ['order_6001', 'payment', false, 0],
      ['order_6100', 'trial', false, 0],
    ]);
    expect(rows.every((row) => row.visitor_id === visitorId)).toBe(true);
    const report = await revenueReport(t, site.snippet_key, { from, to: day() });
    expect(report.totals).toMatchObject({ gross: 29.97, refunded: 9.99, trials: 1 });
    expect(report.sources).toMatchObject([{ source: 'chatgpt', gross: 29.97, refunded: 9.99 }]);
  });

  it('refuses unsigned, forged and unreadable deliveries, applies a late replay once, and 404s once disconnected', async () => {
    const { site, visitorId } = await siteWithVisitor(t);
    const connection = await connectProcessor(t, site.snippet_key, 'lemonsqueezy', SECRET);
    const order = orderEvent({
      id: '8001',
      customData: { touchtrail_visitor_id: visitorId },
      createdAt: now(),
    });
    const body = JSON.stringify(order);

    const refusals = [
      await deliver(t, connection, body, {}),
      await deliver(t, connection, body, { 'x-signature': 'not-a-signature' }),
      await send(connection, order, 'someone-elses-secret'),
      await deliver(
        t,
        connection,
        body.replace('"total":1199', '"total":119900'),
        signLemonSqueezy(body, SECRET),
      ),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(400);
      expect(refusal.body).toMatchObject({ error: 'invalid_signature' });
      expect(JSON.stringify(refusal.body)).not.toContain(SECRET);
    }
    const broken = orderEvent({ id: '8002', createdAt: now() });
    (broken.data.attributes as Record<string, unknown>).total = '11.99';
    const unreadable = await send(connection, broken);
    expect(unreadable.status).toBe(400);
    expect(unreadable.body).toMatchObject({ error: 'invalid_payload' });
    expect(await storedPayments(t, site.id)).toEqual([]);
    const [refused] = await listConnections(t, site.snippet_key);
    expect(refused?.events_received).toBe(0);
    expect(refused?.last_error).toEqual(expect.stringMatching(/total/));

    // Lemon Squeezy signs no time, so a request captured and replayed a month later verifies;
    // its body gives it the same event id, so it is acknowledged and not applied again.
    expect((await send(connection, order)).body).toMatchObject({ duplicate: false, payments: 1 });
    t.clock.advance(30 * DAY_MS);
    expect((await send(connection, order)).body).toMatchObject({ duplicate: true, payments: 0 });
    expect(await storedPayments(t, site.id)).toHaveLength(1);

    const disconnected = await t.request({
      method: 'DELETE',
      url: `/v1/sites/${site.snippet_key}/integrations/${connection.id}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(disconnected.statusCode, disconnected.body).toBe(204);
    const afterwards = await send(connection, orderEvent({ id: '8003', createdAt: now() }));
    expect(afterwards.status).toBe(404);
    expect(afterwards.body).toMatchObject({ error: 'not_found' });
    expect(await storedPayments(t, site.id)).toHaveLength(1);
  });
});
