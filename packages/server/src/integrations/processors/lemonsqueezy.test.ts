import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PayloadError, SignatureError, type SignedDelivery } from '../processor.js';
import { lemonsqueezy } from './lemonsqueezy.js';
import {
  orderEvent,
  signLemonSqueezy,
  subscriptionEvent,
  subscriptionInvoiceEvent,
} from './lemonsqueezy.payloads.js';

// Lemon Squeezy lets the shop choose its secret: any 6 to 40 characters.
const SECRET = 'tt-lemon-secret-9f3k';
const NOW = new Date('2026-11-28T12:00:00Z');
const VISITOR = 'vis_8Hq2kLm3Np4R';

function deliveryOf(rawBody: string, headers: Record<string, string>): SignedDelivery {
  return { rawBody, header: (name) => headers[name] };
}

function signed(body: unknown, secret = SECRET): SignedDelivery {
  const rawBody = JSON.stringify(body);
  return deliveryOf(rawBody, signLemonSqueezy(rawBody, secret, NOW));
}

function read(body: unknown) {
  return lemonsqueezy.read(lemonsqueezy.verify(signed(body), SECRET, NOW));
}

function onlyPayment(body: unknown) {
  const { payments } = read(body);
  expect(payments).toHaveLength(1);
  const [payment] = payments;
  if (payment === undefined) throw new Error('expected one payment');
  return payment;
}

describe('lemonsqueezy verify', () => {
  it('accepts the body signed with the secret and returns it parsed', () => {
    const body = orderEvent({ id: '42' });
    expect(lemonsqueezy.verify(signed(body), SECRET, NOW)).toEqual(body);
  });

  it('matches a digest computed by hand and accepts it in upper case', () => {
    const rawBody = '{"meta":{"event_name":"order_created"},"data":{}}';
    const digest = createHmac('sha256', SECRET).update(rawBody).digest('hex');
    expect(signLemonSqueezy(rawBody, SECRET)['x-signature']).toBe(digest);
    const upper = deliveryOf(rawBody, { 'x-signature': digest.toUpperCase() });
    expect(lemonsqueezy.verify(upper, SECRET, NOW)).toEqual(JSON.parse(rawBody));
  });

  it('refuses a delivery without X-Signature', () => {
    const rawBody = JSON.stringify(orderEvent());
    expect(() => lemonsqueezy.verify(deliveryOf(rawBody, {}), SECRET, NOW)).toThrow(/missing X-Signature/);
    const blank = deliveryOf(rawBody, { 'x-signature': '  ' });
    expect(() => lemonsqueezy.verify(blank, SECRET, NOW)).toThrow(SignatureError);
  });

  it.each([
    ['too short', 'abc123'],
    ['not hex', 'z'.repeat(64)],
    ['a Stripe-style header', `t=1700000000,v1=${'a'.repeat(64)}`],
    ['base64 instead of hex', Buffer.alloc(32, 7).toString('base64')],
  ])('refuses a malformed signature (%s)', (_, signature) => {
    const rawBody = JSON.stringify(orderEvent());
    const delivery = deliveryOf(rawBody, { 'x-signature': signature });
    expect(() => lemonsqueezy.verify(delivery, SECRET, NOW)).toThrow(/malformed X-Signature/);
  });

  it('refuses a signature made with another secret, and never echoes secret or signature', () => {
    const delivery = signed(orderEvent(), 'another-secret-123');
    const sent = delivery.header('x-signature') ?? '';
    let error: unknown;
    try {
      lemonsqueezy.verify(delivery, SECRET, NOW);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SignatureError);
    const message = (error as Error).message;
    expect(message).toMatch(/does not match/);
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain(sent);
  });

  it('refuses a body changed after signing', () => {
    const rawBody = JSON.stringify(orderEvent({ total: 1199 }));
    const headers = signLemonSqueezy(rawBody, SECRET);
    const tampered = deliveryOf(rawBody.replace('"total":1199', '"total":119900'), headers);
    expect(() => lemonsqueezy.verify(tampered, SECRET, NOW)).toThrow(SignatureError);
  });

  it('refuses everything when the connection has no secret', () => {
    const rawBody = JSON.stringify(orderEvent());
    const delivery = deliveryOf(rawBody, signLemonSqueezy(rawBody, ''));
    expect(() => lemonsqueezy.verify(delivery, '', NOW)).toThrow(SignatureError);
  });

  it('has no timestamp to check: the same delivery verifies a year before and after', () => {
    const delivery = signed(orderEvent());
    const yearMs = 365 * 24 * 3600 * 1000;
    for (const now of [new Date(NOW.getTime() - yearMs), new Date(NOW.getTime() + yearMs)])
      expect(lemonsqueezy.verify(delivery, SECRET, now)).toEqual(orderEvent());
  });

  it('answers PayloadError for a correctly signed body that is not JSON', () => {
    const rawBody = 'order_created=1';
    const delivery = deliveryOf(rawBody, signLemonSqueezy(rawBody, SECRET));
    expect(() => lemonsqueezy.verify(delivery, SECRET, NOW)).toThrow(PayloadError);
  });
});

