/**
 * Stripe webhook bodies as Stripe sends them, for tests: each builder follows the object example
 * in Stripe's API reference (docs.stripe.com/api/events/object and the page named beside it),
 * trimmed of fields nothing reads but keeping their neighbours, so extra fields stay tolerated.
 * `signStripe` signs exactly as Stripe does, with the official package's test helper.
 */
import Stripe from 'stripe';

export const STRIPE_TEST_SECRET = 'whsec_test_5WbX5kEWLlfzsGNjH64I8lOOqUB6e7vH';
/** The API version the endpoint is pinned to; basil (2025-03-31) moved the invoice's payment. */
export const STRIPE_API_VERSION = '2025-10-29.clover';

type JsonObject = Record<string, unknown>;
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/** The `Stripe-Signature` header for `body` signed with `secret` at `at`. */
export function signStripe(body: string, secret: string, at: Date): Record<string, string> {
  const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: seconds(at) });
  return { 'stripe-signature': header };
}

/** The event envelope (docs.stripe.com/api/events/object). */
export function stripeEvent(type: string, object: JsonObject, input: { id: string; at: Date }): JsonObject {
  return {
    id: input.id,
    object: 'event',
    api_version: STRIPE_API_VERSION,
    created: seconds(input.at),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

export interface CheckoutInput {
  sessionId: string;
  paymentIntentId: string | null;
  amountTotal: number;
  currency: string;
  customerId?: string | null;
  email?: string | null;
  visitorId?: string | null;
  clientReferenceId?: string | null;
  mode?: 'payment' | 'subscription' | 'setup';
  paymentStatus?: 'paid' | 'unpaid' | 'no_payment_required';
  createdAt: Date;
}

/** A Checkout Session (docs.stripe.com/api/checkout/sessions/object). */
export function checkoutSession(input: CheckoutInput): JsonObject {
  return {
    id: input.sessionId,
    object: 'checkout.session',
    amount_subtotal: input.amountTotal,
    amount_total: input.amountTotal,
    client_reference_id: input.clientReferenceId ?? null,
    created: seconds(input.createdAt),
    currency: input.currency.toLowerCase(),
    customer: input.customerId ?? null,
    customer_creation: 'if_required',
    customer_details:
      input.email === undefined ? null : { email: input.email, name: 'Jenny Rosen', phone: null },
    customer_email: null,
    invoice: null,
    livemode: false,
    metadata: input.visitorId ? { touchtrail_visitor_id: input.visitorId } : {},
    mode: input.mode ?? 'payment',
    payment_intent: input.paymentIntentId,
    payment_status: input.paymentStatus ?? 'paid',
    status: 'complete',
    subscription: null,
    success_url: 'https://example.com/success',
    url: null,
  };
}

export interface InvoiceInput {
  invoiceId: string;
  /** Before basil the invoice names its PaymentIntent; from basil on it does not. */
  paymentIntentId?: string | null;
  chargeId?: string | null;
  amountPaid: number;
  currency: string;
  billingReason: string;
  customerId: string;
  email?: string | null;
  subscriptionId: string;
  visitorId?: string | null;
  paidAt: Date;
  /** `legacy`: the shape before 2025-03-31.basil (payment_intent, charge, subscription_details). */
  shape?: 'basil' | 'legacy';
}

/** An Invoice (docs.stripe.com/api/invoices/object; the `parent` field from basil on). */
export function invoice(input: InvoiceInput): JsonObject {
  const metadata = input.visitorId ? { touchtrail_visitor_id: input.visitorId } : {};
  const common = {
    id: input.invoiceId,
    object: 'invoice',
    amount_due: input.amountPaid,
    amount_paid: input.amountPaid,
    amount_remaining: 0,
    attempt_count: 1,
    billing_reason: input.billingReason,
    collection_method: 'charge_automatically',
    created: seconds(input.paidAt) - 3600,
    currency: input.currency.toLowerCase(),
    customer: input.customerId,
    customer_email: input.email ?? null,
    lines: { object: 'list', data: [], has_more: false, url: `/v1/invoices/${input.invoiceId}/lines` },
    livemode: false,
    metadata: {},
    status: 'paid',
    status_transitions: {
      finalized_at: seconds(input.paidAt),
      paid_at: seconds(input.paidAt),
      voided_at: null,
    },
    total: input.amountPaid,
  };
  if (input.shape === 'legacy')
    return {
      ...common,
      charge: input.chargeId ?? null,
      paid: true,
      payment_intent: input.paymentIntentId ?? null,
      subscription: input.subscriptionId,
      subscription_details: { metadata },
    };
  return {
    ...common,
    parent: {
      quote_details: null,
      subscription_details: { metadata, subscription: input.subscriptionId },
      type: 'subscription_details',
    },
  };
}

export interface SubscriptionInput {
  subscriptionId: string;
  customerId: string;
  currency: string;
  status: 'trialing' | 'active' | 'incomplete';
  visitorId?: string | null;
  trialStart: Date | null;
}

/** A Subscription (docs.stripe.com/api/subscriptions/object). */
export function subscription(input: SubscriptionInput): JsonObject {
  const trialStart = input.trialStart ? seconds(input.trialStart) : null;
  return {
    id: input.subscriptionId,
    object: 'subscription',
    cancel_at_period_end: false,
    created: trialStart ?? 1_700_000_000,
    currency: input.currency.toLowerCase(),
    customer: input.customerId,
    items: { object: 'list', data: [], has_more: false },
    latest_invoice: 'in_1TrialInvoice',
    livemode: false,
    metadata: input.visitorId ? { touchtrail_visitor_id: input.visitorId } : {},
    start_date: trialStart ?? 1_700_000_000,
    status: input.status,
    trial_end: trialStart === null ? null : trialStart + 14 * 86_400,
    trial_start: trialStart,
  };
}

export interface ChargeInput {
  chargeId: string;
  paymentIntentId: string | null;
  amount: number;
  amountRefunded: number;
  currency: string;
  customerId?: string | null;
  email?: string | null;
  visitorId?: string | null;
  createdAt: Date;
}

/** A Charge after a refund (docs.stripe.com/api/charges/object). */
export function charge(input: ChargeInput): JsonObject {
  return {
    id: input.chargeId,
    object: 'charge',
    amount: input.amount,
    amount_captured: input.amount,
    amount_refunded: input.amountRefunded,
    billing_details: { address: null, email: input.email ?? null, name: null, phone: null },
    captured: true,
    created: seconds(input.createdAt),
    currency: input.currency.toLowerCase(),
    customer: input.customerId ?? null,
    livemode: false,
    metadata: input.visitorId ? { touchtrail_visitor_id: input.visitorId } : {},
    paid: true,
    payment_intent: input.paymentIntentId,
    receipt_email: null,
    refunded: input.amountRefunded === input.amount,
    status: 'succeeded',
  };
}

export interface PaymentIntentInput {
  paymentIntentId: string;
  amount: number;
  currency: string;
  customerId?: string | null;
  email?: string | null;
  visitorId?: string | null;
}

/** A PaymentIntent that succeeded (docs.stripe.com/api/payment_intents/object). */
export function paymentIntent(input: PaymentIntentInput): JsonObject {
  return {
    id: input.paymentIntentId,
    object: 'payment_intent',
    amount: input.amount,
    amount_received: input.amount,
    currency: input.currency.toLowerCase(),
    customer: input.customerId ?? null,
    latest_charge: 'ch_3MtwBwLkdIwHu7ix28a3tqPa',
    livemode: false,
    metadata: input.visitorId ? { touchtrail_visitor_id: input.visitorId } : {},
    receipt_email: input.email ?? null,
    status: 'succeeded',
  };
}

/** An InvoicePayment (docs.stripe.com/api/invoice-payment/object), API version 2025-03-31 on. */
export function invoicePayment(input: {
  invoiceId: string;
  paymentIntentId: string;
  amountPaid: number;
  currency: string;
  paidAt: Date;
}): JsonObject {
  return {
    id: `inpay_${input.invoiceId.slice(3)}`,
    object: 'invoice_payment',
    amount_paid: input.amountPaid,
    amount_requested: input.amountPaid,
    created: seconds(input.paidAt),
    currency: input.currency.toLowerCase(),
    invoice: input.invoiceId,
    is_default: true,
    livemode: false,
    payment: { type: 'payment_intent', payment_intent: input.paymentIntentId },
    status: 'paid',
    status_transitions: { canceled_at: null, paid_at: seconds(input.paidAt) },
  };
}
