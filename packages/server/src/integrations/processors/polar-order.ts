/**
 * Polar orders and subscriptions as payment facts. Field names and meanings are Polar's `Order`
 * and `Subscription` schemas (polar.sh/docs/api-reference, `docs/openapi/2026-10.openapi.json`
 * in polarsource/polar); which event carries what is in `server/polar/webhook/webhooks.py`.
 */
import type { PaymentFacts } from '../processor.js';
import {
  amountAt,
  dateAt,
  type JsonObject,
  metadataString,
  nullableObjectAt,
  nullableStringAt,
  objectAt,
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

function readCustomer(data: JsonObject, path: string): Customer {
  const customer = objectAt(data, 'customer', path);
  return {
    customerId: stringAt(customer, 'id', `${path}.customer`),
    email: nullableStringAt(customer, 'email', `${path}.customer`),
    metadata: nullableObjectAt(customer, 'metadata', `${path}.customer`),
  };
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
export function readOrder(data: JsonObject, at: Date, isRefund: boolean): PaymentFacts[] {
  const path = 'data';
  const orderId = stringAt(data, 'id', path);
  const currency = polarCurrency(stringAt(data, 'currency', path), `${path}.currency`);
  const billingReason = stringAt(data, 'billing_reason', path);
  const balance = data.applied_balance_amount == null ? 0 : amountAt(data, 'applied_balance_amount', path);
  const charged = Math.max(0, amountAt(data, 'total_amount', path) + balance);
  const subscriptionId = nullableStringAt(data, 'subscription_id', path);
  const subscription = nullableObjectAt(data, 'subscription', path);
  const customer = readCustomer(data, path);
  const isTrial = charged === 0 && billingReason === 'subscription_create' && subscriptionId !== null;
  if (charged === 0 && (isRefund || !FIRST_CHARGE.has(billingReason))) return [];

  let refundedTotal: number | null = null;
  if (isRefund) {
    const refunded = amountAt(data, 'refunded_amount', path) + amountAt(data, 'refunded_tax_amount', path);
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
      visitorId: visitorOf(
        nullableObjectAt(data, 'metadata', path),
        subscription && nullableObjectAt(subscription, 'metadata', `${path}.subscription`),
        customer.metadata,
      ),
      email: customer.email,
      // A refund event comes after the payment: the order's creation is the closest date it has.
      paidAt: isRefund ? dateAt(data, 'created_at', path) : at,
      refundedTotal,
      refundPart: null,
      refundedAt: refundedTotal === null ? null : at,
    },
  ];
}

/** `subscription.created` in status `trialing`: a free trial started. Other statuses: nothing. */
export function readSubscriptionCreated(data: JsonObject, at: Date): PaymentFacts[] {
  const path = 'data';
  if (stringAt(data, 'status', path) !== 'trialing') return [];
  const customer = readCustomer(data, path);
  return [
    {
      transactionId: stringAt(data, 'id', path),
      amount: 0,
      currency: polarCurrency(stringAt(data, 'currency', path), `${path}.currency`),
      trial: true,
      renewal: false,
      customerId: customer.customerId,
      visitorId: visitorOf(nullableObjectAt(data, 'metadata', path), customer.metadata),
      email: customer.email,
      paidAt: at,
      refundedTotal: null,
      refundPart: null,
      refundedAt: null,
    },
  ];
}
