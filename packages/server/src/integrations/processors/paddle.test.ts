import { describe, expect, it } from 'vitest';
import { PayloadError, type PaymentFacts, SignatureError, type SignedDelivery } from '../processor.js';
import { PADDLE_TOLERANCE_SECONDS, paddle } from './paddle.js';
import {
  type AdjustmentParams,
  PADDLE_TEST_SECRET,
  paddleAdjustment,
  paddleCustomerCreated,
  paddleSubscription,
  paddleTransactionCompleted,
  type SubscriptionParams,
  signPaddle,
  type TransactionParams,
} from './paddle.payloads.js';

const SENT_AT = new Date('2026-11-28T10:00:00Z');

function delivery(rawBody: string, headers: Record<string, string>): SignedDelivery {
  return { rawBody, header: (name) => headers[name] };
}

function signed(body: unknown, at = SENT_AT, secret: string | string[] = PADDLE_TEST_SECRET) {
  const rawBody = JSON.stringify(body);
  return delivery(rawBody, signPaddle(rawBody, secret, at));
}

const secondsAfter = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);

const REMOVE = Symbol('remove');

/** A copy of `body` with the field at a dotted `path` set to `value`, or removed. */
function spoiled(body: object, path: string, value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  const keys = path.split('.');
  let parent = copy;
  for (const key of keys.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  const last = keys[keys.length - 1] as string;
  if (value === REMOVE) delete parent[last];
  else parent[last] = value;
  return copy;
}

/** The message of the PayloadError reading `body` throws starts with the field's path. */
function expectFieldError(body: unknown, field: string) {
  const error = failure(() => paddle.read(body), PayloadError);
  expect(error.message.startsWith(`${field} `)).toBe(true);
}

function transaction(overrides: Partial<TransactionParams> = {}) {
  return paddleTransactionCompleted({
    eventId: 'evt_01hv8x3c4d5e6f7g8h9j0k1m2n',
    occurredAt: '2026-11-28T09:59:58.120Z',
    transactionId: 'txn_01hv8wptq8987qeep44cyrewp9',
    grandTotal: 4999,
    currency: 'USD',
    customerId: 'ctm_01hv8wt8nffez4p2t6tc1fbq3g',
    visitorId: 'v_3f9a2c71',
    origin: 'web',
    subscriptionId: null,
    billedAt: '2026-11-28T09:59:55.004Z',
    ...overrides,
  });
}

function subscription(overrides: Partial<SubscriptionParams> = {}) {
  return paddleSubscription({
    eventId: 'evt_01hv8y1a2b3c4d5e6f7g8h9j0k',
    occurredAt: '2026-11-28T09:00:02Z',
    eventType: 'subscription.created',
    subscriptionId: 'sub_01hv8y0qv8c5ssb7a4f2m7g1zx',
    status: 'trialing',
    currency: 'EUR',
    customerId: 'ctm_01hv8wt8nffez4p2t6tc1fbq3g',
    visitorId: 'v_3f9a2c71',
    startedAt: '2026-11-28T09:00:00Z',
    transactionId: 'txn_01hv8y0n0trialcheckout0000a',
    ...overrides,
  });
}

function adjustment(overrides: Partial<AdjustmentParams> = {}) {
  return paddleAdjustment({
    eventId: 'evt_01hv9a1a2b3c4d5e6f7g8h9j0k',
    occurredAt: '2026-11-29T12:00:01Z',
    eventType: 'adjustment.updated',
    adjustmentId: 'adj_01hv9a0y4pcn6t9ax0q8mzb2r7',
    transactionId: 'txn_01hv8wptq8987qeep44cyrewp9',
    action: 'refund',
    status: 'approved',
    amount: 1000,
    currency: 'USD',
    customerId: 'ctm_01hv8wt8nffez4p2t6tc1fbq3g',
    type: 'partial',
    createdAt: '2026-11-29T11:00:00Z',
    updatedAt: '2026-11-29T12:00:00Z',
    ...overrides,
  });
}

/** The one payment an event is read as. */
function onlyPayment(body: unknown): PaymentFacts {
  const { payments } = paddle.read(JSON.parse(JSON.stringify(body)));
  expect(payments).toHaveLength(1);
  return payments[0] as PaymentFacts;
}

/** The error `fn` throws, checked for its class; never leaks the secret or a signature. */
function failure(fn: () => unknown, kind: typeof SignatureError | typeof PayloadError): Error {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(kind);
  return caught as Error;
}

describe('paddle.verify', () => {
  it('returns the parsed body of a delivery signed with the secret key', () => {
    const body = transaction();
    expect(paddle.verify(signed(body), PADDLE_TEST_SECRET, SENT_AT)).toEqual(body);
  });

  it('accepts any h1 that matches while Paddle rotates the secret key', () => {
    const rotating = signed(transaction(), SENT_AT, ['pdl_ntfset_old_key_0000', PADDLE_TEST_SECRET]);
    expect(rotating.header('paddle-signature')?.match(/h1=/g)).toHaveLength(2);
    expect(paddle.verify(rotating, PADDLE_TEST_SECRET, SENT_AT)).toMatchObject({
      event_type: 'transaction.completed',
    });
  });

  it('accepts timestamps at the edges of the tolerance, and refuses one second beyond', () => {
    const tolerance = PADDLE_TOLERANCE_SECONDS;
    expect(tolerance).toBe(5);
    const body = signed(transaction());
    expect(() => paddle.verify(body, PADDLE_TEST_SECRET, secondsAfter(SENT_AT, tolerance))).not.toThrow();
    expect(() => paddle.verify(body, PADDLE_TEST_SECRET, secondsAfter(SENT_AT, -tolerance))).not.toThrow();
    const stale = failure(
      () => paddle.verify(body, PADDLE_TEST_SECRET, secondsAfter(SENT_AT, tolerance + 1)),
      SignatureError,
    );
    expect(stale.message).toMatch(/more than 5 s old/);
    const future = failure(
      () => paddle.verify(body, PADDLE_TEST_SECRET, secondsAfter(SENT_AT, -tolerance - 1)),
      SignatureError,
    );
    expect(future.message).toMatch(/more than 5 s ahead/);
  });

  it('refuses a wrong secret and a tampered body without echoing secret or signature', () => {
    const good = signed(transaction());
    const signature = good.header('paddle-signature') ?? '';
    const h1 = signature.split('h1=')[1] ?? '';
    const wrongSecret = failure(
      () => paddle.verify(good, 'pdl_ntfset_someone_else', SENT_AT),
      SignatureError,
    );
    const tampered = failure(
      () =>
        paddle.verify(
          delivery(good.rawBody.replace('4999', '9999'), { 'paddle-signature': signature }),
          PADDLE_TEST_SECRET,
          SENT_AT,
        ),
      SignatureError,
    );
    for (const error of [wrongSecret, tampered]) {
      expect(error.message).toMatch(/does not match/);
      expect(error.message).not.toContain(h1);
      expect(error.message).not.toContain(PADDLE_TEST_SECRET);
      expect(error.message).not.toContain('pdl_ntfset');
    }
  });

  it.each([
    ['missing', undefined, /missing/],
    ['empty', '  ', /missing/],
    ['not key=value', 'garbage', /malformed/],
    ['ts not a number', `ts=yesterday;h1=${'a'.repeat(64)}`, /malformed ts/],
    ['two ts', `ts=1;ts=2;h1=${'a'.repeat(64)}`, /malformed ts/],
    ['no ts', `h1=${'a'.repeat(64)}`, /no ts/],
    ['no h1', 'ts=1795860000', /no h1/],
    ['h1 not hex', `ts=1795860000;h1=zz${'a'.repeat(62)}`, /malformed h1/],
    ['h1 too short', 'ts=1795860000;h1=abc123', /malformed h1/],
  ])('refuses a Paddle-Signature header that is %s', (_case, header, message) => {
    const headers: Record<string, string> = header === undefined ? {} : { 'paddle-signature': header };
    const error = failure(
      () => paddle.verify(delivery('{}', headers), PADDLE_TEST_SECRET, SENT_AT),
      SignatureError,
    );
    expect(error.message).toMatch(message);
  });

  it('refuses everything when the connection has no secret key', () => {
    failure(() => paddle.verify(signed(transaction(), SENT_AT, ''), '', SENT_AT), SignatureError);
  });

  it('throws PayloadError for a correctly signed body that is not JSON', () => {
    const rawBody = 'event_id=evt_1&event_type=transaction.completed';
    const error = failure(
      () =>
        paddle.verify(
          delivery(rawBody, signPaddle(rawBody, PADDLE_TEST_SECRET, SENT_AT)),
          PADDLE_TEST_SECRET,
          SENT_AT,
        ),
      PayloadError,
    );
    expect(error.message).toBe('body is not JSON');
  });
});

describe('paddle.read: transactions', () => {
  it('reads a completed checkout field by field', () => {
    const event = paddle.read(transaction());
    expect(event).toMatchObject({ id: 'evt_01hv8x3c4d5e6f7g8h9j0k1m2n', type: 'transaction.completed' });
    expect(event.payments).toEqual([
      {
        transactionId: 'txn_01hv8wptq8987qeep44cyrewp9',
        amount: 4999,
        currency: 'USD',
        trial: false,
        renewal: false,
        customerId: 'ctm_01hv8wt8nffez4p2t6tc1fbq3g',
        visitorId: 'v_3f9a2c71',
        email: null,
        paidAt: new Date('2026-11-28T09:59:55.004Z'),
        refundedTotal: null,
        refundPart: null,
        refundedAt: null,
      },
    ]);
  });

  it.each([
    ['web', null, false],
    ['api', null, false],
    ['web', 'sub_01hv8y0qv8c5ssb7a4f2m7g1zx', false],
    ['subscription_recurring', 'sub_01hv8y0qv8c5ssb7a4f2m7g1zx', true],
    ['subscription_update', 'sub_01hv8y0qv8c5ssb7a4f2m7g1zx', true],
    ['subscription_charge', 'sub_01hv8y0qv8c5ssb7a4f2m7g1zx', true],
  ])('origin %s (subscription %s) is a renewal: %s', (origin, subscriptionId, renewal) => {
    expect(onlyPayment(transaction({ origin, subscriptionId })).renewal).toBe(renewal);
  });

  it('passes zero-decimal amounts through as whole units and upper-cases the currency', () => {
    expect(onlyPayment(transaction({ currency: 'JPY', grandTotal: 1500 }))).toMatchObject({
      amount: 1500,
      currency: 'JPY',
    });
    expect(onlyPayment(transaction({ currency: 'krw', grandTotal: 39000 }))).toMatchObject({
      amount: 39000,
      currency: 'KRW',
    });
  });

  it('records nothing for a zero total: a trial checkout or a payment-method change', () => {
    expect(
      paddle.read(transaction({ grandTotal: 0, subscriptionId: 'sub_01hv8y0qv8c5ssb7a4f2m7g1zx' })).payments,
    ).toEqual([]);
    expect(
      paddle.read(transaction({ grandTotal: 0, origin: 'subscription_payment_method_change' })).payments,
    ).toEqual([]);
  });

  it('reads null where the docs say nullable: no customer, no custom data, not yet billed', () => {
    const payment = onlyPayment(transaction({ customerId: null, visitorId: null, billedAt: null }));
    expect(payment).toMatchObject({
      customerId: null,
      visitorId: null,
      paidAt: new Date('2026-11-28T09:59:58.120Z'),
    });
  });

  it('ignores a visitor id that is not a non-empty string in custom_data', () => {
    for (const value of [42, '', '   ', { id: 'v_1' }]) {
      const body = spoiled(transaction(), 'data.custom_data.touchtrail_visitor_id', value);
      expect(onlyPayment(body).visitorId).toBeNull();
    }
  });

  it.each([
    ['data.details.totals.grand_total', REMOVE],
    ['data.details.totals.grand_total', 4999],
    ['data.details.totals.grand_total', '49.99'],
    ['data.details', null],
    ['data.currency_code', 'US$'],
    ['data.id', REMOVE],
    ['data.origin', REMOVE],
    ['data.customer_id', 7],
    ['data.billed_at', 'yesterday'],
    ['data', REMOVE],
    ['occurred_at', REMOVE],
    ['event_id', REMOVE],
    ['event_type', 3],
  ])('throws PayloadError naming %s when it is %s', (field, value) => {
    expectFieldError(spoiled(transaction(), field, value), field);
  });

  it('refuses a body that is not a JSON object', () => {
    for (const body of [null, [transaction()], 'transaction.completed'])
      failure(() => paddle.read(body), PayloadError);
  });
});

describe('paddle.read: trials and other events', () => {
  it('reads a trialing subscription as a free trial keyed by the subscription id', () => {
    expect(onlyPayment(subscription())).toEqual({
      transactionId: 'sub_01hv8y0qv8c5ssb7a4f2m7g1zx',
      amount: 0,
      currency: 'EUR',
      trial: true,
      renewal: false,
      customerId: 'ctm_01hv8wt8nffez4p2t6tc1fbq3g',
      visitorId: 'v_3f9a2c71',
      email: null,
      paidAt: new Date('2026-11-28T09:00:00Z'),
      refundedTotal: null,
      refundPart: null,
      refundedAt: null,
    });
  });

  it('reads subscription.trialing as the same trial, so it is recorded once', () => {
    const created = onlyPayment(subscription());
    const trialing = onlyPayment(
      subscription({ eventType: 'subscription.trialing', eventId: 'evt_01hv8y1b00000000000000000b' }),
    );
    expect(trialing).toEqual(created);
  });

  it('records nothing for a subscription created active (its transaction is the payment)', () => {
    expect(paddle.read(subscription({ status: 'active' })).payments).toEqual([]);
  });

  it('throws PayloadError when a trial has no currency', () => {
    expectFieldError(spoiled(subscription(), 'data.currency_code', REMOVE), 'data.currency_code');
  });

  it('acknowledges and ignores every other event type', () => {
    const customer = paddleCustomerCreated({
      eventId: 'evt_01hv8z00000000000000000000',
      occurredAt: '2026-11-28T09:00:00Z',
    });
    expect(paddle.read(customer)).toEqual({
      id: 'evt_01hv8z00000000000000000000',
      type: 'customer.created',
      payments: [],
    });
    expect(paddle.read({ ...subscription(), event_type: 'subscription.updated' }).payments).toEqual([]);
    expect(paddle.read({ ...transaction(), event_type: 'transaction.paid' }).payments).toEqual([]);
    expect(paddle.read({ event_id: 'evt_x', event_type: 'toString' }).payments).toEqual([]);
  });
});

describe('paddle.read: refunds', () => {
  it('reads an approved partial refund as its own part, with the payment facts Paddle gives', () => {
    expect(onlyPayment(adjustment())).toEqual({
      transactionId: 'txn_01hv8wptq8987qeep44cyrewp9',
      amount: 1000,
      currency: 'USD',
      trial: false,
      renewal: false,
      customerId: 'ctm_01hv8wt8nffez4p2t6tc1fbq3g',
      visitorId: null,
      email: null,
      paidAt: new Date('2026-11-29T11:00:00Z'),
      refundedTotal: null,
      refundPart: { id: 'adj_01hv9a0y4pcn6t9ax0q8mzb2r7', amount: 1000 },
      refundedAt: new Date('2026-11-29T12:00:00Z'),
    });
  });

  it('reads a full refund of the whole transaction', () => {
    const full = onlyPayment(adjustment({ type: 'full', amount: 4999 }));
    expect(full.refundPart).toEqual({ id: 'adj_01hv9a0y4pcn6t9ax0q8mzb2r7', amount: 4999 });
  });

  it('gives two partial refunds of one transaction their own ids', () => {
    const first = onlyPayment(adjustment({ amount: 1000 }));
    const second = onlyPayment(adjustment({ adjustmentId: 'adj_01hv9b00000000000000000002', amount: 1500 }));
    expect([first.transactionId, second.transactionId]).toEqual([
      'txn_01hv8wptq8987qeep44cyrewp9',
      'txn_01hv8wptq8987qeep44cyrewp9',
    ]);
    expect([first.refundPart, second.refundPart]).toEqual([
      { id: 'adj_01hv9a0y4pcn6t9ax0q8mzb2r7', amount: 1000 },
      { id: 'adj_01hv9b00000000000000000002', amount: 1500 },
    ]);
  });

  it('counts a refund only once approved; created and updated events of one adjustment share its id', () => {
    const pending = adjustment({
      eventType: 'adjustment.created',
      status: 'pending_approval',
      updatedAt: '0001-01-01T00:00:00Z',
    });
    expect(paddle.read(pending).payments).toEqual([]);
    const createdApproved = onlyPayment(
      adjustment({ eventType: 'adjustment.created', updatedAt: '0001-01-01T00:00:00Z' }),
    );
    const updatedApproved = onlyPayment(adjustment({ eventType: 'adjustment.updated' }));
    expect(createdApproved.refundPart).toEqual(updatedApproved.refundPart);
    // Never updated: the refund is dated when the adjustment was created.
    expect(createdApproved.refundedAt).toEqual(new Date('2026-11-29T11:00:00Z'));
  });

  it('reads a refund that arrives before its transaction on its own, whatever the order', () => {
    const refund = onlyPayment(adjustment());
    const payment = onlyPayment(transaction());
    expect(refund).toMatchObject({
      transactionId: payment.transactionId,
      currency: payment.currency,
      customerId: payment.customerId,
    });
  });

  it.each([
    ['rejected', { status: 'rejected' }],
    ['reversed', { status: 'reversed' }],
    ['a credit', { action: 'credit' }],
    ['a chargeback', { action: 'chargeback' }],
    ['zero', { amount: 0 }],
  ])('records nothing for an adjustment that is %s', (_case, overrides) => {
    expect(paddle.read(adjustment(overrides)).payments).toEqual([]);
  });

  it.each([
    ['data.transaction_id', REMOVE],
    ['data.totals', REMOVE],
    ['data.totals.total', '-100'],
    ['data.created_at', REMOVE],
    ['data.status', null],
  ])('throws PayloadError naming %s when an approved refund has it %s', (field, value) => {
    expectFieldError(spoiled(adjustment(), field, value), field);
  });
});
