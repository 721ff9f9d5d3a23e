/**
 * Polar orders and subscriptions as payment facts. Field names and meanings are Polar's `Order`
 * and `Subscription` schemas (polar.sh/docs/api-reference, `docs/openapi/2026-10.openapi.json`
 * in polarsource/polar); which event carries what is in `server/polar/webhook/webhooks.py`.
 */
import type { PaymentFacts } from '../processor.js';
import { type JsonObject, type Located, pathOf } from './json-fields.js';
import {
  amountAt,
  dateAt,
  metadataString,
  objectAt,
  optionalObjectAt,
  optionalStringAt,
  stringAt,
} from './polar-fields.js';
import { polarAmountToContract, polarCurrency } from './polar-money.js';

const VISITOR_KEY = 'touchtrail_visitor_id';
/** Billing reasons of a first charge; every other one (cycle, update, meter cycle) is a renewal. */
const FIRST_CHARGE = new Set(['purchase', 'subscription_create']);

interface Customer {
  customerId: string;
  email: string | null;
  metadata: JsonObject | null;
}

function readCustomer(data: Located): Customer {
  const customer = objectAt(data, 'customer');
  return {
    customerId: stringAt(customer, 'id'),
    email: optionalStringAt(customer, 'email'),
    metadata: metadataOf(customer),
  };
}

function metadataOf(parent: Located): JsonObject | null {
  return optionalObjectAt(parent, 'metadata')?.value ?? null;
}

/** The visitor from the first metadata that has one: the order's (copied from the checkout), … */
function visitorOf(...metadata: (JsonObject | null)[]): string | null {
  for (const each of metadata) {
    const visitor = metadataString(each, VISITOR_KEY);
    if (visitor !== null) return visitor;
  }
  return null;
}

/**
 * `order.paid` and `order.refunded`. The amount is what the customer was charged: `total_amount`
 * (after discounts, with tax) plus `applied_balance_amount` (negative when a credit paid part),
 * as Polar's own `due_amount`. Refunds are `refunded_amount` (net) plus `refunded_tax_amount`, both
 * running totals, so a full refund equals the amount. A zero-amount first subscription order is
 * Polar's trial order: a trial keyed on the subscription id, as `subscription.created` is.
 * Other zero-amount subscription orders record nothing.
 */
export function readOrder(data: Located, at: Date, isRefund: boolean): PaymentFacts[] {
  const orderId = stringAt(data, 'id');
  const currency = polarCurrency(stringAt(data, 'currency'), pathOf(data, 'currency'));
  const billingReason = stringAt(data, 'billing_reason');
  const balance = data.value.applied_balance_amount == null ? 0 : amountAt(data, 'applied_balance_amount');
  const charged = Math.max(0, amountAt(data, 'total_amount') + balance);
  const subscriptionId = optionalStringAt(data, 'subscription_id');
  const subscription = optionalObjectAt(data, 'subscription');
  const customer = readCustomer(data);
  const isTrial = charged === 0 && billingReason === 'subscription_create' && subscriptionId !== null;
  if (charged === 0 && (isRefund || !FIRST_CHARGE.has(billingReason))) return [];

  let refundedTotal: number | null = null;
  if (isRefund) {
    const refunded = amountAt(data, 'refunded_amount') + amountAt(data, 'refunded_tax_amount');
    refundedTotal = refunded > 0 ? polarAmountToContract(refunded, currency) : null;
  }
  return [
    {
      transactionId: isTrial && subscriptionId !== null ? subscriptionId : orderId,
      amount: polarAmountToContract(charged, currency),
      currency,
      trial: isTrial,
      renewal: !FIRST_CHARGE.has(billingReason),
      customerId: customer.customerId,
      visitorId: visitorOf(metadataOf(data), subscription && metadataOf(subscription), customer.metadata),
      email: customer.email,
      // A refund event comes after the payment: the order's creation is the closest date it has.
      paidAt: isRefund ? dateAt(data, 'created_at') : at,
      refundedTotal,
      refundPart: null,
      refundedAt: refundedTotal === null ? null : at,
    },
  ];
}

/** `subscription.created` in status `trialing`: a free trial started. Other statuses: nothing. */
export function readSubscriptionCreated(data: Located, at: Date): PaymentFacts[] {
  if (stringAt(data, 'status') !== 'trialing') return [];
  const customer = readCustomer(data);
  return [
    {
      transactionId: stringAt(data, 'id'),
      amount: 0,
      currency: polarCurrency(stringAt(data, 'currency'), pathOf(data, 'currency')),
      trial: true,
      renewal: false,
      customerId: customer.customerId,
      visitorId: visitorOf(metadataOf(data), customer.metadata),
      email: customer.email,
      paidAt: at,
      refundedTotal: null,
      refundPart: null,
      refundedAt: null,
    },
  ];
}
