/**
 * Lemon Squeezy webhook bodies for tests, shaped like the documentation's examples:
 * orders from https://docs.lemonsqueezy.com/api/orders (the order object and its refund
 * example), invoices from https://docs.lemonsqueezy.com/api/subscription-invoices, the
 * subscription from the `subscription_created` example in
 * https://docs.lemonsqueezy.com/guides/developer-guide/webhooks . Custom checkout data rides in
 * `meta.custom_data` (https://docs.lemonsqueezy.com/help/webhooks/webhook-requests).
 */
import { createHmac } from 'node:crypto';

interface Common {
  /** `data.id`. */
  id?: string;
  eventName?: string;
  customerId?: number;
  email?: string | null;
  /** `meta.custom_data`; `touchtrail_visitor_id` goes here. */
  customData?: Record<string, unknown> | null;
  createdAt?: string;
  updatedAt?: string;
  testMode?: boolean;
}

interface Charge extends Common {
  /** `total`, in cents as Lemon Squeezy sends it (JPY: yen). */
  total?: number;
  currency?: string;
  status?: 'pending' | 'failed' | 'paid' | 'refunded' | 'partial_refund' | 'void';
  /** Cumulative, in cents; present on refund events. */
  refundedAmount?: number;
  refundedAt?: string | null;
}

export interface OrderOptions extends Charge {
  eventName?: 'order_created' | 'order_refunded' | string;
}

export interface InvoiceOptions extends Charge {
  eventName?: 'subscription_payment_success' | 'subscription_payment_refunded' | string;
  billingReason?: 'initial' | 'renewal' | 'updated';
  subscriptionId?: number;
}

export interface SubscriptionOptions extends Common {
  status?: 'on_trial' | 'active' | 'paused' | 'past_due' | 'unpaid' | 'cancelled' | 'expired';
  orderId?: number;
  trialEndsAt?: string | null;
}

/** A date as Lemon Squeezy writes it, with microseconds: `2026-11-20T09:45:53.000000Z`. */
export function lemonSqueezyTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

const STORE_ID = 1;
const API = 'https://api.lemonsqueezy.com/v1';

function metaOf(options: Common, eventName: string) {
  const meta: Record<string, unknown> = { test_mode: options.testMode ?? false, event_name: eventName };
  if (options.customData !== undefined) meta.custom_data = options.customData;
  meta.webhook_id = '3f2b8a1c-5d4e-4f6a-9b7c-8d9e0f1a2b3c';
  return meta;
}

/** Money fields of an order or invoice: no tax, no discount, so subtotal = total. */
function moneyOf(options: Charge) {
  const total = options.total ?? 1199;
  const refunded = options.refundedAmount ?? 0;
  return {
    currency: options.currency ?? 'USD',
    currency_rate: '1.00000000',
    subtotal: total,
    discount_total: 0,
    tax: 0,
    tax_inclusive: false,
    total,
    refunded_amount: refunded,
    subtotal_usd: total,
    discount_total_usd: 0,
    tax_usd: 0,
    total_usd: total,
    refunded_amount_usd: refunded,
    status: options.status ?? (refunded === 0 ? 'paid' : refunded >= total ? 'refunded' : 'partial_refund'),
    refunded: refunded > 0,
    refunded_at: options.refundedAt ?? (refunded > 0 ? (options.updatedAt ?? null) : null),
  };
}

function relationshipsOf(type: string, id: string, names: string[]) {
  return Object.fromEntries(
    names.map((name) => [
      name,
      {
        links: {
          related: `${API}/${type}/${id}/${name}`,
          self: `${API}/${type}/${id}/relationships/${name}`,
        },
      },
    ]),
  );
}

/** `order_created` by default; pass `eventName: 'order_refunded'` and `refundedAmount` for a refund. */
export function orderEvent(options: OrderOptions = {}) {
  const id = options.id ?? '1';
  const createdAt = options.createdAt ?? '2026-11-20T09:45:53.000000Z';
  const money = moneyOf(options);
  return {
    meta: metaOf(options, options.eventName ?? 'order_created'),
    data: {
      type: 'orders',
      id,
      attributes: {
        store_id: STORE_ID,
        customer_id: options.customerId ?? 1,
        identifier: '104e18a2-d755-4d4b-80c4-a6c1dcbe1c10',
        order_number: Number(id) || 1,
        user_name: 'John Doe',
        user_email: options.email === undefined ? 'john@example.com' : options.email,
        ...money,
        setup_fee: 0,
        setup_fee_usd: 0,
        tax_name: null,
        tax_rate: '0.00',
        status_formatted: money.status,
        first_order_item: {
          id: 1,
          order_id: Number(id) || 1,
          product_id: 1,
          variant_id: 1,
          price_id: 1,
          product_name: 'Test Limited License for 2 years',
          variant_name: 'Default',
          price: money.total,
          quantity: 1,
          created_at: createdAt,
          updated_at: createdAt,
          test_mode: options.testMode ?? false,
        },
        urls: { receipt: `https://app.lemonsqueezy.com/my-orders/104e18a2?signature=${'0'.repeat(64)}` },
        created_at: createdAt,
        updated_at: options.updatedAt ?? createdAt,
        test_mode: options.testMode ?? false,
      },
      relationships: relationshipsOf('orders', id, ['store', 'customer', 'order-items', 'subscriptions']),
      links: { self: `${API}/orders/${id}` },
    },
  };
}

