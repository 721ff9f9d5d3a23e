/**
 * The receiving endpoint's own rules, whatever the processor (Stripe's shapes stand in for all
 * four): a 2xx only after commit, replays applied once, refusals noted on the connection, the
 * site's currency taken from the first payment, and the connection's counters.
 */
import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../lib/clock.js';
import {
  connectProcessor,
  deliver,
  listConnections,
  revenueReport,
  siteWithVisitor,
  storedPayments,
  useProcessorTestApp,
} from './integrations.fixtures.js';
import { charge, checkoutSession, signStripe, stripeEvent } from './processors/stripe.payloads.js';

const SECRET = 'whsec_receive_test_0123456789';

describe('receiving processor events', () => {
  const t = useProcessorTestApp();
  const day = () => t.clock.now().toISOString().slice(0, 10);

  const signed = (event: object, at = t.clock.now()) => {
    const body = JSON.stringify(event);
    return { body, headers: signStripe(body, SECRET, at) };
  };

  it('records a payment, applies a replay once, and takes the site currency from the first payment', async () => {
    const { site, visitorId } = await siteWithVisitor(t);
    const connection = await connectProcessor(t, site.snippet_key, 'stripe', SECRET);
    t.clock.advance(HOUR_MS);
    const session = checkoutSession({
      sessionId: 'cs_test_1',
      paymentIntentId: 'pi_1',
      amountTotal: 4900,
      currency: 'eur',
      visitorId,
      email: 'buyer@example.com',
      createdAt: t.clock.now(),
    });
    const { body, headers } = signed(
      stripeEvent('checkout.session.completed', session, { id: 'evt_1', at: t.clock.now() }),
    );
    const first = await deliver(t, connection, body, headers);
    expect(first).toEqual({ status: 200, body: { received: true, duplicate: false, payments: 1 } });
    const replay = await deliver(t, connection, body, headers);
    expect(replay).toEqual({ status: 200, body: { received: true, duplicate: true, payments: 0 } });

    expect(await storedPayments(t, site.id)).toEqual([
      {
        transaction_id: 'pi_1',
        provider: 'stripe',
        kind: 'payment',
        amount_minor: 4900,
        currency: 'EUR',
        refunded_minor: 0,
        renewal: false,
        visitor_id: visitorId,
      },
    ]);
    // The payment's day; the refund an hour later may fall on the next one (near midnight UTC).
    const paidDay = day();
    const report = await revenueReport(t, site.snippet_key, { from: paidDay, to: paidDay });
    expect(report.currency).toBe('EUR');
    expect(report.sources).toMatchObject([
      { source: 'chatgpt', gross: 49, refunded: 0, net: 49, conversions: 1, trials: 0 },
    ]);
    const [listed] = await listConnections(t, site.snippet_key);
    expect(listed).toMatchObject({
      events_received: 2,
      last_event_at: t.clock.now().toISOString(),
      last_error: null,
    });

    // A refund later: net of it, on the day it happened.
    t.clock.advance(HOUR_MS);
    const refunded = charge({
      chargeId: 'ch_1',
      paymentIntentId: 'pi_1',
      amount: 4900,
      amountRefunded: 1900,
      currency: 'eur',
      visitorId,
      createdAt: t.clock.now(),
    });
    const refund = signed(stripeEvent('charge.refunded', refunded, { id: 'evt_2', at: t.clock.now() }));
    expect((await deliver(t, connection, refund.body, refund.headers)).status).toBe(200);
    const after = await revenueReport(t, site.snippet_key, { from: paidDay, to: day() });
    expect(after.totals).toMatchObject({ gross: 49, refunded: 19, net: 30, conversions: 1 });
  });

  it('refuses a bad signature with 400, stores nothing, and shows why on the connection', async () => {
    const { site, visitorId } = await siteWithVisitor(t);
    const connection = await connectProcessor(t, site.snippet_key, 'stripe', SECRET);
    const session = checkoutSession({
      sessionId: 'cs_test_2',
      paymentIntentId: 'pi_2',
      amountTotal: 1000,
      currency: 'usd',
      visitorId,
      createdAt: t.clock.now(),
    });
    const body = JSON.stringify(
      stripeEvent('checkout.session.completed', session, { id: 'evt_3', at: t.clock.now() }),
    );
    const forged = await deliver(t, connection, body, signStripe(body, 'whsec_someone_else', t.clock.now()));
    expect(forged.status).toBe(400);
    expect(forged.body).toMatchObject({ error: 'invalid_signature' });
    expect(JSON.stringify(forged.body)).not.toContain(SECRET);
    const unsigned = await deliver(t, connection, body, {});
    expect(unsigned.status).toBe(400);
    expect(await storedPayments(t, site.id)).toEqual([]);
    const [listed] = await listConnections(t, site.snippet_key);
    expect(listed?.events_received).toBe(0);
    expect(listed?.last_error).toEqual(expect.any(String));
    expect(listed?.last_error).not.toContain(SECRET);

    // An event that is signed but unreadable is 400 invalid_payload, nothing stored.
    const broken = JSON.stringify(
      stripeEvent(
        'checkout.session.completed',
        { ...session, currency: 'zzz' },
        { id: 'evt_4', at: t.clock.now() },
      ),
    );
    const unreadable = await deliver(t, connection, broken, signStripe(broken, SECRET, t.clock.now()));
    expect(unreadable.status).toBe(400);
    expect(unreadable.body).toMatchObject({ error: 'invalid_payload' });
    expect(await storedPayments(t, site.id)).toEqual([]);
  });

  it('answers 429 for a site scheduled for deletion, storing nothing', async () => {
    const { site, visitorId } = await siteWithVisitor(t);
    const connection = await connectProcessor(t, site.snippet_key, 'stripe', SECRET);
    await t.database.db
      .updateTable('sites')
      .set({ deleted_at: t.clock.now() })
      .where('id', '=', site.id)
      .execute();
    const session = checkoutSession({
      sessionId: 'cs_test_5',
      paymentIntentId: 'pi_5',
      amountTotal: 1000,
      currency: 'usd',
      visitorId,
      createdAt: t.clock.now(),
    });
    const { body, headers } = signed(
      stripeEvent('checkout.session.completed', session, { id: 'evt_5', at: t.clock.now() }),
    );
    const answer = await deliver(t, connection, body, headers);
    expect(answer.status).toBe(429);
    expect(answer.body).toMatchObject({ error: 'quota_exceeded' });
    expect(await storedPayments(t, site.id)).toEqual([]);
  });
});
