/**
 * Polar webhook bodies as Polar sends them, for tests: `{type, timestamp, data}` with `data` an
 * `Order` or `Subscription` holding every field of the schema (polar.sh/docs/api-reference/webhooks
 * order.paid, order.refunded, subscription.created; the schemas and examples of
 * `docs/openapi/2026-10.openapi.json` in polarsource/polar), signed as Polar signs them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type PolarKeyScheme, polarKey, polarSignature } from './polar-signature.js';

type Metadata = Record<string, string | number | boolean>;

export interface PolarCustomerOptions {
  customerId?: string;
  /** Team customers may have none. */
  email?: string | null;
  customerMetadata?: Metadata;
}

export interface PolarOrderOptions extends PolarCustomerOptions {
  orderId?: string;
  /** Lower-case, as Polar sends it. */
  currency?: string;
  /** Cents after discounts, before tax. */
  netAmount?: number;
  taxAmount?: number;
  /** Negative when a customer credit paid part of the order. */
  appliedBalanceAmount?: number;
  billingReason?: 'purchase' | 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  subscriptionId?: string | null;
  subscriptionStatus?: string;
  /** The order's metadata, copied from the checkout's. */
  metadata?: Metadata;
  subscriptionMetadata?: Metadata;
  createdAt?: Date;
  /** Running totals, net and tax, in cents. */
  refundedAmount?: number;
  refundedTaxAmount?: number;
}

