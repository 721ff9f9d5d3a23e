import { describe, expect, it } from 'vitest';
import { PayloadError, SignatureError, type SignedDelivery } from '../processor.js';
import { stripe } from './stripe.js';
import {
  charge,
  checkoutSession,
  invoice,
  invoicePayment,
  paymentIntent,
  STRIPE_TEST_SECRET,
  signStripe,
  stripeEvent,
  subscription,
} from './stripe.payloads.js';

const NOW = new Date('2026-03-14T12:00:00Z');
const PAID_AT = new Date('2026-03-10T09:30:00Z');
const VISITOR = 'q7Lm2xZaR4tY9wKp';

function delivery(body: string, headers: Record<string, string>): SignedDelivery {
  return { rawBody: body, header: (name) => headers[name] };
}

function signed(body: string, at = NOW, secret = STRIPE_TEST_SECRET): SignedDelivery {
  return delivery(body, signStripe(body, secret, at));
}

const read = (type: string, object: Record<string, unknown>, at = NOW) =>
  stripe.read(stripeEvent(type, object, { id: 'evt_1', at }));

function failureOf(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

describe('stripe verify', () => {
  const body = JSON.stringify(stripeEvent('balance.available', {}, { id: 'evt_sig', at: NOW }));
  const secondsFromNow = (s: number) => new Date(NOW.getTime() + s * 1000);

  it('accepts a body signed as Stripe signs it and returns the parsed event', () => {
    expect(stripe.verify(signed(body), STRIPE_TEST_SECRET, NOW)).toMatchObject({ id: 'evt_sig' });
  });

  it('accepts the edges of the 300 s tolerance, either side', () => {
    expect(() => stripe.verify(signed(body, secondsFromNow(-300)), STRIPE_TEST_SECRET, NOW)).not.toThrow();
    expect(() => stripe.verify(signed(body, secondsFromNow(300)), STRIPE_TEST_SECRET, NOW)).not.toThrow();
  });

  it.each([
    ['stale by a second', -301, /older than the 300 s tolerance/],
    ['a second too far ahead', 301, /more than 300 s in the future/],
  ])('refuses a timestamp %s', (_, offset, message) => {
    const error = failureOf(() =>
      stripe.verify(signed(body, secondsFromNow(offset)), STRIPE_TEST_SECRET, NOW),
    );
    expect(error).toBeInstanceOf(SignatureError);
    expect(error.message).toMatch(message);
  });

  it('refuses a missing or empty header', () => {
    for (const headers of [{}, { 'stripe-signature': '' }] as Record<string, string>[]) {
      const error = failureOf(() => stripe.verify(delivery(body, headers), STRIPE_TEST_SECRET, NOW));
      expect(error).toBeInstanceOf(SignatureError);
      expect(error.message).toBe('Stripe-Signature header is missing');
    }
  });

  it.each([
    ['no timestamp', `v1=${'a'.repeat(64)}`],
    ['no v1 signature', `t=${Math.floor(NOW.getTime() / 1000)},v0=${'a'.repeat(64)}`],
    ['a timestamp that is not a number', `t=soon,v1=${'a'.repeat(64)}`],
    ['a signature that is not hex', `t=${Math.floor(NOW.getTime() / 1000)},v1=not-hex`],
    ['free text', 'garbage'],
  ])('refuses a malformed header: %s', (_, header) => {
    const error = failureOf(() =>
      stripe.verify(delivery(body, { 'stripe-signature': header }), STRIPE_TEST_SECRET, NOW),
    );
    expect(error).toBeInstanceOf(SignatureError);
    expect(error.message).toMatch(/malformed/);
  });

  it('refuses a wrong secret and a tampered body without echoing either signature or secret', () => {
    const other = signed(body, NOW, 'whsec_someoneElsesSecret000000000000');
    const tampered = delivery(body.replace('evt_sig', 'evt_sug'), signStripe(body, STRIPE_TEST_SECRET, NOW));
    for (const attempt of [other, tampered]) {
      const error = failureOf(() => stripe.verify(attempt, STRIPE_TEST_SECRET, NOW));
      expect(error).toBeInstanceOf(SignatureError);
      expect(error.message).toMatch(/does not match/);
      expect(error.message).not.toContain(STRIPE_TEST_SECRET);
      expect(error.message).not.toContain(attempt.header('stripe-signature')?.split('v1=')[1]);
    }
  });

  it('refuses to check against a secret that is not a webhook signing secret', () => {
    const apiKey = 'sk_test_51NotAWebhookSecret';
    const error = failureOf(() => stripe.verify(signed(body, NOW, apiKey), apiKey, NOW));
    expect(error).toBeInstanceOf(SignatureError);
    expect(error.message).toMatch(/not a Stripe webhook secret/);
    expect(error.message).not.toContain(apiKey);
  });

  it('accepts any of several v1 signatures, as while a secret is rolled', () => {
    const good = signStripe(body, STRIPE_TEST_SECRET, NOW)['stripe-signature'];
    const header = `${good},v1=${'0'.repeat(64)}`;
    expect(() =>
      stripe.verify(delivery(body, { 'stripe-signature': header }), STRIPE_TEST_SECRET, NOW),
    ).not.toThrow();
  });

  it('refuses a correctly signed body that is not JSON as a payload error', () => {
    const error = failureOf(() => stripe.verify(signed('not json'), STRIPE_TEST_SECRET, NOW));
    expect(error).toBeInstanceOf(PayloadError);
  });
});

describe('stripe read: checkout.session.completed', () => {
  const session = (over: Partial<Parameters<typeof checkoutSession>[0]> = {}) =>
    checkoutSession({
      sessionId: 'cs_test_a1',
      paymentIntentId: 'pi_3Checkout',
      amountTotal: 4900,
      currency: 'eur',
      customerId: 'cus_NffrFeUfNV2Hib',
      email: 'jenny.rosen@example.com',
      visitorId: VISITOR,
      createdAt: PAID_AT,
      ...over,
    });

  it('reads a paid one-off payment field by field', () => {
    expect(read('checkout.session.completed', session())).toEqual({
      id: 'evt_1',
      type: 'checkout.session.completed',
      payments: [
        {
          transactionId: 'pi_3Checkout',
          amount: 4900,
          currency: 'EUR',
          trial: false,
          renewal: false,
          customerId: 'cus_NffrFeUfNV2Hib',
          visitorId: VISITOR,
          email: 'jenny.rosen@example.com',
          paidAt: NOW,
          refundedTotal: null,
          refundPart: null,
          refundedAt: null,
        },
      ],
    });
  });

  it('finds the visitor in client_reference_id when the metadata has none', () => {
    const [facts] = read(
      'checkout.session.completed',
      session({ visitorId: null, clientReferenceId: VISITOR }),
    ).payments;
    expect(facts?.visitorId).toBe(VISITOR);
  });

  it('prefers the metadata key over client_reference_id', () => {
    const [facts] = read('checkout.session.completed', session({ clientReferenceId: 'order_42' })).payments;
    expect(facts?.visitorId).toBe(VISITOR);
  });

  it('tolerates a guest without customer, email or visitor', () => {
    const [facts] = read(
      'checkout.session.completed',
      session({ customerId: null, email: undefined, visitorId: null }),
    ).payments;
    expect(facts).toMatchObject({ customerId: null, email: null, visitorId: null });
  });

  it('reads an async payment once it succeeds, not while unpaid', () => {
    expect(read('checkout.session.completed', session({ paymentStatus: 'unpaid' })).payments).toEqual([]);
    const [facts] = read('checkout.session.async_payment_succeeded', session()).payments;
    expect(facts?.transactionId).toBe('pi_3Checkout');
  });

  it('leaves subscription and setup sessions to their invoices', () => {
    expect(read('checkout.session.completed', session({ mode: 'subscription' })).payments).toEqual([]);
    expect(read('checkout.session.completed', session({ mode: 'setup' })).payments).toEqual([]);
  });

  it('names a missing or wrong field', () => {
    const noTotal = { ...session(), amount_total: null };
    expect(() => read('checkout.session.completed', noTotal)).toThrow(
      new PayloadError('event.data.object.amount_total must be a non-negative integer'),
    );
    expect(() => read('checkout.session.completed', { ...session(), currency: 5 })).toThrow(/currency/);
    expect(() => read('checkout.session.completed', { ...session(), amount_total: -1 })).toThrow(
      /amount_total/,
    );
  });
});

describe('stripe read: subscriptions', () => {
  const base = {
    invoiceId: 'in_1First',
    amountPaid: 1500,
    currency: 'usd',
    customerId: 'cus_Sub',
    email: 'sub@example.com',
    subscriptionId: 'sub_1',
    visitorId: VISITOR,
    paidAt: PAID_AT,
  };

  it('reads the first invoice (basil shape) as a payment, not a renewal', () => {
    const [facts] = read('invoice.paid', invoice({ ...base, billingReason: 'subscription_create' })).payments;
    expect(facts).toEqual({
      transactionId: 'in_1First',
      amount: 1500,
      currency: 'USD',
      trial: false,
      renewal: false,
      customerId: 'cus_Sub',
      visitorId: VISITOR,
      email: 'sub@example.com',
      paidAt: PAID_AT,
      refundedTotal: null,
      refundPart: null,
      refundedAt: null,
    });
  });

  it('reads a later cycle as a renewal', () => {
    const [facts] = read('invoice.paid', invoice({ ...base, billingReason: 'subscription_cycle' })).payments;
    expect(facts?.renewal).toBe(true);
  });

  it('uses the PaymentIntent an older (pre-basil) invoice names, else its charge', () => {
    const legacy = { ...base, billingReason: 'subscription_cycle', shape: 'legacy' as const };
    const withIntent = read(
      'invoice.paid',
      invoice({ ...legacy, paymentIntentId: 'pi_Old', chargeId: 'ch_Old' }),
    );
    expect(withIntent.payments[0]).toMatchObject({
      transactionId: 'pi_Old',
      visitorId: VISITOR,
      renewal: true,
    });
    const chargeOnly = read('invoice.paid', invoice({ ...legacy, chargeId: 'ch_Old' }));
    expect(chargeOnly.payments[0]?.transactionId).toBe('ch_Old');
  });

  it('uses the paid PaymentIntent of an included payments list', () => {
    const object = {
      ...invoice({ ...base, billingReason: 'subscription_cycle' }),
      payments: {
        object: 'list',
        data: [
          {
            id: 'inpay_1',
            status: 'canceled',
            payment: { type: 'payment_intent', payment_intent: 'pi_Failed' },
          },
          { id: 'inpay_2', status: 'paid', payment: { type: 'payment_intent', payment_intent: 'pi_Paid' } },
        ],
      },
    };
    expect(read('invoice.paid', object).payments[0]?.transactionId).toBe('pi_Paid');
  });

  it('ignores a zero invoice and a one-off invoice', () => {
    expect(
      read('invoice.paid', invoice({ ...base, amountPaid: 0, billingReason: 'subscription_create' }))
        .payments,
    ).toEqual([]);
    expect(read('invoice.paid', invoice({ ...base, billingReason: 'manual' })).payments).toEqual([]);
  });

  it('reads a trialing subscription as a free trial', () => {
    const object = subscription({
      subscriptionId: 'sub_Trial',
      customerId: 'cus_Trial',
      currency: 'gbp',
      status: 'trialing',
      visitorId: VISITOR,
      trialStart: PAID_AT,
    });
    expect(read('customer.subscription.created', object).payments).toEqual([
      {
        transactionId: 'sub_Trial',
        amount: 0,
        currency: 'GBP',
        trial: true,
        renewal: false,
        customerId: 'cus_Trial',
        visitorId: VISITOR,
        email: null,
        paidAt: PAID_AT,
        refundedTotal: null,
        refundPart: null,
        refundedAt: null,
      },
    ]);
  });

  it('leaves a subscription without a trial to its first invoice', () => {
    const object = subscription({
      subscriptionId: 'sub_Paid',
      customerId: 'cus_Paid',
      currency: 'usd',
      status: 'active',
      trialStart: null,
    });
    expect(read('customer.subscription.created', object).payments).toEqual([]);
  });
});

describe('stripe read: charge.refunded', () => {
  const refunded = (amountRefunded: number, at = NOW) =>
    read(
      'charge.refunded',
      charge({
        chargeId: 'ch_1',
        paymentIntentId: 'pi_3Checkout',
        amount: 4900,
        amountRefunded,
        currency: 'eur',
        customerId: 'cus_NffrFeUfNV2Hib',
        email: 'jenny.rosen@example.com',
        createdAt: PAID_AT,
      }),
      at,
    ).payments;

  it('gives the whole payment with the running refunded total', () => {
    expect(refunded(1000)).toEqual([
      {
        transactionId: 'pi_3Checkout',
        amount: 4900,
        currency: 'EUR',
        trial: false,
        renewal: false,
        customerId: 'cus_NffrFeUfNV2Hib',
        visitorId: null,
        email: 'jenny.rosen@example.com',
        paidAt: PAID_AT,
        refundedTotal: 1000,
        refundPart: null,
        refundedAt: NOW,
      },
    ]);
  });

  it('carries each running total: partial, second partial and full, in any order', () => {
    const later = new Date(NOW.getTime() + 60_000);
    const arrivals = [refunded(4900, later), refunded(1000), refunded(3000)];
    expect(arrivals.map((payments) => payments[0]?.refundedTotal)).toEqual([4900, 1000, 3000]);
    expect(arrivals.map((payments) => payments[0]?.amount)).toEqual([4900, 4900, 4900]);
    expect(arrivals[0]?.[0]?.refundedAt).toEqual(later);
  });

  it('reads nothing from a charge with no money refunded', () => {
    expect(refunded(0)).toEqual([]);
  });

  it('uses the charge id when there is no PaymentIntent', () => {
    const object = charge({
      chargeId: 'ch_Legacy',
      paymentIntentId: null,
      amount: 500,
      amountRefunded: 500,
      currency: 'usd',
      createdAt: PAID_AT,
    });
    expect(read('charge.refunded', object).payments[0]).toMatchObject({
      transactionId: 'ch_Legacy',
      refundedTotal: 500,
    });
  });

  it('names a missing amount_refunded', () => {
    const object = {
      ...charge({
        chargeId: 'ch_1',
        paymentIntentId: 'pi_1',
        amount: 500,
        amountRefunded: 500,
        currency: 'usd',
        createdAt: PAID_AT,
      }),
    };
    delete object.amount_refunded;
    expect(() => read('charge.refunded', object)).toThrow(/event\.data\.object\.amount_refunded/);
  });
});

describe('stripe read: currencies', () => {
  const paid = (amountTotal: number, currency: string) =>
    read(
      'checkout.session.completed',
      checkoutSession({
        sessionId: 'cs_1',
        paymentIntentId: 'pi_1',
        amountTotal,
        currency,
        createdAt: PAID_AT,
      }),
    ).payments[0];

  it.each([
    ['a zero-decimal currency as sent', 500, 'jpy', 500, 'JPY'],
    ['KRW as sent', 12000, 'krw', 12000, 'KRW'],
    ['ISK, two-decimal in Stripe, in whole krónur', 50000, 'isk', 500, 'ISK'],
    ['HUF, two-decimal in Stripe, in whole forints', 150000, 'huf', 1500, 'HUF'],
    ['a three-decimal currency in hundredths', 5120, 'kwd', 512, 'KWD'],
    ['USD in cents', 1999, 'usd', 1999, 'USD'],
  ])('reads %s', (_, sent, currency, amount, code) => {
    expect(paid(sent, currency)).toMatchObject({ amount, currency: code });
  });

  it('refuses a currency that is not a three-letter code', () => {
    expect(() => paid(500, 'euro')).toThrow(/currency must be a three-letter currency code/);
  });
});

describe('stripe read: invoice_payment.paid', () => {
  it('names the PaymentIntent that paid an invoice as an alias of the invoice, and records nothing', () => {
    const paid = invoicePayment({
      invoiceId: 'in_1',
      paymentIntentId: 'pi_1',
      amountPaid: 2000,
      currency: 'usd',
      paidAt: PAID_AT,
    });
    expect(read('invoice_payment.paid', paid)).toEqual({
      id: 'evt_1',
      type: 'invoice_payment.paid',
      payments: [],
      aliases: [{ alias: 'pi_1', transactionId: 'in_1' }],
    });
    expect(read('invoice_payment.paid', { ...paid, status: 'open' }).aliases).toEqual([]);
  });
});

describe('stripe read: other events', () => {
  it('reads a PaymentIntent only when its metadata names the visitor', () => {
    const input = {
      paymentIntentId: 'pi_Elements',
      amount: 2500,
      currency: 'chf',
      customerId: 'cus_E',
      email: 'e@example.com',
    };
    expect(read('payment_intent.succeeded', paymentIntent(input)).payments).toEqual([]);
    const [facts] = read(
      'payment_intent.succeeded',
      paymentIntent({ ...input, visitorId: VISITOR }),
    ).payments;
    expect(facts).toMatchObject({
      transactionId: 'pi_Elements',
      amount: 2500,
      currency: 'CHF',
      visitorId: VISITOR,
    });
  });

  it('acknowledges an unknown event type and reads nothing of it', () => {
    expect(read('customer.updated', { id: 'cus_1', object: 'customer' })).toEqual({
      id: 'evt_1',
      type: 'customer.updated',
      payments: [],
    });
    expect(stripe.read({ id: 'evt_2', type: 'toString' })).toEqual({
      id: 'evt_2',
      type: 'toString',
      payments: [],
    });
  });

  it('needs an id and a type, and data.object for an event it reads', () => {
    expect(() => stripe.read([])).toThrow(PayloadError);
    expect(() => stripe.read({ type: 'invoice.paid' })).toThrow(/event\.id/);
    expect(() => stripe.read({ id: 'evt_1' })).toThrow(/event\.type/);
    expect(() => stripe.read({ id: 'evt_1', type: 'invoice.paid', created: 1, data: {} })).toThrow(
      /event\.data\.object must be an object/,
    );
  });
});
