/**
 * Reads a Lemon Squeezy webhook body (a JSON:API resource plus `meta`) as payment facts.
 * Event list: https://docs.lemonsqueezy.com/help/webhooks/event-types ; objects:
 * https://docs.lemonsqueezy.com/api/orders and /api/subscription-invoices and /api/subscriptions.
 *
 * One subscription start sends `order_created` (the first order) together with
 * `subscription_created` and `subscription_payment_success` for the invoice with
 * `billing_reason: "initial"`: the same money twice under two ids. The order is the one that
 * counts (a one-off purchase has nothing else), so initial invoices and their refunds are
 * acknowledged and ignored; invoices after it are renewals. With a free trial, the initial
 * invoice is taken to be the $0 one at sign-up and the first charge after the trial a
 * `renewal` (the docs only say "initial" is the invoice made when the subscription is created).
 */
import { createHash } from 'node:crypto';
import type { PaymentFacts, ProcessorEvent } from '../processor.js';
import { PayloadError } from '../processor.js';
import { isJsonObject, type Located, pathOf } from './json-fields.js';
import {
  centsAt,
  currencyAt,
  dateAt,
  idAt,
  objectAt,
  optionalCentsAt,
  optionalIdAt,
  optionalStringAt,
  stringAt,
} from './lemonsqueezy-fields.js';

/** Statuses of an order or invoice whose money was taken (a later refund changes the status). */
const PAID_STATUSES = new Set(['paid', 'refunded', 'partial_refund']);

/** Lemon Squeezy reports every amount in USD too; a trial's subscription object carries no currency. */
const TRIAL_CURRENCY = 'USD';

/**
 * Orders and subscription invoices are numbered apart (order 300 and invoice 300 can both
 * exist), so the transaction id says which one it is: `order_300`, `invoice_9001`. A refund
 * event carries the same object, so it finds its payment under the same id.
 */
const ORDER_PREFIX = 'order_';
const INVOICE_PREFIX = 'invoice_';

interface Charge {
  transactionId: string;
  attributes: Located;
}

/**
 * Lemon Squeezy sends no event id. A retry or a resend from its dashboard sends the same body,
 * so a hash of the body (as parsed: JSON.parse then stringify is the same for the same bytes)
 * is the same for a replay and different for any other event, even two refunds of one order.
 * The event name and object id in front keep it readable in the connection's "last event".
 */
function eventIdOf(eventName: string, data: unknown, payload: unknown): string {
  const hash = createHash('sha256').update(JSON.stringify(payload)).digest('hex').slice(0, 32);
  const dataId = isJsonObject(data) ? data.id : undefined;
  const objectId = typeof dataId === 'string' || typeof dataId === 'number' ? dataId : '-';
  return `${eventName.slice(0, 64)}:${String(objectId).slice(0, 40)}:${hash}`;
}

function chargeOf(data: Located, type: 'orders' | 'subscription-invoices'): Charge {
  if (data.value.type !== type) throw new PayloadError(`data.type must be "${type}" for this event`);
  const prefix = type === 'orders' ? ORDER_PREFIX : INVOICE_PREFIX;
  return {
    transactionId: prefix + idAt(data, 'id'),
    attributes: objectAt(data, 'attributes'),
  };
}

function visitorIdOf(meta: Located): string | null {
  // Custom data is whatever the shop put in its checkout link: an odd value is not worth
  // refusing the payment for; the email may still find the visitor.
  const custom = meta.value.custom_data;
  const visitorId = isJsonObject(custom) ? custom.touchtrail_visitor_id : undefined;
  return typeof visitorId === 'string' && visitorId.length > 0 ? visitorId : null;
}

function paymentOf(charge: Charge, meta: Located, renewal: boolean): PaymentFacts {
  const { attributes } = charge;
  return {
    transactionId: charge.transactionId,
    // `total` is what the customer paid (after discounts, with tax), as the other processors
    // count it; `refunded_amount` is measured against it, so a full refund nets to zero.
    amount: centsAt(attributes, 'total'),
    currency: currencyAt(attributes, 'currency'),
    trial: false,
    renewal,
    customerId: optionalIdAt(attributes, 'customer_id'),
    visitorId: visitorIdOf(meta),
    email: optionalStringAt(attributes, 'user_email'),
    paidAt: dateAt(attributes, 'created_at'),
    refundedTotal: null,
    refundPart: null,
    refundedAt: null,
  };
}