describe('lemonsqueezy read: payments', () => {
  it('reads order_created field by field', () => {
    const event = read(
      orderEvent({
        id: '5001',
        total: 2499,
        currency: 'eur',
        customerId: 77,
        email: 'buyer@example.com',
        customData: { touchtrail_visitor_id: VISITOR, plan: 'pro' },
        createdAt: '2026-11-20T10:00:00.000000Z',
      }),
    );
    expect(event.type).toBe('order_created');
    expect(event.payments).toEqual([
      {
        transactionId: 'order_5001',
        amount: 2499,
        currency: 'EUR',
        trial: false,
        renewal: false,
        customerId: '77',
        visitorId: VISITOR,
        email: 'buyer@example.com',
        paidAt: new Date('2026-11-20T10:00:00Z'),
        refundedTotal: null,
        refundPart: null,
        refundedAt: null,
      },
    ]);
  });

  it('counts the total the customer paid, tax included, not the subtotal', () => {
    const body = orderEvent({ total: 1199 });
    Object.assign(body.data.attributes, { subtotal: 999, tax: 200, tax_name: 'VAT', tax_rate: '20.00' });
    expect(onlyPayment(body).amount).toBe(1199);
  });

  it('tolerates a missing email, customer and custom data, and an odd visitor id', () => {
    const body = orderEvent({ email: null });
    Object.assign(body.data.attributes, { customer_id: null });
    expect(onlyPayment(body)).toMatchObject({ email: null, customerId: null, visitorId: null });
    const odd = orderEvent({ customData: { touchtrail_visitor_id: 12345 } });
    expect(onlyPayment(odd).visitorId).toBeNull();
    expect(onlyPayment(orderEvent({ customData: null })).visitorId).toBeNull();
    const notAnObject = orderEvent();
    Object.assign(notAnObject.meta, { custom_data: ['touchtrail_visitor_id'] });
    expect(onlyPayment(notAnObject).visitorId).toBeNull();
  });

  it('ignores an order that is not paid', () => {
    expect(read(orderEvent({ status: 'pending' })).payments).toEqual([]);
    expect(read(orderEvent({ status: 'failed' })).payments).toEqual([]);
  });

  it('reads a zero-decimal currency as sent: JPY 500 is 500', () => {
    expect(onlyPayment(orderEvent({ total: 500, currency: 'JPY' }))).toMatchObject({
      amount: 500,
      currency: 'JPY',
    });
  });

  it('reads a renewal invoice as a renewal under the invoice id', () => {
    const payment = onlyPayment(
      subscriptionInvoiceEvent({
        id: '9001',
        billingReason: 'renewal',
        total: 999,
        customData: { touchtrail_visitor_id: VISITOR },
        createdAt: '2026-11-21T08:00:00.000000Z',
      }),
    );
    expect(payment).toMatchObject({
      transactionId: 'invoice_9001',
      amount: 999,
      currency: 'USD',
      renewal: true,
      trial: false,
      visitorId: VISITOR,
      email: 'john@example.com',
      customerId: '1',
      paidAt: new Date('2026-11-21T08:00:00Z'),
      refundedTotal: null,
    });
  });

  it('keeps an order and an invoice with the same number apart', () => {
    const order = onlyPayment(orderEvent({ id: '300' }));
    const invoice = onlyPayment(subscriptionInvoiceEvent({ id: '300' }));
    expect(order.transactionId).not.toBe(invoice.transactionId);
  });

  it('reads a mid-period upgrade charge (billing_reason updated) as a later charge', () => {
    expect(onlyPayment(subscriptionInvoiceEvent({ billingReason: 'updated', total: 450 }))).toMatchObject({
      amount: 450,
      renewal: true,
    });
  });

  it('leaves the first invoice to its order: the first payment is order_created, not a renewal', () => {
    const order = onlyPayment(orderEvent({ id: '300', total: 999 }));
    expect(order).toMatchObject({ transactionId: 'order_300', renewal: false });
    expect(read(subscriptionInvoiceEvent({ billingReason: 'initial', total: 999 })).payments).toEqual([]);
  });

  it('ignores an unpaid invoice and a renewal that charged nothing', () => {
    expect(read(subscriptionInvoiceEvent({ status: 'pending' })).payments).toEqual([]);
    expect(read(subscriptionInvoiceEvent({ status: 'void' })).payments).toEqual([]);
    expect(read(subscriptionInvoiceEvent({ total: 0 })).payments).toEqual([]);
  });

  it('reads a trial from subscription_created under its order id, with no revenue', () => {
    const trial = onlyPayment(
      subscriptionEvent({
        id: '61',
        orderId: 300,
        status: 'on_trial',
        customerId: 8,
        email: 'trial@example.com',
        customData: { touchtrail_visitor_id: VISITOR },
        createdAt: '2026-11-22T07:00:00.000000Z',
      }),
    );
    expect(trial).toEqual({
      transactionId: 'order_300',
      amount: 0,
      currency: 'USD',
      trial: true,
      renewal: false,
      customerId: '8',
      visitorId: VISITOR,
      email: 'trial@example.com',
      paidAt: new Date('2026-11-22T07:00:00Z'),
      refundedTotal: null,
      refundPart: null,
      refundedAt: null,
    });
    // The trial's own $0 order has the same id, so the two events record one trial.
    expect(onlyPayment(orderEvent({ id: '300', total: 0 })).transactionId).toBe(trial.transactionId);
  });

  it('ignores a subscription created without a trial: its order_created carries the money', () => {
    expect(read(subscriptionEvent({ status: 'active' })).payments).toEqual([]);
  });

  it('reads test-mode events like live ones', () => {
    expect(onlyPayment(orderEvent({ testMode: true, total: 100 })).amount).toBe(100);
  });
});

