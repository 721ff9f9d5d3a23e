/**
 * Stripe through the front door: events signed as Stripe signs them (the `stripe` package's
 * test header), posted over real HTTP to a connection's receiving URL, then read back from the
 * public revenue report. Each test makes its own site and connection; the clock is moved.
 */
import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { bearer } from '../test/app.js';
import {
  type Connection,
  connectProcessor,
  deliver,
  revenueReport,
  siteWithVisitor,
  storedPayments,
  useProcessorTestApp,
} from './integrations.fixtures.js';
import {
  charge,
  checkoutSession,
  invoice,
  invoicePayment,
  STRIPE_TEST_SECRET,
  signStripe,
  stripeEvent,
  subscription,
} from './processors/stripe.payloads.js';

type JsonObject = Record<string, unknown>;

describe('stripe webhooks over HTTP', () => {
  const t = useProcessorTestApp();
  const day = () => t.clock.now().toISOString().slice(0, 10);
  let events = 0;

  /** A new Stripe event about `object`, created now. */
  const event = (type: string, object: JsonObject) =>
    stripeEvent(type, object, { id: `evt_http_${++events}`, at: t.clock.now() });

  /** Posts `body` signed with `secret` at `signedAt` (the app's clock by default). */
  function post(
    connection: Connection,
    body: JsonObject,
    signedAt = t.clock.now(),
    secret = STRIPE_TEST_SECRET,
  ) {
    const text = JSON.stringify(body);
    return deliver(t, connection, text, signStripe(text, secret, signedAt));
  }

  async function accepted(connection: Connection, body: JsonObject) {
    const answer = await post(connection, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  }

  async function connectedSite() {
    const { site, visitorId } = await siteWithVisitor(t);
    const connection = await connectProcessor(t, site.snippet_key, 'stripe', STRIPE_TEST_SECRET);
    return { site, visitorId, connection };
  }

  const checkout = (
    paymentIntentId: string,
    amountTotal: number,
    visitorId: string | null,
    currency = 'usd',
  ) =>
    checkoutSession({
      sessionId: `cs_test_${paymentIntentId}`,
      paymentIntentId,
      amountTotal,
      currency,
      customerId: 'cus_Http',
      email: 'buyer@example.com',
      visitorId,
      createdAt: t.clock.now(),
    });

  const refunded = (paymentIntentId: string, amount: number, amountRefunded: number, paidAt: Date) =>
    charge({
      chargeId: `ch_${paymentIntentId}`,
      paymentIntentId,
      amount,
      amountRefunded,
      currency: 'usd',
      customerId: 'cus_Http',
      email: 'buyer@example.com',
      createdAt: paidAt,
    });

  it('credits a Checkout payment to the visit and nets partial, full, late and replayed refunds', async () => {
    const { site, visitorId, connection } = await connectedSite();
    const firstDay = day();
    t.clock.advance(HOUR_MS);
    const paidAt = t.clock.now();
    const paid = event('checkout.session.completed', checkout('pi_Http1', 12000, visitorId));
    expect(await accepted(connection, paid)).toEqual({ received: true, duplicate: false, payments: 1 });

    t.clock.advance(DAY_MS);
    const partial = event('charge.refunded', refunded('pi_Http1', 12000, 3000, paidAt));
    expect(await accepted(connection, partial)).toMatchObject({ duplicate: false, payments: 1 });
    const range = { from: firstDay, to: day() };
    expect((await revenueReport(t, site.snippet_key, range)).totals).toEqual({
      ...{ gross: 120, refunded: 30, net: 90, conversions: 1, trials: 0 },
    });

    // The full refund overtakes the second partial (5000) that Stripe sent before it.
    t.clock.advance(DAY_MS);
    await accepted(connection, event('charge.refunded', refunded('pi_Http1', 12000, 12000, paidAt)));
    await accepted(connection, event('charge.refunded', refunded('pi_Http1', 12000, 5000, paidAt)));
    expect(await accepted(connection, partial)).toEqual({ received: true, duplicate: true, payments: 0 });
    expect(await accepted(connection, paid)).toMatchObject({ duplicate: true });

    const report = await revenueReport(t, site.snippet_key, { from: firstDay, to: day() });
    expect(report.totals).toEqual({ gross: 120, refunded: 120, net: 0, conversions: 1, trials: 0 });
    expect(report.sources).toMatchObject([{ source: 'chatgpt', gross: 120, refunded: 120, net: 0 }]);
    expect(await storedPayments(t, site.id)).toMatchObject([
      { transaction_id: 'pi_Http1', amount_minor: 12000, refunded_minor: 12000, visitor_id: visitorId },
    ]);
  });

  it('records a refund that arrives before its payment, and the payment once', async () => {
    const { site, visitorId, connection } = await connectedSite();
    t.clock.advance(HOUR_MS);
    const paidAt = t.clock.now();
    await accepted(connection, event('charge.refunded', refunded('pi_Early', 8000, 2000, paidAt)));
    await accepted(connection, event('checkout.session.completed', checkout('pi_Early', 8000, visitorId)));
    const report = await revenueReport(t, site.snippet_key, { from: day(), to: day() });
    expect(report.totals).toEqual({ gross: 80, refunded: 20, net: 60, conversions: 1, trials: 0 });
    expect(await storedPayments(t, site.id)).toMatchObject([
      { transaction_id: 'pi_Early', amount_minor: 8000, refunded_minor: 2000 },
    ]);
  });

  it('records a trial, the first subscription invoice and a renewal', async () => {
    const { site, visitorId, connection } = await connectedSite();
    const firstDay = day();
    t.clock.advance(HOUR_MS);
    const customer = { customerId: 'cus_Sub', currency: 'usd', visitorId };
    const trial = subscription({
      ...customer,
      subscriptionId: 'sub_T',
      status: 'trialing',
      trialStart: t.clock.now(),
    });
    expect(await accepted(connection, event('customer.subscription.created', trial))).toMatchObject({
      payments: 1,
    });
    const paidInvoice = (invoiceId: string, billingReason: string) =>
      invoice({
        ...customer,
        invoiceId,
        billingReason,
        amountPaid: 2000,
        subscriptionId: 'sub_P',
        paidAt: t.clock.now(),
      });
    await accepted(connection, event('invoice.paid', paidInvoice('in_First', 'subscription_create')));
    t.clock.advance(DAY_MS);
    await accepted(connection, event('invoice.paid', paidInvoice('in_Second', 'subscription_cycle')));

    const report = await revenueReport(t, site.snippet_key, { from: firstDay, to: day() });
    expect(report.totals).toEqual({ gross: 40, refunded: 0, net: 40, conversions: 3, trials: 1 });
    expect(report.sources).toMatchObject([{ source: 'chatgpt', gross: 40, trials: 1 }]);
    const stored = await storedPayments(t, site.id);
    expect(stored.map((p) => [p.transaction_id, p.kind, p.renewal]).sort()).toEqual([
      ['in_First', 'payment', false],
      ['in_Second', 'payment', true],
      ['sub_T', 'trial', false],
    ]);

    // The basil invoice names no PaymentIntent; invoice_payment.paid does, so the refund (which
    // names only the PaymentIntent) is taken off the invoice's payment, not recorded apart.
    const paidWith = {
      invoiceId: 'in_Second',
      paymentIntentId: 'pi_Second',
      amountPaid: 2000,
      currency: 'usd',
    };
    expect(
      await accepted(
        connection,
        event('invoice_payment.paid', invoicePayment({ ...paidWith, paidAt: t.clock.now() })),
      ),
    ).toMatchObject({ payments: 0 });
    t.clock.advance(HOUR_MS);
    const refunded = charge({
      chargeId: 'ch_Second',
      paymentIntentId: 'pi_Second',
      amount: 2000,
      amountRefunded: 500,
      currency: 'usd',
      createdAt: t.clock.now(),
    });
    await accepted(connection, event('charge.refunded', refunded));
    const afterRefund = await storedPayments(t, site.id);
    expect(afterRefund.map((p) => [p.transaction_id, p.refunded_minor]).sort()).toEqual([
      ['in_First', 0],
      ['in_Second', 500],
      ['sub_T', 0],
    ]);
    const net = await revenueReport(t, site.snippet_key, { from: firstDay, to: day() });
    expect(net.totals).toEqual({ gross: 40, refunded: 5, net: 35, conversions: 3, trials: 1 });
  });

  it('stores ISK in whole krónur and JPY as sent', async () => {
    const { site, connection } = await connectedSite();
    await accepted(connection, event('checkout.session.completed', checkout('pi_Isk', 50000, null, 'isk')));
    t.clock.advance(HOUR_MS);
    await accepted(connection, event('checkout.session.completed', checkout('pi_Jpy', 500, null, 'jpy')));
    expect(await storedPayments(t, site.id)).toMatchObject([
      { transaction_id: 'pi_Isk', currency: 'ISK', amount_minor: 500 },
      { transaction_id: 'pi_Jpy', currency: 'JPY', amount_minor: 500 },
    ]);
  });

  it('refuses bad signatures and stale or future timestamps with 400, ignores other types, and 404s once disconnected', async () => {
    const { site, visitorId, connection } = await connectedSite();
    const paid = event('checkout.session.completed', checkout('pi_Refused', 9900, visitorId));
    const now = t.clock.now().getTime();
    const refusals = [
      await post(connection, paid, t.clock.now(), 'whsec_notTheConnectionsSecret'),
      await post(connection, paid, new Date(now - 301_000)),
      await post(connection, paid, new Date(now + 301_000)),
      await deliver(t, connection, JSON.stringify(paid), {}),
    ];
    expect(refusals.map((answer) => [answer.status, answer.body.error])).toEqual(
      Array(4).fill([400, 'invalid_signature']),
    );
    expect(JSON.stringify(refusals)).not.toContain(STRIPE_TEST_SECRET);
    expect(await storedPayments(t, site.id)).toEqual([]);

    const ignored = event('customer.updated', {
      id: 'cus_Http',
      object: 'customer',
      email: 'buyer@example.com',
    });
    expect(await accepted(connection, ignored)).toEqual({ received: true, duplicate: false, payments: 0 });
    // The refused event was not claimed: correctly signed, it is applied.
    expect(await accepted(connection, paid)).toMatchObject({ duplicate: false, payments: 1 });

    const removed = await t.request({
      method: 'DELETE',
      url: `/v1/sites/${site.snippet_key}/integrations/${connection.id}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(removed.statusCode, removed.body).toBe(204);
    const late = await post(
      connection,
      event('checkout.session.completed', checkout('pi_Gone', 1000, visitorId)),
    );
    expect(late).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect((await storedPayments(t, site.id)).map((p) => p.transaction_id)).toEqual(['pi_Refused']);
  });
});