/** `refunded_amount` is the running total (docs, order and invoice objects). */
function refundOf(charge: Charge, meta: Located, renewal: boolean): PaymentFacts {
  const { attributes } = charge;
  const payment = paymentOf(charge, meta, renewal);
  let refundedTotal = optionalCentsAt(attributes, 'refunded_amount');
  // Payloads from before `refunded_amount` existed only say "refunded" for a full refund.
  if (refundedTotal === null && attributes.value.status === 'refunded') refundedTotal = payment.amount;
  if (refundedTotal === null) throw new PayloadError(`${pathOf(attributes, 'refunded_amount')} is missing`);
  // `refunded_at` keeps the first refund's time; `updated_at` moves with each later one.
  return { ...payment, refundedTotal, refundedAt: dateAt(attributes, 'updated_at') };
}

function isPaid(charge: Charge): boolean {
  return PAID_STATUSES.has(stringAt(charge.attributes, 'status'));
}

function isInitialInvoice(invoice: Charge): boolean {
  return stringAt(invoice.attributes, 'billing_reason') === 'initial';
}

/** A trial's order has a total of 0; its id is the trial's transaction id, so either event records it once. */
function trialOf(data: Located, meta: Located): PaymentFacts[] {
  if (data.value.type !== 'subscriptions')
    throw new PayloadError('data.type must be "subscriptions" for this event');
  const attributes = objectAt(data, 'attributes');
  if (stringAt(attributes, 'status') !== 'on_trial') return [];
  return [
    {
      transactionId: ORDER_PREFIX + idAt(attributes, 'order_id'),
      amount: 0,
      currency: TRIAL_CURRENCY,
      trial: true,
      renewal: false,
      customerId: optionalIdAt(attributes, 'customer_id'),
      visitorId: visitorIdOf(meta),
      email: optionalStringAt(attributes, 'user_email'),
      paidAt: dateAt(attributes, 'created_at'),
      refundedTotal: null,
      refundPart: null,
      refundedAt: null,
    },
  ];
}

const READ_EVENTS = new Set([
  'order_created',
  'order_refunded',
  'subscription_payment_success',
  'subscription_payment_refunded',
  'subscription_created',
]);

function paymentsOf(eventName: string, meta: Located, data: Located): PaymentFacts[] {
  switch (eventName) {
    case 'order_created': {
      const order = chargeOf(data, 'orders');
      return isPaid(order) ? [paymentOf(order, meta, false)] : [];
    }
    case 'order_refunded':
      return [refundOf(chargeOf(data, 'orders'), meta, false)];
    case 'subscription_payment_success': {
      const invoice = chargeOf(data, 'subscription-invoices');
      if (isInitialInvoice(invoice) || !isPaid(invoice)) return [];
      // A renewal that charged nothing (a 100% discount) is not a trial and not revenue.
      return centsAt(invoice.attributes, 'total') === 0 ? [] : [paymentOf(invoice, meta, true)];
    }
    case 'subscription_payment_refunded': {
      const invoice = chargeOf(data, 'subscription-invoices');
      return isInitialInvoice(invoice) ? [] : [refundOf(invoice, meta, true)];
    }
    case 'subscription_created':
      return trialOf(data, meta);
    default:
      return [];
  }
}

/**
 * Test-mode events (`meta.test_mode`) are read like live ones: Lemon Squeezy sends them only to
 * a webhook created in test mode, so one reaching a connection was pointed here on purpose,
 * usually to see the connection work before going live.
 */
export function readLemonSqueezyEvent(payload: unknown): ProcessorEvent {
  if (!isJsonObject(payload)) throw new PayloadError('the body is missing or not an object');
  const body: Located = { value: payload, path: '' };
  const meta = objectAt(body, 'meta');
  const type = stringAt(meta, 'event_name');
  const id = eventIdOf(type, payload.data, payload);
  if (!READ_EVENTS.has(type)) return { id, type, payments: [] };
  return { id, type, payments: paymentsOf(type, meta, objectAt(body, 'data')) };
}