describe('lemonsqueezy read: refunds', () => {
  const paid = { id: '700', total: 5000, currency: 'GBP', createdAt: '2026-11-01T09:00:00.000000Z' };

  function refund(refundedAmount: number, updatedAt: string) {
    return onlyPayment(orderEvent({ ...paid, eventName: 'order_refunded', refundedAmount, updatedAt }));
  }

  it('reads a partial order refund as the running total with the whole payment', () => {
    const partial = refund(1500, '2026-11-05T10:00:00.000000Z');
    expect(partial).toEqual({
      transactionId: 'order_700',
      amount: 5000,
      currency: 'GBP',
      trial: false,
      renewal: false,
      customerId: '1',
      visitorId: null,
      email: 'john@example.com',
      paidAt: new Date('2026-11-01T09:00:00Z'),
      refundedTotal: 1500,
      refundPart: null,
      refundedAt: new Date('2026-11-05T10:00:00Z'),
    });
  });

  it('reads a full refund as the whole total', () => {
    expect(refund(5000, '2026-11-06T10:00:00.000000Z')).toMatchObject({ refundedTotal: 5000, amount: 5000 });
  });

  it('reads two partial refunds as growing totals, in whatever order they arrive', () => {
    const second = refund(3500, '2026-11-07T10:00:00.000000Z');
    const first = refund(1500, '2026-11-05T10:00:00.000000Z');
    expect([second.refundedTotal, first.refundedTotal]).toEqual([3500, 1500]);
    expect(second.refundedAt?.toISOString()).toBe('2026-11-07T10:00:00.000Z');
    expect(first.refundedAt?.toISOString()).toBe('2026-11-05T10:00:00.000Z');
  });

  it('gives distinct event ids to the two partial refunds and the same id to a resend', () => {
    const first = orderEvent({ ...paid, eventName: 'order_refunded', refundedAmount: 1500 });
    const second = orderEvent({ ...paid, eventName: 'order_refunded', refundedAmount: 3500 });
    expect(read(first).id).not.toBe(read(second).id);
    expect(read(structuredClone(first)).id).toBe(read(first).id);
    expect(read(first).id).toMatch(/^order_refunded:700:[0-9a-f]{32}$/);
  });

  it('reads a refund from an old payload without refunded_amount as a full refund', () => {
    const body = orderEvent({ ...paid, eventName: 'order_refunded', refundedAmount: 5000 });
    delete (body.data.attributes as Record<string, unknown>).refunded_amount;
    expect(onlyPayment(body).refundedTotal).toBe(5000);
    const partial = orderEvent({ ...paid, eventName: 'order_refunded', refundedAmount: 100 });
    delete (partial.data.attributes as Record<string, unknown>).refunded_amount;
    expect(() => read(partial)).toThrow(/refunded_amount/);
  });

  it('reads a renewal refund as a renewal with its running total', () => {
    const payment = onlyPayment(
      subscriptionInvoiceEvent({
        id: '9002',
        eventName: 'subscription_payment_refunded',
        total: 999,
        refundedAmount: 400,
        updatedAt: '2026-11-23T10:00:00.000000Z',
      }),
    );
    expect(payment).toMatchObject({
      transactionId: 'invoice_9002',
      amount: 999,
      renewal: true,
      refundedTotal: 400,
    });
  });

  it('leaves the refund of an initial invoice to order_refunded, like its payment', () => {
    const body = subscriptionInvoiceEvent({
      eventName: 'subscription_payment_refunded',
      billingReason: 'initial',
      refundedAmount: 999,
    });
    expect(read(body).payments).toEqual([]);
  });
});

