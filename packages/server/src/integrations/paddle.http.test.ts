/**
 * Paddle Billing events, signed as Paddle signs them, posted over real HTTP to a connection's
 * receiving URL: revenue net of refunds in the public revenue report, trials and renewals,
 * replays, refusals and a disconnected connection.
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
  type AdjustmentParams,
  PADDLE_TEST_SECRET,
  paddleAdjustment,
  paddleCustomerCreated,
  paddleSubscription,
  paddleTransactionCompleted,
  signPaddle,
  type TransactionParams,
} from './processors/paddle.payloads.js';

const SECRET = PADDLE_TEST_SECRET;
const NEVER_UPDATED = '0001-01-01T00:00:00Z';

describe('Paddle events over HTTP', () => {
  const t = useProcessorTestApp();
  const now = () => t.clock.now().toISOString();
  const day = () => now().slice(0, 10);
  let events = 0;
  const nextEventId = () => `evt_01hvpaddlehttp${String(++events).padStart(11, '0')}`;

  const sent = (connection: Pick<Connection, 'receive_url'>, event: object, at = t.clock.now()) => {
    const body = JSON.stringify(event);
    return deliver(t, connection, body, signPaddle(body, SECRET, at));
  };
  const applied = (payments: number) => ({
    status: 200,
    body: { received: true, duplicate: false, payments },
  });

  const checkout = (
    p: Partial<TransactionParams> & Pick<TransactionParams, 'transactionId' | 'grandTotal'>,
  ) =>
    paddleTransactionCompleted({
      eventId: nextEventId(),
      occurredAt: now(),
      currency: 'USD',
      customerId: 'ctm_01hvpaddlehttpcustomer0001',
      visitorId: null,
      origin: 'web',
      subscriptionId: null,
      billedAt: now(),
      ...p,
    });

  const refund = (
    p: Partial<AdjustmentParams> & Pick<AdjustmentParams, 'adjustmentId' | 'transactionId' | 'amount'>,
  ) =>
    paddleAdjustment({
      eventId: nextEventId(),
      occurredAt: now(),
      eventType: 'adjustment.updated',
      action: 'refund',
      status: 'approved',
      currency: 'USD',
      customerId: 'ctm_01hvpaddlehttpcustomer0001',
      type: 'partial',
      createdAt: now(),
      updatedAt: now(),
      ...p,
    });

  it('records a checkout once, then partial refunds in any order, each once: revenue net of them', async () => {
    const { site, visitorId } = await siteWithVisitor(t);
    const from = day();
    const connection = await connectProcessor(t, site.snippet_key, 'paddle', SECRET);
    t.clock.advance(HOUR_MS);
    const payment = JSON.stringify(checkout({ transactionId: 'txn_http_1', grandTotal: 4999, visitorId }));
    const headers = signPaddle(payment, SECRET, t.clock.now());
    expect(await deliver(t, connection, payment, headers)).toEqual(applied(1));
    expect(await deliver(t, connection, payment, headers)).toEqual({
      status: 200,
      body: { received: true, duplicate: true, payments: 0 },
    });

    t.clock.advance(HOUR_MS);
    const parts = { transactionId: 'txn_http_1' };
    const pending = refund({
      ...parts,
      adjustmentId: 'adj_http_a',
      amount: 1000,
      eventType: 'adjustment.created',
      status: 'pending_approval',
      updatedAt: NEVER_UPDATED,
    });
    expect(await sent(connection, pending)).toEqual(applied(0));
    // B is approved before A; A is then seen approved twice (two events): counted once.
    expect(await sent(connection, refund({ ...parts, adjustmentId: 'adj_http_b', amount: 1500 }))).toEqual(
      applied(1),
    );
    expect(await sent(connection, refund({ ...parts, adjustmentId: 'adj_http_a', amount: 1000 }))).toEqual(
      applied(1),
    );
    expect(await sent(connection, refund({ ...parts, adjustmentId: 'adj_http_a', amount: 1000 }))).toEqual(
      applied(1),
    );

    expect(await storedPayments(t, site.id)).toEqual([
      {
        transaction_id: 'txn_http_1',
        provider: 'paddle',
        kind: 'payment',
        amount_minor: 4999,
        currency: 'USD',
        refunded_minor: 2500,
        renewal: false,
        visitor_id: visitorId,
      },
    ]);
    const report = await revenueReport(t, site.snippet_key, { from, to: day() });
    expect(report.totals).toMatchObject({ gross: 49.99, refunded: 25, net: 24.99, conversions: 1 });
    expect(report.sources).toMatchObject([{ source: 'chatgpt', gross: 49.99, refunded: 25, net: 24.99 }]);
  });

  it('records a free trial once from both subscription events, and its renewals as renewals', async () => {
    const { site, visitorId } = await siteWithVisitor(t);
    const from = day();
    const connection = await connectProcessor(t, site.snippet_key, 'paddle', SECRET);
    t.clock.advance(HOUR_MS);
    const trial = {
      eventId: nextEventId(),
      occurredAt: now(),
      eventType: 'subscription.created',
      subscriptionId: 'sub_http_1',
      status: 'trialing',
      currency: 'USD',
      customerId: 'ctm_01hvpaddlehttpcustomer0002',
      visitorId,
      startedAt: now(),
      transactionId: 'txn_http_trial_checkout',
    } as const;
    // The trial's zero checkout is no payment; the subscription events are the trial.
    expect(
      await sent(
        connection,
        checkout({ transactionId: 'txn_http_trial_checkout', grandTotal: 0, visitorId }),
      ),
    ).toEqual(applied(0));
    expect(await sent(connection, paddleSubscription(trial))).toEqual(applied(1));
    const trialing = paddleSubscription({
      ...trial,
      eventId: nextEventId(),
      eventType: 'subscription.trialing',
    });
    expect(await sent(connection, trialing)).toEqual(applied(1));

    t.clock.advance(10 * 24 * HOUR_MS);
    const renewal = checkout({
      transactionId: 'txn_http_renewal_1',
      grandTotal: 2900,
      origin: 'subscription_recurring',
      subscriptionId: 'sub_http_1',
      visitorId,
    });
    expect(await sent(connection, renewal)).toEqual(applied(1));

    const stored = await storedPayments(t, site.id);
    expect(stored).toMatchObject([
      { transaction_id: 'sub_http_1', kind: 'trial', amount_minor: 0, renewal: false, visitor_id: visitorId },
      { transaction_id: 'txn_http_renewal_1', kind: 'payment', amount_minor: 2900, renewal: true },
    ]);
    const report = await revenueReport(t, site.snippet_key, { from, to: day() });
    expect(report.totals).toMatchObject({ gross: 29, refunded: 0, net: 29, trials: 1 });
  });

  it('refuses a refund that arrives before its transaction (409, nothing stored) and applies it when sent again (JPY)', async () => {
    const { site, visitorId } = await siteWithVisitor(t);
    const from = day();
    const connection = await connectProcessor(t, site.snippet_key, 'paddle', SECRET);
    t.clock.advance(HOUR_MS);
    const paid = checkout({ transactionId: 'txn_http_yen', grandTotal: 1500, currency: 'JPY', visitorId });
    t.clock.advance(HOUR_MS);
    const full = refund({
      adjustmentId: 'adj_http_full',
      transactionId: 'txn_http_yen',
      amount: 1500,
      currency: 'JPY',
      type: 'full',
    });
    // An adjustment does not say what the whole transaction was: it waits for Paddle's retry.
    const early = await sent(connection, full);
    expect(early).toMatchObject({ status: 409, body: { error: 'conflict' } });
    expect(await storedPayments(t, site.id)).toEqual([]);
    expect(await sent(connection, paid)).toEqual(applied(1));
    expect(await sent(connection, full)).toEqual(applied(1));

    expect(await storedPayments(t, site.id)).toMatchObject([
      {
        transaction_id: 'txn_http_yen',
        kind: 'payment',
        amount_minor: 1500,
        currency: 'JPY',
        refunded_minor: 1500,
      },
    ]);
    const report = await revenueReport(t, site.snippet_key, { from, to: day() });
    expect(report.currency).toBe('JPY');
    expect(report.totals).toMatchObject({ gross: 1500, refunded: 1500, net: 0, conversions: 1 });
  });

  it('refuses forged, stale, future and unreadable deliveries with 400; ignores other events; 404 once disconnected', async () => {
    const { site, visitorId } = await siteWithVisitor(t);
    const connection = await connectProcessor(t, site.snippet_key, 'paddle', SECRET);
    const body = JSON.stringify(checkout({ transactionId: 'txn_http_refused', grandTotal: 1000, visitorId }));
    const at = (seconds: number) => new Date(t.clock.now().getTime() + seconds * 1000);

    const forged = await deliver(t, connection, body, signPaddle(body, 'pdl_ntfset_someone_else', at(0)));
    expect(forged).toMatchObject({ status: 400, body: { error: 'invalid_signature' } });
    expect(JSON.stringify(forged.body)).not.toContain(SECRET);
    expect(await deliver(t, connection, body, {})).toMatchObject({
      status: 400,
      body: { error: 'invalid_signature' },
    });
    const stale = await deliver(t, connection, body, signPaddle(body, SECRET, at(-6)));
    expect(stale).toMatchObject({ status: 400, body: { error: 'invalid_signature' } });
    const future = await deliver(t, connection, body, signPaddle(body, SECRET, at(6)));
    expect(future).toMatchObject({ status: 400, body: { error: 'invalid_signature' } });

    const unreadable = JSON.stringify({
      ...JSON.parse(body),
      data: { ...JSON.parse(body).data, details: null },
    });
    const refusedPayload = await deliver(t, connection, unreadable, signPaddle(unreadable, SECRET, at(0)));
    expect(refusedPayload).toMatchObject({ status: 400, body: { error: 'invalid_payload' } });
    expect(String(refusedPayload.body.message)).toContain('data.details');
    expect(await storedPayments(t, site.id)).toEqual([]);
    const [refusing] = await listConnections(t, site.snippet_key);
    expect(refusing).toMatchObject({ events_received: 0, last_error: expect.any(String) });
    expect(refusing?.last_error).not.toContain(SECRET);

    // Signed five seconds ago (Paddle's ts is whole seconds, so align the clock): still fresh.
    // A customer event is acknowledged and ignored.
    t.clock.advance((1000 - (t.clock.now().getTime() % 1000)) % 1000);
    const customer = paddleCustomerCreated({ eventId: nextEventId(), occurredAt: now() });
    expect(await sent(connection, customer, at(-5))).toEqual(applied(0));
    expect(await storedPayments(t, site.id)).toEqual([]);

    const removeUrl = `/v1/sites/${site.snippet_key}/integrations/${connection.id}`;
    expect(
      (await t.request({ method: 'DELETE', url: removeUrl, headers: bearer(t.owner.apiKey) })).statusCode,
    ).toBe(204);
    expect(await deliver(t, connection, body, signPaddle(body, SECRET, at(0)))).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
    expect(await storedPayments(t, site.id)).toEqual([]);
  });
});