/** `subscription_payment_success` by default; `subscription_payment_refunded` with `refundedAmount`. */
export function subscriptionInvoiceEvent(options: InvoiceOptions = {}) {
  const id = options.id ?? '1';
  const createdAt = options.createdAt ?? '2026-11-20T09:45:53.000000Z';
  const money = moneyOf({ total: 999, ...options });
  return {
    meta: metaOf(options, options.eventName ?? 'subscription_payment_success'),
    data: {
      type: 'subscription-invoices',
      id,
      attributes: {
        store_id: STORE_ID,
        subscription_id: options.subscriptionId ?? 1,
        customer_id: options.customerId ?? 1,
        user_name: 'John Doe',
        user_email: options.email === undefined ? 'john@example.com' : options.email,
        billing_reason: options.billingReason ?? 'renewal',
        card_brand: 'visa',
        card_last_four: '4242',
        ...money,
        status_formatted: money.status,
        urls: { invoice_url: 'https://app.lemonsqueezy.com/my-orders/.../subscription-invoice/...' },
        created_at: createdAt,
        updated_at: options.updatedAt ?? createdAt,
        test_mode: options.testMode ?? false,
      },
      relationships: relationshipsOf('subscription-invoices', id, ['store', 'subscription', 'customer']),
      links: { self: `${API}/subscription-invoices/${id}` },
    },
  };
}

/** `subscription_created`, on a free trial by default. */
export function subscriptionEvent(options: SubscriptionOptions = {}) {
  const id = options.id ?? '1';
  const createdAt = options.createdAt ?? '2026-11-20T09:45:53.000000Z';
  const status = options.status ?? 'on_trial';
  return {
    meta: metaOf(options, options.eventName ?? 'subscription_created'),
    data: {
      type: 'subscriptions',
      id,
      attributes: {
        store_id: STORE_ID,
        customer_id: options.customerId ?? 1,
        order_id: options.orderId ?? 1,
        order_item_id: 1,
        product_id: 1,
        variant_id: 1,
        product_name: 'Subscription One',
        variant_name: 'Default',
        user_name: 'Dan R',
        user_email: options.email === undefined ? 'dan@example.com' : options.email,
        status,
        status_formatted: status,
        card_brand: 'visa',
        card_last_four: '4242',
        pause: null,
        cancelled: false,
        trial_ends_at:
          options.trialEndsAt === undefined ? '2026-12-04T09:45:53.000000Z' : options.trialEndsAt,
        billing_anchor: 20,
        first_subscription_item: { id: 1, subscription_id: Number(id) || 1, price_id: 1, quantity: 1 },
        urls: { update_payment_method: 'https://example.lemonsqueezy.com/subscription/1/payment-details' },
        renews_at: '2026-12-04T09:45:53.000000Z',
        ends_at: null,
        created_at: createdAt,
        updated_at: options.updatedAt ?? createdAt,
        test_mode: options.testMode ?? false,
      },
      relationships: relationshipsOf('subscriptions', id, ['store', 'customer', 'order', 'order-item']),
      links: { self: `${API}/subscriptions/${id}` },
    },
  };
}

/**
 * The headers Lemon Squeezy sends with `body`: `X-Signature` is the hex HMAC-SHA256 of the raw
 * body with the webhook's secret. It signs no time, so `at` is accepted only to match the other
 * processors' helpers and changes nothing.
 */
export function signLemonSqueezy(body: string, secret: string, _at?: Date): Record<string, string> {
  let eventName = '';
  try {
    eventName = String(JSON.parse(body)?.meta?.event_name ?? '');
  } catch {
    // A test of a body that is not JSON still gets a signature.
  }
  return {
    'content-type': 'application/json',
    'x-event-name': eventName,
    'x-signature': createHmac('sha256', secret).update(body, 'utf8').digest('hex'),
  };
}
