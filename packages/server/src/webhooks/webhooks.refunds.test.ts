/**
 * Payment facts at a real HTTPS receiver: a payment posted to /v1/server/payments, attributed by
 * the job, reaches `conversion.attributed` subscribers with the ids a backend matches it by; each
 * refund that takes money back reaches `conversion.refunded` subscribers (opt-in) with the part
 * taken from each source. A re-posted total sends nothing; unsubscribed endpoints get nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { arrive } from '../attribution/attribution.fixtures.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { HOUR_MS } from '../lib/clock.js';
import { newTransactionId, postPayment } from '../payments/payments.fixtures.js';
import { conversionAttributedEvent, conversionRefundedEvent } from './webhook-events.docs.js';
import type { TestReceiver } from './webhooks.fixtures.js';
import { deliveryRows, useWebhookTestApp, verifyReceived } from './webhooks.test-app.js';

type Credit = { source: string; source_kind: string; share: number; refunded_cents?: number };
type Credits = Record<string, Credit[]>;

describe('payment facts in webhooks', () => {
  const w = useWebhookTestApp();
  let receiver: TestReceiver;
  let subscriber: { id: string; secret: string };
  const site = () => ({ id: w.siteId, snippet_key: w.site.site_id, domain: w.site.domain });

  beforeAll(async () => {
    receiver = await w.startReceiver();
    subscriber = await w.api.add(`${receiver.url}?to=all`, ['conversion.attributed', 'conversion.refunded']);
  });

  /** Attributes what is due, delivers everything, and returns what the subscriber got since `from`. */
  async function deliver(from: number) {
    await w.t.app.services.attribution.runUntilIdle();
    await w.t.app.services.webhooks.runDeliveriesOnce();
    const envelopes = new Set((await deliveryRows(w.t, subscriber.id)).map((row) => row.envelope_id));
    return receiver.requests
      .slice(from)
      .filter((request) => envelopes.has(String(request.headers['webhook-id'])))
      .map((request) => verifyReceived(request, subscriber.secret))
      .filter((body) => body.type !== 'webhook.ping');
  }

  /** A buyer who came from ChatGPT, then from search an hour later. */
  async function buyer() {
    const vid = newVisitorId();
    await arrive(w.t, site(), vid, 'chatgpt');
    w.t.clock.advance(HOUR_MS);
    await arrive(w.t, site(), vid, 'search');
    return vid;
  }

  function pay(body: Record<string, unknown>) {
    return postPayment(w.t, w.owner.apiKey, { site_id: w.site.site_id, currency: 'EUR', ...body });
  }

  /** Each model's parts add up to the refund, and each is the source's share of it. */
  function expectPartsOf(credits: Credits, refundedCents: number) {
    for (const parts of Object.values(credits)) {
      const sum = parts.reduce((total, part) => total + Math.round((part.refunded_cents ?? 0) * 1e6), 0);
      expect(sum).toBe(refundedCents * 1e6);
      for (const part of parts) expect(part.refunded_cents).toBeCloseTo(part.share * refundedCents, 5);
    }
  }

  it('sends conversion.attributed with the payment’s ids, then one conversion.refunded per refund', async () => {
    const attributedOnly = await w.api.add(`${receiver.url}?to=attributed`, ['conversion.attributed']);
    const byDefault = await w.api.add(`${receiver.url}?to=default`);
    const vid = await buyer();
    const transactionId = newTransactionId();
    const payment = { transaction_id: transactionId, amount: 90, provider: 'stripe', visitor_id: vid };
    const posted = await pay({ ...payment, renewal: true });
    expect(posted.statusCode).toBe(202);
    const eventId: string = posted.json().event_id;

    const [attributed, ...more] = await deliver(0);
    expect(more).toEqual([]);
    if (!attributed) throw new Error('conversion.attributed was not delivered');
    expect(conversionAttributedEvent.parse(attributed)).toBeTruthy();
    expect(attributed.data).toMatchObject({
      site_id: w.site.site_id,
      event_id: eventId,
      event_name: 'payment',
      value_cents: 9000,
      currency: 'EUR',
      transaction_id: transactionId,
      provider: 'stripe',
      renewal: true,
      refunded_cents: 0,
    });
    expect((attributed.data.credits as Credits).last_touch).toEqual([
      { source: 'search', source_kind: 'non_ai', share: 1 },
    ]);
    // The conversion listing shows the same id.
    const listed = await w.t.request({
      method: 'GET',
      url: `/v1/conversions?site_id=${w.siteId}`,
      headers: { cookie: w.owner.cookie },
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().conversions.map((row: { event_id: string }) => row.event_id)).toContain(eventId);

    // A partial refund: 30 of 90 EUR.
    let from = receiver.requests.length;
    const partial = await pay({ ...payment, refunded_amount: 30 });
    expect(partial.json()).toEqual({ status: 'refunded', transaction_id: transactionId, event_id: eventId });
    const [first, ...extra] = await deliver(from);
    expect(extra).toEqual([]);
    expect(conversionRefundedEvent.parse(first)).toBeTruthy();
    expect(first?.type).toBe('conversion.refunded');
    expect(first?.created_at).toBe(w.t.clock.now().toISOString());
    expect(Object.keys(first?.data ?? {}).sort()).toEqual([
      'credits',
      'currency',
      'event_id',
      'provider',
      'refunded_at',
      'refunded_cents',
      'site_id',
      'transaction_id',
    ]);
    expect(first?.data).toMatchObject({
      site_id: w.site.site_id,
      event_id: eventId,
      transaction_id: transactionId,
      provider: 'stripe',
      refunded_cents: 3000,
      currency: 'EUR',
      refunded_at: w.t.clock.now().toISOString(),
    });
    const credits = first?.data.credits as Credits;
    expect(credits.first_touch).toEqual([
      { source: 'chatgpt', source_kind: 'ai', share: 1, refunded_cents: 3000 },
    ]);
    expect(credits.last_touch).toEqual([
      { source: 'search', source_kind: 'non_ai', share: 1, refunded_cents: 3000 },
    ]);
    expect(credits.linear).toEqual([
      { source: 'chatgpt', source_kind: 'ai', share: 0.5, refunded_cents: 1500 },
      { source: 'search', source_kind: 'non_ai', share: 0.5, refunded_cents: 1500 },
    ]);
    // The newer visit weighs more under time decay, and is listed first.
    expect(credits.time_decay?.map((part) => part.source)).toEqual(['search', 'chatgpt']);
    expectPartsOf(credits, 3000);

    // The rest, dated by `timestamp`: only what was not yet taken back, 60 EUR.
    w.t.clock.advance(HOUR_MS);
    const refundedAt = new Date(w.t.clock.now().getTime() - 10 * 60_000).toISOString();
    from = receiver.requests.length;
    expect((await pay({ ...payment, refunded: true, timestamp: refundedAt })).json().status).toBe('refunded');
    const [full, ...beyond] = await deliver(from);
    expect(beyond).toEqual([]);
    expect(full?.data).toMatchObject({ event_id: eventId, refunded_cents: 6000, refunded_at: refundedAt });
    expect(full?.id).not.toBe(first?.id);
    expectPartsOf(full?.data.credits as Credits, 6000);

    // The same total again takes nothing back and sends nothing.
    from = receiver.requests.length;
    expect((await pay({ ...payment, refunded_amount: 90 })).json().status).toBe('refunded');
    expect((await pay({ ...payment, refunded: true })).json().status).toBe('refunded');
    expect(await deliver(from)).toEqual([]);

    const typesOf = async (webhookId: string) =>
      (await deliveryRows(w.t, webhookId))
        .map((row) => row.event_type)
        .filter((type) => type !== 'webhook.ping');
    expect(await typesOf(attributedOnly.id)).toEqual(['conversion.attributed']);
    // The default subscription hears of the buyer's ChatGPT visit, and of no payment or refund.
    expect(await typesOf(byDefault.id)).toEqual(['ai_session.classified']);
    const refundRows = (await deliveryRows(w.t, subscriber.id)).filter(
      (row) => row.event_type === 'conversion.refunded',
    );
    expect(refundRows.map((row) => row.status)).toEqual(['succeeded', 'succeeded']);
    await w.api.remove(attributedOnly.id);
    await w.api.remove(byDefault.id);
  });

  it('sends a refund posted before attribution once its payment is attributed', async () => {
    const vid = await buyer();
    const payment = { transaction_id: newTransactionId(), amount: 1000, currency: 'JPY', visitor_id: vid };
    // The refund arrives first: it records the payment and its refund together.
    const refunded = await pay({ ...payment, refunded_amount: 400 });
    expect(refunded.json().status).toBe('refunded');
    const eventId = refunded.json().event_id;
    expect((await pay(payment)).json()).toMatchObject({ status: 'duplicate', event_id: eventId });

    const delivered = await deliver(receiver.requests.length);
    expect(delivered.map((body) => body.type).sort()).toEqual([
      'conversion.attributed',
      'conversion.refunded',
    ]);
    const attributed = delivered.find((body) => body.type === 'conversion.attributed');
    const refund = delivered.find((body) => body.type === 'conversion.refunded');
    expect(attributed?.data).toMatchObject({
      event_id: eventId,
      value_cents: 1000,
      currency: 'JPY',
      provider: 'api',
      renewal: false,
      refunded_cents: 400,
    });
    expect(refund?.data).toMatchObject({
      event_id: eventId,
      refunded_cents: 400,
      currency: 'JPY',
      provider: 'api',
    });
    expectPartsOf(refund?.data.credits as Credits, 400);
  });

  it('lists no source for a refund of an unattributed payment', async () => {
    const payment = { transaction_id: newTransactionId(), amount: 25 };
    expect((await pay(payment)).statusCode).toBe(202);
    await deliver(receiver.requests.length);
    const from = receiver.requests.length;
    await pay({ ...payment, refunded_amount: 5 });
    const [refund] = await deliver(from);
    expect(refund?.data).toMatchObject({
      refunded_cents: 500,
      credits: { first_touch: [], last_touch: [], linear: [], time_decay: [] },
    });
  });
});