export interface PolarEventBody {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

const ORGANIZATION_ID = '1dbfc517-0bbf-4301-9ba8-555ca42b9737';
const PRODUCT_ID = 'b7a1e2c4-52d5-4c3e-9b3f-6a1d2f0e8c11';
const PRODUCT = {
  id: PRODUCT_ID,
  created_at: '2026-01-05T08:00:00Z',
  modified_at: null,
  trial_interval: null,
  trial_interval_count: null,
  name: 'Pro Plan',
  description: null,
  recurring_interval: 'month',
  recurring_interval_count: 1,
  is_recurring: true,
  is_archived: false,
  organization_id: ORGANIZATION_ID,
  metadata: {},
};

function customerOf(options: PolarCustomerOptions, createdAt: Date) {
  return {
    id: options.customerId ?? '992fae2a-2a17-4b7a-8d9e-e287cf90131b',
    created_at: createdAt.toISOString(),
    modified_at: null,
    metadata: options.customerMetadata ?? {},
    external_id: null,
    email: options.email === undefined ? 'ada@example.com' : options.email,
    email_verified: true,
    type: 'individual',
    name: 'Ada Lovelace',
    billing_name: 'Ada Lovelace',
    billing_address: { line1: null, line2: null, postal_code: null, city: null, state: null, country: 'IS' },
    tax_id: null,
    locale: 'en',
    organization_id: ORGANIZATION_ID,
    default_payment_method_id: null,
    deleted_at: null,
    avatar_url: 'https://www.gravatar.com/avatar/xxx?d=404',
  };
}

function subscriptionOf(options: PolarOrderOptions & { subscriptionId: string }, createdAt: Date) {
  const isTrial = (options.subscriptionStatus ?? 'active') === 'trialing';
  const trialEnd = new Date(createdAt.getTime() + 14 * 86_400_000).toISOString();
  return {
    id: options.subscriptionId,
    created_at: createdAt.toISOString(),
    modified_at: null,
    metadata: options.subscriptionMetadata ?? {},
    amount: (options.netAmount ?? 9000) + (options.taxAmount ?? 0),
    currency: options.currency ?? 'usd',
    recurring_interval: 'month',
    recurring_interval_count: 1,
    status: options.subscriptionStatus ?? 'active',
    current_period_start: createdAt.toISOString(),
    current_period_end: isTrial ? trialEnd : new Date(createdAt.getTime() + 30 * 86_400_000).toISOString(),
    current_meter_period_start: null,
    current_meter_period_end: null,
    trial_start: isTrial ? createdAt.toISOString() : null,
    trial_end: isTrial ? trialEnd : null,
    cancel_at_period_end: false,
    canceled_at: null,
    started_at: createdAt.toISOString(),
    ends_at: null,
    ended_at: null,
    pause_at_period_end: false,
    paused_at: null,
    resumes_at: null,
    customer_id: options.customerId ?? '992fae2a-2a17-4b7a-8d9e-e287cf90131b',
    product_id: PRODUCT_ID,
    discount_id: null,
    checkout_id: null,
    customer_cancellation_reason: null,
    customer_cancellation_comment: null,
  };
}

/** An `Order` (status follows the refunded totals). */
export function polarOrder(options: PolarOrderOptions = {}): Record<string, unknown> {
  const createdAt = options.createdAt ?? new Date('2026-11-20T10:00:00Z');
  const net = options.netAmount ?? 9000;
  const tax = options.taxAmount ?? 720;
  const balance = options.appliedBalanceAmount ?? 0;
  const refunded = options.refundedAmount ?? 0;
  const refundedTax = options.refundedTaxAmount ?? 0;
  const status = refunded === 0 ? 'paid' : refunded >= net + balance ? 'refunded' : 'partially_refunded';
  const subscriptionId =
    options.subscriptionId === undefined && options.billingReason && options.billingReason !== 'purchase'
      ? 'e5b8a2c1-0d3f-4c6e-8a9b-1f2e3d4c5b6a'
      : (options.subscriptionId ?? null);
  const customer = customerOf(options, createdAt);
  return {
    id: options.orderId ?? randomUUID(),
    created_at: createdAt.toISOString(),
    modified_at: createdAt.toISOString(),
    status,
    paid: true,
    subtotal_amount: net,
    discount_amount: 0,
    net_amount: net,
    tax_amount: tax,
    total_amount: net + tax,
    applied_balance_amount: balance,
    due_amount: Math.max(0, net + tax + balance),
    refunded_amount: refunded,
    refunded_tax_amount: refundedTax,
    currency: options.currency ?? 'usd',
    billing_reason: options.billingReason ?? 'purchase',
    billing_name: 'Ada Lovelace',
    billing_address: customer.billing_address,
    invoice_number: 'POLAR-0001',
    is_invoice_generated: false,
    receipt_number: null,
    seats: null,
    customer_id: customer.id,
    product_id: PRODUCT_ID,
    discount_id: null,
    subscription_id: subscriptionId,
    checkout_id: randomUUID(),
    next_payment_attempt_at: null,
    metadata: options.metadata ?? {},
    custom_field_data: {},
    platform_fee_amount: Math.round((net + tax) * 0.04),
    platform_fee_currency: 'usd',
    customer,
    product: { ...PRODUCT, is_recurring: subscriptionId !== null },
    discount: null,
    subscription: subscriptionId === null ? null : subscriptionOf({ ...options, subscriptionId }, createdAt),
    items: [
      {
        id: randomUUID(),
        created_at: createdAt.toISOString(),
        modified_at: null,
        label: 'Pro Plan',
        amount: net,
        tax_amount: tax,
        proration: false,
        product_price_id: null,
      },
    ],
    description: 'Pro Plan',
    refundable_amount: Math.max(0, net + balance - refunded),
    refundable_tax_amount: Math.max(0, tax - refundedTax),
  };
}

/** Any Polar event body: `{type, timestamp, data}`. */
export function polarEvent(type: string, data: Record<string, unknown>, at: Date): PolarEventBody {
  return { type, timestamp: at.toISOString(), data };
}

export const polarOrderPaid = (options: PolarOrderOptions = {}, at = new Date('2026-11-20T10:00:05Z')) =>
  polarEvent('order.paid', polarOrder(options), at);

export const polarOrderRefunded = (options: PolarOrderOptions = {}, at = new Date('2026-11-22T09:30:00Z')) =>
  polarEvent('order.refunded', polarOrder(options), at);

/** `subscription.created` (status `trialing` by default: a trial checkout). */
export function polarSubscriptionCreated(
  options: PolarOrderOptions & { subscriptionId?: string } = {},
  at = new Date('2026-11-20T10:00:03Z'),
): PolarEventBody {
  const createdAt = options.createdAt ?? at;
  const subscriptionId = options.subscriptionId ?? randomUUID();
  const subscription = subscriptionOf(
    { subscriptionStatus: 'trialing', ...options, subscriptionId },
    createdAt,
  );
  return polarEvent(
    'subscription.created',
    {
      ...subscription,
      metadata: options.metadata ?? options.subscriptionMetadata ?? {},
      customer: customerOf(options, createdAt),
      product: PRODUCT,
      discount: null,
      prices: [],
      meters: [],
      pending_update: null,
    },
    at,
  );
}

/** A secret as Polar generates it since 2026-09-08: `whsec_` and 32 random bytes in base64. */
export const newPolarSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** A secret as Polar generated it before (`whsec_` and a 43-character token), or a custom one. */
export const legacyPolarSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/**
 * The headers of one delivery, as Polar's `sign_webhook` builds them. `scheme` is Polar's choice
 * of key; by default the Standard Webhooks key when the secret has that shape, else the legacy one.
 */
export function signPolar(
  body: string,
  secret: string,
  at: Date,
  options: { id?: string; scheme?: PolarKeyScheme } = {},
): Record<string, string> {
  const id = options.id ?? randomUUID();
  const timestamp = Math.floor(at.getTime() / 1000);
  const key =
    polarKey(secret, options.scheme ?? 'standard') ?? (options.scheme ? null : polarKey(secret, 'legacy'));
  if (key === null) throw new Error(`the secret cannot be used with the ${options.scheme} scheme`);
  return {
    'content-type': 'application/json',
    'user-agent': 'polar.sh webhooks',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': polarSignature(key, id, timestamp, body),
    'webhook-api-version': '2026-10',
  };
}
