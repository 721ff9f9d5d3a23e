/**
 * Polar: the signature under both keys Polar signs with (the Standard Webhooks key of a
 * `whsec_<base64>` secret, and the UTF-8 key of older or custom secrets), every way a delivery can
 * fail, and each event shape read field by field, refunds, trials and currencies included.
 */
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  PayloadError,
  type PaymentFacts,
  type ProcessorEvent,
  SignatureError,
  type SignedDelivery,
} from '../processor.js';
import { polar } from './polar.js';
import {
  legacyPolarSecret,
  newPolarSecret,
  type PolarEventBody,
  polarEvent,
  polarOrder,
  polarOrderPaid,
  polarOrderRefunded,
  polarSubscriptionCreated,
  signPolar,
} from './polar.payloads.js';

const NOW = new Date('2026-11-28T12:00:00Z');
const NOW_SECONDS = NOW.getTime() / 1000;

function delivery(rawBody: string, headers: Record<string, string>): SignedDelivery {
  return { rawBody, header: (name) => headers[name] };
}

function withoutHeader(headers: Record<string, string>, name: string): Record<string, string> {
  const { [name]: _, ...rest } = headers;
  return rest;
}

/** Signs, verifies and reads a body as the endpoint will. */
function receive(body: PolarEventBody, id = 'a3f1c2d4-0000-4000-8000-000000000001'): ProcessorEvent {
  const raw = JSON.stringify(body);
  const secret = newPolarSecret();
  return polar.read(polar.verify(delivery(raw, signPolar(raw, secret, NOW, { id })), secret, NOW));
}

function only(event: ProcessorEvent): PaymentFacts {
  const [facts, ...rest] = event.payments;
  if (!facts || rest.length > 0) throw new Error(`expected one payment, read ${event.payments.length}`);
  return facts;
}