describe('lemonsqueezy read: other events and bad payloads', () => {
  it.each([
    'subscription_updated',
    'subscription_cancelled',
    'subscription_payment_failed',
    'subscription_payment_recovered',
    'license_key_created',
    'affiliate_activated',
  ])('acknowledges %s and records nothing', (eventName) => {
    const event = read(subscriptionInvoiceEvent({ eventName }));
    expect(event).toMatchObject({ type: eventName, payments: [] });
  });

  it('acknowledges an unknown event whatever its data looks like', () => {
    expect(read({ meta: { event_name: 'something_new' }, data: [1, 2] }).payments).toEqual([]);
  });

  it.each([
    ['no meta', { data: {} }, /meta/],
    ['no event name', { meta: {}, data: {} }, /meta\.event_name/],
    ['no data', { meta: { event_name: 'order_created' } }, /data/],
  ])('refuses a body with %s', (_, body, message) => {
    expect(() => lemonsqueezy.read(body)).toThrow(message);
    expect(() => lemonsqueezy.read(body)).toThrow(PayloadError);
  });

  it('refuses a body that is not an object', () => {
    expect(() => lemonsqueezy.read([])).toThrow(PayloadError);
    expect(() => lemonsqueezy.read(null)).toThrow(PayloadError);
  });

  it.each([
    ['total', 'a string', '11.99', /total/],
    ['total', 'negative', -5, /total/],
    ['total', 'fractional', 11.5, /total/],
    ['total', 'missing', undefined, /total/],
    ['currency', 'missing', undefined, /currency/],
    ['currency', 'not a code', 'dollars', /currency/],
    ['created_at', 'not a date', 'yesterday', /created_at/],
    ['status', 'missing', undefined, /status/],
    ['user_email', 'a number', 5, /user_email/],
    ['customer_id', 'an object', { id: 1 }, /customer_id/],
  ])('names the field when %s is %s', (field, _, value, message) => {
    const body = orderEvent();
    (body.data.attributes as Record<string, unknown>)[field] = value;
    expect(() => read(body)).toThrow(PayloadError);
    expect(() => read(body)).toThrow(message);
  });

  it('refuses an event whose object is of the wrong type', () => {
    const body = orderEvent();
    body.data.type = 'subscriptions';
    expect(() => read(body)).toThrow(/data\.type must be "orders"/);
    const invoice = subscriptionInvoiceEvent();
    delete (invoice.data.attributes as Record<string, unknown>).billing_reason;
    expect(() => read(invoice)).toThrow(/billing_reason/);
    const trial = subscriptionEvent();
    delete (trial.data.attributes as Record<string, unknown>).order_id;
    expect(() => read(trial)).toThrow(/order_id/);
  });
});
