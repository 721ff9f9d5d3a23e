/**
 * Stripe events read as payment facts (DESIGN.md §11). The payment's id is its PaymentIntent
 * (the Charge when there is none), which is what `charge.refunded` carries, so a refund finds
 * the payment a Checkout session or a PaymentIntent recorded, and an invoice's where the invoice
 * names it (see `invoicePaymentId`). Shapes follow Stripe's API reference (docs.stripe.com/api)
 * for the versions named beside each field that moved.
 */
import type { PaymentFacts } from '../processor.js';
import type { Located } from './json-fields.js';
import { amountFromStripe, currencyOf } from './stripe-amounts.js';
import {
  dateAt,
  integerAt,
  listEntriesAt,
  objectAt,
  optionalIdAt,
  optionalIntegerAt,
  optionalObjectAt,
  optionalStringAt,
  stringAt,
  visitorIdIn,
} from './stripe-fields.js';

/** What each reader gets: the event's `data.object`, and when the event was created. */
export interface StripeObject {
  object: Located;
  eventAt: Date;
}

type Money = Pick<PaymentFacts, 'amount' | 'currency'>;

function moneyOf(object: Located, amountKey: string): Money {
  const currency = currencyOf(stringAt(object, 'currency'), `${object.path}.currency`);
  return { amount: amountFromStripe(integerAt(object, amountKey), currency), currency };
}

function payment(facts: Omit<PaymentFacts, 'refundedTotal' | 'refundPart' | 'refundedAt'>): PaymentFacts {
  return { ...facts, refundedTotal: null, refundPart: null, refundedAt: null };
}

/**
 * `checkout.session.completed` and `checkout.session.async_payment_succeeded` in payment mode,
 * once paid (a delayed method completes `unpaid` and succeeds later). A subscription-mode
 * session is left to its invoice, which carries the renewal flag the session lacks.
 */
export function readCheckoutSession({ object, eventAt }: StripeObject): PaymentFacts[] {
  if (optionalStringAt(object, 'mode') !== 'payment') return [];
  if (optionalStringAt(object, 'payment_status') !== 'paid') return [];
  const details = optionalObjectAt(object, 'customer_details');
  return [
    payment({
      transactionId: optionalIdAt(object, 'payment_intent') ?? stringAt(object, 'id'),
      ...moneyOf(object, 'amount_total'),
      trial: false,
      renewal: false,
      customerId: optionalIdAt(object, 'customer'),
      // The metadata key is ours by name; client_reference_id is the field Stripe offers for it.
      visitorId: visitorIdIn(object) ?? optionalStringAt(object, 'client_reference_id'),
      email: (details && optionalStringAt(details, 'email')) ?? optionalStringAt(object, 'customer_email'),
      paidAt: eventAt,
    }),
  ];
}

const RENEWAL_REASONS = new Set([
  'subscription_cycle',
  'subscription_update',
  'subscription_threshold',
  'subscription',
]);

/**
 * The invoice's PaymentIntent: the `payment_intent` field before 2025-03-31.basil; from basil on,
 * the paid entry of `payments` when the payload has it (an "includable" list, which webhook
 * payloads leave out); else the Charge (before basil), else the invoice itself. Basil also took
 * `invoice` off the Charge (stripe/stripe-python#1514), so from basil on nothing in the two
 * events ties a refunded charge to its invoice: the refund is recorded under the PaymentIntent.
 */
function invoicePaymentId(invoice: Located): string {
  const legacy = optionalIdAt(invoice, 'payment_intent');
  if (legacy) return legacy;
  for (const entry of listEntriesAt(invoice, 'payments')) {
    if (optionalStringAt(entry, 'status') !== 'paid') continue;
    const paymentIntent = optionalIdAt(objectAt(entry, 'payment'), 'payment_intent');
    if (paymentIntent) return paymentIntent;
  }
  return optionalIdAt(invoice, 'charge') ?? stringAt(invoice, 'id');
}

/** Subscription metadata: `parent.subscription_details` from basil on, `subscription_details` before. */
function subscriptionVisitorId(invoice: Located): string | null {
  const parent = optionalObjectAt(invoice, 'parent');
  const modern = parent && optionalObjectAt(parent, 'subscription_details');
  const legacy = optionalObjectAt(invoice, 'subscription_details');
  return (modern && visitorIdIn(modern)) ?? (legacy && visitorIdIn(legacy)) ?? visitorIdIn(invoice);
}

/**
 * `invoice.paid` for a subscription's invoice; the first (`subscription_create`) is not a
 * renewal, later cycles are. A zero invoice (the first of a free trial) moved no money: the
 * trial is read from `customer.subscription.created`. One-off invoices are left out: a Checkout
 * payment with an invoice would be counted twice where the invoice does not name its
 * PaymentIntent (basil and later).
 */
