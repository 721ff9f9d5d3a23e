/**
 * The revenue ledger's seams with payments and attribution: a payment names its conversion
 * event in `payments.event_id`, the attribution job finds the payment by that column (not by
 * the event id's form), and a payment's properties add nothing to the goal property rollups,
 * which no report reads for the product's own event names. A refund's `conversion.refunded`
 * fact commits or rolls back with the refund.
 */
import { describe, expect, it } from 'vitest';
import { recordPayment, revenueRows } from '../attribution/attribution.fixtures.js';
import { createAttributionWorker } from '../attribution/attribution.worker.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { type PaymentInput, writePayment } from '../payments/payment-write.js';
import { newTransactionId, postPayment, storedRows } from '../payments/payments.fixtures.js';
import { useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

describe('revenue ledger', () => {
  const t = useTestApp();

  let sites = 0;
  const newSite = () => insertSite(t, t.owner.accountId, { domain: `ledger-${++sites}.example.com` });
  const attribute = () => createAttributionWorker({ db: t.database.db, clock: t.clock }).runUntilIdle();

  it('stores the conversion event of a posted payment in payments.event_id', async () => {
    const site = await newSite();
    const body = {
      site_id: site.snippet_key,
      transaction_id: newTransactionId(),
      amount: 20,
      currency: 'USD',
    };
    expect((await postPayment(t, t.owner.apiKey, body)).statusCode).toBe(202);
    const { payments, events } = await storedRows(t, site.id);
    expect(events).toHaveLength(1);
    expect(payments.map((p) => p.event_id)).toEqual([events[0]?.event_id]);
    expect(payments[0]?.event_id).toBe(`pay_${payments[0]?.id}`);
  });

  it('finds the payment of a conversion by payments.event_id, whatever the event id looks like', async () => {
    const site = await newSite();
    await recordPayment(t, site, { amountMinor: 700, eventId: 'imported-order-7' });
    expect(await attribute()).toContainEqual(
      expect.objectContaining({ eventId: 'imported-order-7', outcome: 'done' }),
    );
    expect(await revenueRows(t, site.id, 'last_touch')).toEqual([
      expect.objectContaining({ source: '', gross_minor: 700, conversions: 1 }),
    ]);
  });

  it('adds no goal property rollups for payments and trials', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    for (const amount of [15, 0]) {
      const body = {
        site_id: site.snippet_key,
        transaction_id: newTransactionId(),
        amount,
        currency: 'USD',
        provider: 'stripe',
        customer_id: 'cus_1',
        visitor_id: vid,
      };
      expect((await postPayment(t, t.owner.apiKey, body)).statusCode).toBe(202);
    }
    const { events, completions } = await storedRows(t, site.id);
    expect(events.map((e) => e.name).sort()).toEqual(['payment', 'trial']);
    expect(completions).toHaveLength(2);
    const rollups = await t.database.db
      .selectFrom('daily_goal_properties')
      .selectAll()
      .where('site_id', '=', site.id)
      .execute();
    expect(rollups).toEqual([]);
  });

  it('queues no conversion.refunded for a refund whose transaction rolls back, and one when it commits', async () => {
    const site = await newSite();
    const transactionId = newTransactionId();
    const body = { site_id: site.snippet_key, transaction_id: transactionId, amount: 20, currency: 'USD' };
    expect((await postPayment(t, t.owner.apiKey, body)).statusCode).toBe(202);
    await attribute();
    const refundFacts = () =>
      t.database.db
        .selectFrom('outbox_events')
        .select('payload')
        .where('site_id', '=', site.id)
        .where('type', '=', 'conversion.refunded')
        .execute();
    const refund: PaymentInput = {
      siteId: site.id,
      provider: 'api',
      transactionId,
      kind: 'payment',
      amountMinor: 2000,
      currency: 'USD',
      settlement: null,
      renewal: false,
      customerId: null,
      visitorId: null,
      personKey: null,
      at: t.clock.now(),
      refund: { totalMajor: 5 },
    };
    const recordEvents = t.app.services.ingest.recordEvents;
    const failing = t.database.db.transaction().execute(async (trx) => {
      await writePayment(trx, refund, t.clock.now(), recordEvents);
      throw new Error('the refund’s transaction fails after the ledger wrote');
    });
    await expect(failing).rejects.toThrow('fails after the ledger wrote');
    expect(await refundFacts()).toEqual([]);
    expect((await storedRows(t, site.id)).refunds).toEqual([]);

    await t.database.db
      .transaction()
      .execute((trx) => writePayment(trx, refund, t.clock.now(), recordEvents));
    expect(await refundFacts()).toEqual([{ payload: expect.objectContaining({ refunded_cents: 500 }) }]);
  });
});