describe('polar.verify', () => {
  const body = JSON.stringify(polarOrderPaid());

  it('matches the Standard Webhooks specification test vector', () => {
    const headers = {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    };
    const verified = polar.verify(
      delivery('{"test": 2432232314}', headers),
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      new Date(1614265330 * 1000),
    );
    expect(verified).toEqual({ id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', body: { test: 2432232314 } });
  });

  it('accepts a new secret signed as Polar signs it (the Standard Webhooks key)', () => {
    const secret = newPolarSecret();
    const signature = new Webhook(secret).sign('evt_1', NOW, body);
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(NOW_SECONDS),
      'webhook-signature': signature,
    };
    expect(polar.verify(delivery(body, headers), secret, NOW)).toEqual({
      id: 'evt_1',
      body: JSON.parse(body),
    });
  });

  it.each([
    ['an older whsec_ secret', legacyPolarSecret()],
    ['a custom secret', 'my own secret, set by hand'],
    ['a base64-looking custom secret', `whsec_${Buffer.from('custom').toString('base64')}`],
  ])('accepts %s signed with its UTF-8 bytes, as Polar’s SDK derives the key', (_, secret) => {
    // Polar's SDK: new Webhook(base64(secret)); the same HMAC computed here without the package.
    const sdkKey = Buffer.from(secret, 'utf8').toString('base64');
    const signature = new Webhook(sdkKey).sign('evt_2', NOW, body);
    const hmac = createHmac('sha256', secret).update(`evt_2.${NOW_SECONDS}.${body}`).digest('base64');
    expect(signature).toBe(`v1,${hmac}`);
    const headers = {
      'webhook-id': 'evt_2',
      'webhook-timestamp': String(NOW_SECONDS),
      'webhook-signature': signature,
    };
    expect(polar.verify(delivery(body, headers), secret, NOW)).toMatchObject({ id: 'evt_2' });
  });

  it('accepts any v1 entry of a multi-signature header (secret rotation)', () => {
    const secret = newPolarSecret();
    const headers = signPolar(body, secret, NOW, { id: 'evt_3' });
    const other = signPolar(body, newPolarSecret(), NOW, { id: 'evt_3' })['webhook-signature'];
    headers['webhook-signature'] = `v1a,c29tZXRoaW5n ${other} ${headers['webhook-signature']}`;
    expect(polar.verify(delivery(body, headers), secret, NOW)).toMatchObject({ id: 'evt_3' });
  });

  it.each([
    [-300, true],
    [-301, false],
    [300, true],
    [301, false],
  ])('a timestamp %i seconds from now is accepted: %s', (offset, isAccepted) => {
    const secret = newPolarSecret();
    const signedAt = new Date(NOW.getTime() + offset * 1000);
    const attempt = () => polar.verify(delivery(body, signPolar(body, secret, signedAt)), secret, NOW);
    if (isAccepted) expect(attempt()).toMatchObject({ body: JSON.parse(body) });
    else expect(attempt).toThrow(offset < 0 ? /more than 300 seconds old/ : /300 seconds in the future/);
  });

  describe('refuses', () => {
    const secret = newPolarSecret();
    const good = signPolar(body, secret, NOW, { id: 'evt_4' });
    const cases: [string, Record<string, string>, string, RegExp][] = [
      ['no webhook-id', withoutHeader(good, 'webhook-id'), body, /missing webhook-id header/],
      ['an empty webhook-id', { ...good, 'webhook-id': '' }, body, /missing webhook-id header/],
      ['no webhook-timestamp', { ...good, 'webhook-timestamp': ' ' }, body, /missing webhook-timestamp/],
      ['no webhook-signature', { ...good, 'webhook-signature': '' }, body, /missing webhook-signature/],
      [
        'a timestamp in milliseconds',
        { ...good, 'webhook-timestamp': String(NOW.getTime()) },
        body,
        /malformed webhook-timestamp/,
      ],
      [
        'an ISO timestamp',
        { ...good, 'webhook-timestamp': NOW.toISOString() },
        body,
        /malformed webhook-timestamp/,
      ],
      [
        'a signature without a version',
        { ...good, 'webhook-signature': 'c2lnbmF0dXJl' },
        body,
        /malformed webhook-signature/,
      ],
      [
        'a signature that is not base64',
        { ...good, 'webhook-signature': 'v1,zz-not-base64!' },
        body,
        /malformed webhook-signature/,
      ],
      ['only a v2 signature', { ...good, 'webhook-signature': 'v2,c2lnbmF0dXJl' }, body, /no v1 signature/],
      ['another event id', { ...good, 'webhook-id': 'evt_5' }, body, /does not match/],
      ['a tampered body', good, body.replace('"total_amount":9720', '"total_amount":1'), /does not match/],
      ['a signature of another secret', signPolar(body, newPolarSecret(), NOW), body, /does not match/],
    ];
    it.each(cases)('%s', (_, headers, rawBody, message) => {
      const attempt = () => polar.verify(delivery(rawBody, headers), secret, NOW);
      expect(attempt).toThrow(SignatureError);
      expect(attempt).toThrow(message);
      try {
        attempt();
      } catch (error) {
        const text = String((error as Error).message);
        expect(text).not.toContain(secret.slice('whsec_'.length, 20));
        expect(text).not.toContain(good['webhook-signature']?.slice(3, 20));
      }
    });

    it('an empty secret', () => {
      expect(() => polar.verify(delivery(body, good), '', NOW)).toThrow(/no signing secret/);
    });

    it('a correctly signed body that is not JSON, with PayloadError', () => {
      const text = 'order paid';
      expect(() => polar.verify(delivery(text, signPolar(text, secret, NOW)), secret, NOW)).toThrow(
        PayloadError,
      );
    });
  });
});

describe('polar.read: order.paid', () => {
  it('reads a one-off purchase field by field, with the webhook-id as the event id', () => {
    const body = polarOrderPaid(
      {
        orderId: '0b5d6e7f-1111-4222-8333-444455556666',
        customerId: '7c1e9a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b',
        email: 'Ada@Example.com',
        metadata: { touchtrail_visitor_id: 'vis_8f3a2b1c9d0e' },
        netAmount: 9000,
        taxAmount: 720,
      },
      new Date('2026-11-27T18:30:00Z'),
    );
    const event = receive(body, '1f0c2a7e-9b8d-4c6f-a5e4-d3c2b1a09f8e');
    expect(event.id).toBe('1f0c2a7e-9b8d-4c6f-a5e4-d3c2b1a09f8e');
    expect(event.type).toBe('order.paid');
    expect(only(event)).toEqual({
      transactionId: '0b5d6e7f-1111-4222-8333-444455556666',
      amount: 9720,
      currency: 'USD',
      trial: false,
      renewal: false,
      customerId: '7c1e9a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b',
      visitorId: 'vis_8f3a2b1c9d0e',
      email: 'Ada@Example.com',
      paidAt: new Date('2026-11-27T18:30:00Z'),
      refundedTotal: null,
      refundPart: null,
      refundedAt: null,
    });
  });

  it.each([
    ['purchase', false],
    ['subscription_create', false],
    ['subscription_cycle', true],
    ['subscription_update', true],
    ['subscription_meter_cycle', true],
  ] as const)('billing_reason %s is a renewal: %s', (billingReason, renewal) => {
    const body = polarOrderPaid({ billingReason: billingReason as 'purchase' });
    expect(only(receive(body))).toMatchObject({ renewal, trial: false, amount: 9720 });
  });

  it('counts what the customer was charged: a credit balance lowers the amount', () => {
    const body = polarOrderPaid({ netAmount: 9000, taxAmount: 720, appliedBalanceAmount: -2000 });
    expect(only(receive(body)).amount).toBe(7720);
  });

  it('finds the visitor in the order, then the subscription, then the customer metadata', () => {
    const visitor = (metadata: Record<string, unknown>) => only(receive(polarOrderPaid(metadata))).visitorId;
    const fromCustomer = { customerMetadata: { touchtrail_visitor_id: 'vis_customer01' } };
    const fromSubscription = {
      ...fromCustomer,
      billingReason: 'subscription_cycle' as const,
      subscriptionMetadata: { touchtrail_visitor_id: 'vis_subscription' },
    };
    expect(visitor(fromCustomer)).toBe('vis_customer01');
    expect(visitor(fromSubscription)).toBe('vis_subscription');
    expect(visitor({ ...fromSubscription, metadata: { touchtrail_visitor_id: 'vis_order0001' } })).toBe(
      'vis_order0001',
    );
    expect(visitor({ metadata: { touchtrail_visitor_id: 12345678 } })).toBeNull();
    expect(visitor({ metadata: { plan: 'pro' } })).toBeNull();
  });

  it('reads a team customer without an email, and nulls where Polar allows them', () => {
    const body = polarOrderPaid({ email: null });
    Object.assign(body.data, {
      subscription: null,
      subscription_id: null,
      metadata: null,
      extra: { any: 1 },
    });
    expect(only(receive(body))).toMatchObject({
      email: null,
      visitorId: null,
      customerId: expect.any(String),
    });
  });

  it('reads the trial order (zero, first of a subscription) as a trial keyed on the subscription', () => {
    const body = polarOrderPaid({
      billingReason: 'subscription_create',
      subscriptionId: '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a',
      subscriptionStatus: 'trialing',
      netAmount: 0,
      taxAmount: 0,
    });
    expect(only(receive(body))).toMatchObject({
      transactionId: '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a',
      amount: 0,
      trial: true,
      renewal: false,
    });
  });

  it('records nothing for a zero-amount renewal, and a free one-off purchase as zero', () => {
    expect(
      receive(polarOrderPaid({ billingReason: 'subscription_cycle', netAmount: 0, taxAmount: 0 })).payments,
    ).toEqual([]);
    expect(only(receive(polarOrderPaid({ netAmount: 0, taxAmount: 0 })))).toMatchObject({
      amount: 0,
      trial: false,
    });
  });
});

describe('polar.read: order.refunded', () => {
  const orderId = '9e8d7c6b-5a49-4382-9716-0a1b2c3d4e5f';
  const createdAt = new Date('2026-11-20T10:00:00Z');
  const refund = (refundedAmount: number, refundedTaxAmount: number, at: Date) =>
    only(
      receive(
        polarOrderRefunded(
          { orderId, createdAt, refundedAmount, refundedTaxAmount, email: 'ada@example.com' },
          at,
        ),
      ),
    );

  it('gives the whole payment with the running total, net plus tax, of a partial refund', () => {
    expect(refund(3000, 240, new Date('2026-11-22T09:30:00Z'))).toEqual({
      transactionId: orderId,
      amount: 9720,
      currency: 'USD',
      trial: false,
      renewal: false,
      customerId: '992fae2a-2a17-4b7a-8d9e-e287cf90131b',
      visitorId: null,
      email: 'ada@example.com',
      paidAt: createdAt,
      refundedTotal: 3240,
      refundPart: null,
      refundedAt: new Date('2026-11-22T09:30:00Z'),
    });
  });

  it('reads a full refund as the whole amount', () => {
    expect(refund(9000, 720, NOW)).toMatchObject({ amount: 9720, refundedTotal: 9720 });
  });

  it('reads two partial refunds as two running totals, whichever arrives first', () => {
    const second = refund(6000, 480, new Date('2026-11-24T00:00:00Z'));
    const first = refund(3000, 240, new Date('2026-11-22T00:00:00Z'));
    expect([first.refundedTotal, second.refundedTotal]).toEqual([3240, 6480]);
    expect(first.transactionId).toBe(second.transactionId);
  });

  it('refunds a renewal with its own order id and renewal flag', () => {
    const body = polarOrderRefunded({
      billingReason: 'subscription_cycle',
      refundedAmount: 9000,
      refundedTaxAmount: 720,
    });
    expect(only(receive(body))).toMatchObject({ renewal: true, refundedTotal: 9720 });
  });
});

describe('polar.read: subscription.created', () => {
  it('reads a trialing subscription as a trial keyed like its trial order', () => {
    const body = polarSubscriptionCreated(
      {
        subscriptionId: '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a',
        currency: 'eur',
        metadata: { touchtrail_visitor_id: 'vis_trial00001' },
        email: 'grace@example.com',
      },
      new Date('2026-11-25T08:00:00Z'),
    );
    expect(only(receive(body))).toEqual({
      transactionId: '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a',
      amount: 0,
      currency: 'EUR',
      trial: true,
      renewal: false,
      customerId: '992fae2a-2a17-4b7a-8d9e-e287cf90131b',
      visitorId: 'vis_trial00001',
      email: 'grace@example.com',
      paidAt: new Date('2026-11-25T08:00:00Z'),
      refundedTotal: null,
      refundPart: null,
      refundedAt: null,
    });
  });

  it.each(['active', 'incomplete'])(
    'ignores a subscription created %s (its order.paid carries the money)',
    (status) => {
      expect(receive(polarSubscriptionCreated({ subscriptionStatus: status })).payments).toEqual([]);
    },
  );
});

describe('polar.read: currencies', () => {
  it.each([
    ['jpy', 500, 'JPY', 500],
    ['krw', 12000, 'KRW', 12000],
    ['eur', 1999, 'EUR', 1999],
    ['kwd', 1500, 'KWD', 1500],
    ['clp', 500, 'CLP', 500],
    // Polar sends these with two decimals; they have no minor unit in §4.4.
    ['isk', 7000, 'ISK', 70],
    ['huf', 17550, 'HUF', 176],
    ['ugx', 370000, 'UGX', 3700],
    ['cop', 200000, 'COP', 2000],
  ])('%s %i is %s %i in the contract', (currency, cents, code, amount) => {
    expect(only(receive(polarOrderPaid({ currency, netAmount: cents, taxAmount: 0 })))).toMatchObject({
      currency: code,
      amount,
    });
  });

  it('normalises an ISK refund total the same way', () => {
    const body = polarOrderRefunded({
      currency: 'isk',
      netAmount: 7000,
      taxAmount: 1680,
      refundedAmount: 7000,
      refundedTaxAmount: 1680,
    });
    expect(only(receive(body))).toMatchObject({ amount: 87, refundedTotal: 87 });
  });
});

describe('polar.read: other events and bad payloads', () => {
  it.each([
    'order.created',
    'order.updated',
    'refund.created',
    'checkout.updated',
    'customer.created',
    'subscription.updated',
    'constructor',
    '__proto__',
  ])('acknowledges %s and records nothing', (type) => {
    const event = receive(polarEvent(type, polarOrder(), NOW));
    expect(event).toEqual({ id: expect.any(String), type, payments: [] });
  });

  const paid = () =>
    polarOrderPaid() as unknown as { type?: unknown; timestamp?: unknown; data: Record<string, unknown> };
  const broken: [string, (body: ReturnType<typeof paid>) => void, RegExp][] = [
    ['no type', (body) => delete body.type, /body\.type/],
    ['no timestamp', (body) => delete body.timestamp, /body\.timestamp/],
    [
      'a timestamp that is no date',
      (body) => {
        body.timestamp = 'yesterday';
      },
      /body\.timestamp/,
    ],
    [
      'no data',
      (body) => {
        body.data = null as unknown as Record<string, unknown>;
      },
      /data must be an object/,
    ],
    ['no total_amount', (body) => delete body.data.total_amount, /data\.total_amount/],
    [
      'a fractional amount',
      (body) => {
        body.data.total_amount = 97.2;
      },
      /data\.total_amount/,
    ],
    [
      'an amount as text',
      (body) => {
        body.data.total_amount = '9720';
      },
      /data\.total_amount/,
    ],
    ['no currency', (body) => delete body.data.currency, /data\.currency/],
    [
      'an unknown currency',
      (body) => {
        body.data.currency = 'usdollar';
      },
      /data\.currency/,
    ],
    ['no billing_reason', (body) => delete body.data.billing_reason, /data\.billing_reason/],
    ['no order id', (body) => delete body.data.id, /data\.id/],
    ['no customer', (body) => delete body.data.customer, /data\.customer/],
    [
      'a customer without id',
      (body) => {
        body.data.customer = { email: 'a@b.c' };
      },
      /data\.customer\.id/,
    ],
    [
      'an email that is not text',
      (body) => {
        body.data.customer = { id: 'c', email: 7 };
      },
      /data\.customer\.email/,
    ],
  ];
  it.each(broken)('refuses an order.paid with %s, naming the field', (_, breakIt, field) => {
    const body = paid();
    breakIt(body);
    expect(() => polar.read({ id: 'evt', body })).toThrow(PayloadError);
    expect(() => polar.read({ id: 'evt', body })).toThrow(field);
  });

  it('refuses an order.refunded without its refunded totals', () => {
    const body = polarOrderRefunded({ refundedAmount: 100 });
    delete body.data.refunded_tax_amount;
    expect(() => polar.read({ id: 'evt', body })).toThrow(/data\.refunded_tax_amount/);
  });

  it('refuses what did not come from polar.verify', () => {
    expect(() => polar.read(polarOrderPaid())).toThrow(PayloadError);
    expect(() => polar.read({ id: 'evt', body: [1, 2] })).toThrow(/JSON object/);
  });
});