export function readInvoicePaid({ object, eventAt }: StripeObject): PaymentFacts[] {
  const reason = optionalStringAt(object, 'billing_reason');
  if (!reason?.startsWith('subscription')) return [];
  const money = moneyOf(object, 'amount_paid');
  if (money.amount === 0) return [];
  const transitions = optionalObjectAt(object, 'status_transitions');
  const paidAt = transitions && optionalIntegerAt(transitions, 'paid_at');
  return [
    payment({
      transactionId: invoicePaymentId(object),
      ...money,
      trial: false,
      renewal: RENEWAL_REASONS.has(reason),
      customerId: optionalIdAt(object, 'customer'),
      visitorId: subscriptionVisitorId(object),
      email: optionalStringAt(object, 'customer_email'),
      paidAt: paidAt ? new Date(paidAt * 1000) : eventAt,
    }),
  ];
}

/** `customer.subscription.created` in status `trialing`: a free trial started. */
export function readSubscriptionCreated({ object, eventAt }: StripeObject): PaymentFacts[] {
  if (optionalStringAt(object, 'status') !== 'trialing') return [];
  const trialStart = optionalIntegerAt(object, 'trial_start');
  return [
    payment({
      transactionId: stringAt(object, 'id'),
      amount: 0,
      currency: currencyOf(stringAt(object, 'currency'), `${object.path}.currency`),
      trial: true,
      renewal: false,
      customerId: optionalIdAt(object, 'customer'),
      visitorId: visitorIdIn(object),
      email: null,
      paidAt: trialStart ? new Date(trialStart * 1000) : eventAt,
    }),
  ];
}

/**
 * `charge.refunded`, sent for every refund, partial or full: `amount_refunded` is the running
 * total, so replays and out-of-order deliveries settle on the largest total. The whole charge
 * comes along, so a refund read before its payment records both.
 */
export function readChargeRefunded({ object, eventAt }: StripeObject): PaymentFacts[] {
  const money = moneyOf(object, 'amount');
  const refunded = amountFromStripe(integerAt(object, 'amount_refunded'), money.currency);
  if (refunded === 0) return [];
  const billing = optionalObjectAt(object, 'billing_details');
  return [
    {
      transactionId: optionalIdAt(object, 'payment_intent') ?? stringAt(object, 'id'),
      ...money,
      trial: false,
      renewal: false,
      customerId: optionalIdAt(object, 'customer'),
      visitorId: visitorIdIn(object),
      email: (billing && optionalStringAt(billing, 'email')) ?? optionalStringAt(object, 'receipt_email'),
      paidAt: dateAt(object, 'created'),
      refundedTotal: refunded,
      refundPart: null,
      refundedAt: eventAt,
    },
  ];
}

/**
 * `payment_intent.succeeded` only when the PaymentIntent's own metadata names the visitor: a
 * custom Elements integration that sets it has no other event to be read from. Checkout and
 * invoices fire this event too for the same PaymentIntent, without the visitor or the renewal
 * flag; were it read, whichever of the two arrived first would decide both, so it is left to
 * `checkout.session.completed` and `invoice.paid`.
 */
export function readPaymentIntentSucceeded({ object, eventAt }: StripeObject): PaymentFacts[] {
  const visitorId = visitorIdIn(object);
  if (!visitorId) return [];
  return [
    payment({
      transactionId: stringAt(object, 'id'),
      ...moneyOf(object, 'amount_received'),
      trial: false,
      renewal: false,
      customerId: optionalIdAt(object, 'customer'),
      visitorId,
      email: optionalStringAt(object, 'receipt_email'),
      paidAt: eventAt,
    }),
  ];
}

/**
 * `invoice_payment.paid` (API version 2025-03-31 and later): the one event that names both an
 * invoice and the PaymentIntent (or Charge) that paid it. `invoice.paid` records the payment
 * under the invoice id when the invoice names no PaymentIntent; this alias lets the refund, which
 * names only the PaymentIntent, find it.
 */
export function invoicePaymentAliases({ object }: StripeObject): { alias: string; transactionId: string }[] {
  if (optionalStringAt(object, 'status') !== 'paid') return [];
  const invoiceId = optionalIdAt(object, 'invoice');
  const paidWith = optionalObjectAt(object, 'payment');
  const alias = paidWith && (optionalIdAt(paidWith, 'payment_intent') ?? optionalIdAt(paidWith, 'charge'));
  return invoiceId && alias ? [{ alias, transactionId: invoiceId }] : [];
}
