/**
 * Polar through the receiving endpoint over real HTTP: deliveries signed as Polar signs them
 * (both of its keys), read into attributed revenue net of refunds in every order of arrival, trials
 * and renewals, replays, refusals, ignored event types and a disconnected connection.
 */
import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../lib/clock.js';
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
  legacyPolarSecret,
  newPolarSecret,
  type PolarEventBody,
  type PolarOrderOptions,
  polarEvent,
  polarOrder,
  polarOrderPaid,
  polarOrderRefunded,
  polarSubscriptionCreated,
  signPolar,
} from './processors/polar.payloads.js';

describe('Polar webhooks over HTTP', () => {
  const t = useProcessorTestApp();
  const day = () => t.clock.now().toISOString().slice(0, 10);

  async function connectedSite(secret: string) {
    const { site, visitorId } = await siteWithVisitor(t);
    const connection = await connectProcessor(t, site.snippet_key, 'polar', secret);
    return { site, visitorId, connection, from: day() };
  }

  /** Signs the body as Polar does at the app's current time (or `at`) and posts it. */
  function send(
    connection: Connection,
    secret: string,
    body: PolarEventBody,
    options: { id?: string; at?: Date } = {},
  ) {
    const raw = JSON.stringify(body);
    return deliver(
      t,
      connection,
      raw,
      signPolar(raw, secret, options.at ?? t.clock.now(), { id: options.id }),
    );
  }

  const applied = (payments: number) => ({
    status: 200,
    body: { received: true, duplicate: false, payments },
  });

  it('records a paid order once, then its refunds as running totals in any order, down to zero', async () => {
    const secret = newPolarSecret();
    const { site, visitorId, connection, from } = await connectedSite(secret);
    t.clock.advance(HOUR_MS);
    const order: PolarOrderOptions = {
      orderId: '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a',
      createdAt: t.clock.now(),
      metadata: { touchtrail_visitor_id: visitorId },
      email: 'buyer@example.com',
      netAmount: 9000,
      taxAmount: 720,
    };
    const paid = JSON.stringify(polarOrderPaid(order, t.clock.now()));
    const headers = signPolar(paid, secret, t.clock.now(), { id: 'polar-evt-paid' });
    expect(await deliver(t, connection, paid, headers)).toEqual(applied(1));
    expect(await deliver(t, connection, paid, headers)).toEqual({
      status: 200,
      body: { received: true, duplicate: true, payments: 0 },
    });
    const report = await revenueReport(t, site.snippet_key, { from, to: day() });
    expect(report.sources).toMatchObject([
      { source: 'chatgpt', gross: 97.2, refunded: 0, net: 97.2, conversions: 1 },
    ]);

    // The second partial refund arrives before the first: its running total already holds both.
    t.clock.advance(HOUR_MS);
    const refund = (refundedAmount: number, refundedTaxAmount: number) =>
      polarOrderRefunded({ ...order, refundedAmount, refundedTaxAmount }, t.clock.now());
    expect(await send(connection, secret, refund(6000, 480))).toEqual(applied(1));
    expect(await send(connection, secret, refund(3000, 240))).toEqual(applied(1));
    const partly = await revenueReport(t, site.snippet_key, { from, to: day() });
    expect(partly.totals).toMatchObject({ gross: 97.2, refunded: 64.8, net: 32.4, conversions: 1 });

    expect(await send(connection, secret, refund(9000, 720))).toEqual(applied(1));
    const fully = await revenueReport(t, site.snippet_key, { from, to: day() });
    expect(fully.sources).toMatchObject([{ source: 'chatgpt', gross: 97.2, refunded: 97.2, net: 0 }]);
    expect(await storedPayments(t, site.id)).toEqual([
      {
        transaction_id: order.orderId,
        provider: 'polar',
        kind: 'payment',
        amount_minor: 9720,
        currency: 'USD',
        refunded_minor: 9720,
        renewal: false,
        visitor_id: visitorId,
      },
    ]);
  });

  it('records a refund that arrives before its order, one trial from both trial events, and renewals', async () => {
    const secret = legacyPolarSecret(); // signed with its UTF-8 bytes, as older endpoints are
    const { site, visitorId, connection, from } = await connectedSite(secret);
    t.clock.advance(HOUR_MS);
    const early: PolarOrderOptions = {
      orderId: '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d',
      createdAt: t.clock.now(),
      customerMetadata: { touchtrail_visitor_id: visitorId },
      netAmount: 2000,
      taxAmount: 0,
    };
    t.clock.advance(HOUR_MS);
    expect(
      await send(
        connection,
        secret,
        polarOrderRefunded({ ...early, refundedAmount: 500, refundedTaxAmount: 0 }, t.clock.now()),
      ),
    ).toEqual(applied(1));
    expect(await send(connection, secret, polarOrderPaid(early, early.createdAt))).toEqual(applied(1));

    const subscriptionId = '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0';
    const trial = {
      subscriptionId,
      metadata: { touchtrail_visitor_id: visitorId },
      createdAt: t.clock.now(),
    };
    expect(await send(connection, secret, polarSubscriptionCreated(trial, t.clock.now()))).toEqual(
      applied(1),
    );
    const trialOrder = polarOrderPaid(
      {
        ...trial,
        billingReason: 'subscription_create',
        subscriptionStatus: 'trialing',
        netAmount: 0,
        taxAmount: 0,
      },
      t.clock.now(),
    );
    expect(await send(connection, secret, trialOrder)).toEqual(applied(1));
    t.clock.advance(HOUR_MS);
    const renewal = polarOrderPaid(
      {
        subscriptionId,
        billingReason: 'subscription_cycle',
        netAmount: 1500,
        taxAmount: 0,
        metadata: trial.metadata,
      },
      t.clock.now(),
    );
    expect(await send(connection, secret, renewal)).toEqual(applied(1));

    const stored = await storedPayments(t, site.id);
    expect(stored).toHaveLength(3);
    expect(stored).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          transaction_id: early.orderId,
          kind: 'payment',
          amount_minor: 2000,
          refunded_minor: 500,
        }),
        expect.objectContaining({
          transaction_id: subscriptionId,
          kind: 'trial',
          amount_minor: 0,
          renewal: false,
        }),
        expect.objectContaining({
          kind: 'payment',
          amount_minor: 1500,
          renewal: true,
          visitor_id: visitorId,
        }),
      ]),
    );
    const report = await revenueReport(t, site.snippet_key, { from, to: day() });
    expect(report.totals).toMatchObject({ gross: 35, refunded: 5, net: 30, trials: 1 });
  });

  it('refuses forged and stale deliveries, ignores other event types, and forgets a disconnected connection', async () => {
    const secret = newPolarSecret();
    const { site, connection } = await connectedSite(secret);
    const order = polarOrderPaid({ netAmount: 1000, taxAmount: 0 }, t.clock.now());
    const raw = JSON.stringify(order);

    const forged = await deliver(t, connection, raw, signPolar(raw, newPolarSecret(), t.clock.now()));
    expect(forged).toMatchObject({ status: 400, body: { error: 'invalid_signature' } });
    const stale = await send(connection, secret, order, { at: new Date(t.clock.now().getTime() - 301_000) });
    expect(stale).toMatchObject({ status: 400, body: { error: 'invalid_signature' } });
    expect(String(stale.body.message)).toMatch(/more than 300 seconds old/);
    const unsigned = await deliver(t, connection, raw, {});
    expect(unsigned).toMatchObject({ status: 400, body: { error: 'invalid_signature' } });
    expect(await storedPayments(t, site.id)).toEqual([]);
    const [listed] = await listConnections(t, site.snippet_key);
    expect(listed?.events_received).toBe(0);
    expect(listed?.last_error).toMatch(/missing webhook-id header/);
    expect(JSON.stringify([forged, stale, unsigned, listed])).not.toContain(secret.slice('whsec_'.length));

    for (const type of ['order.created', 'order.updated', 'refund.created', 'customer.created']) {
      expect(await send(connection, secret, polarEvent(type, polarOrder(), t.clock.now()))).toEqual(
        applied(0),
      );
    }
    expect(await storedPayments(t, site.id)).toEqual([]);

    const removed = await t.request({
      method: 'DELETE',
      url: `/v1/sites/${site.snippet_key}/integrations/${connection.id}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(removed.statusCode).toBe(204);
    expect(await send(connection, secret, order)).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
    expect(await storedPayments(t, site.id)).toEqual([]);
  });
});
