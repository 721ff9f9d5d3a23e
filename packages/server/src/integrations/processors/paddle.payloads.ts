/**
 * Paddle Billing event bodies for tests, modelled on the examples of Paddle's webhook reference
 * (developer.paddle.com/webhooks/transactions/transaction-completed, …/subscriptions/
 * subscription-created, …/subscription-trialing, …/adjustments/adjustment-created and
 * adjustment-updated) and the payloads of paddle-node-sdk's notification mocks. Money is a string
 * of minor units; every builder takes the ids, amounts and dates a test cares about.
 */
import { createHmac } from 'node:crypto';

/** A secret key in the format Paddle shows for a notification destination. */
export const PADDLE_TEST_SECRET = 'pdl_ntfset_01hv8x2k9q7m3tr5yw6zc4bdfg_Qm7rT2vXk9LpZ4sN8cW1yH6bJ3dF0gAe';

interface Envelope {
  eventId: string;
  occurredAt: string;
}

function envelope(eventType: string, { eventId, occurredAt }: Envelope, data: object) {
  return {
    event_id: eventId,
    event_type: eventType,
    occurred_at: occurredAt,
    notification_id: `ntf_${eventId.slice(4)}`,
    data,
  };
}

const customData = (visitorId: string | null) =>
  visitorId === null ? null : { touchtrail_visitor_id: visitorId, plan_source: 'pricing-page' };

export interface TransactionParams extends Envelope {
  transactionId: string;
  /** `details.totals.grand_total` in minor units. */
  grandTotal: number;
  currency: string;
  customerId: string | null;
  visitorId: string | null;
  /** `web` for a checkout, `subscription_recurring` for a renewal, … */
  origin: string;
  subscriptionId: string | null;
  billedAt: string | null;
}

/** `transaction.completed`: a paid checkout or a subscription charge, fully processed. */
export function paddleTransactionCompleted(p: TransactionParams) {
  const tax = Math.round(p.grandTotal * 0.08);
  const money = (amount: number) => String(amount);
  const totals = {
    subtotal: money(p.grandTotal - tax),
    discount: '0',
    tax: money(tax),
    total: money(p.grandTotal),
    credit: '0',
    credit_to_balance: '0',
    balance: '0',
    grand_total: money(p.grandTotal),
    fee: money(Math.round(p.grandTotal * 0.05)),
    earnings: money(p.grandTotal - tax - Math.round(p.grandTotal * 0.05)),
    currency_code: p.currency,
  };
  return envelope('transaction.completed', p, {
    id: p.transactionId,
    status: 'completed',
    customer_id: p.customerId,
    address_id: 'add_01h8e18bzb5av13cd16m5gz214',
    business_id: null,
    custom_data: customData(p.visitorId),
    currency_code: p.currency,
    origin: p.origin,
    subscription_id: p.subscriptionId,
    invoice_id: null,
    invoice_number: p.origin === 'web' ? null : 'INV-2026-00042',
    collection_mode: 'automatic',
    discount_id: null,
    billing_details: null,
    billing_period: p.subscriptionId === null ? null : { starts_at: p.billedAt, ends_at: null },
    items: [
      {
        price: {
          id: 'pri_01gsz8x8sawmvhz1pv30nge1ke',
          product_id: 'pro_01gsz4t5hdjse780zja8vvr7jg',
          description: 'Monthly (per seat)',
          unit_price: { amount: money(p.grandTotal - tax), currency_code: p.currency },
          billing_cycle: p.subscriptionId === null ? null : { interval: 'month', frequency: 1 },
          trial_period: null,
          tax_mode: 'account_setting',
          custom_data: null,
        },
        quantity: 1,
      },
    ],
    details: {
      tax_rates_used: [{ tax_rate: '0.08', totals: { subtotal: totals.subtotal, tax: totals.tax } }],
      totals,
      adjusted_totals: { ...totals },
      payout_totals: null,
      line_items: [
        {
          id: 'txnitm_01h8e18cjzkpvj81m223nvag50',
          price_id: 'pri_01gsz8x8sawmvhz1pv30nge1ke',
          quantity: 1,
          tax_rate: '0.08',
          totals: { subtotal: totals.subtotal, discount: '0', tax: totals.tax, total: totals.total },
        },
      ],
    },
    payments: [
      {
        payment_attempt_id: '72d47ad6-d938-4e70-8743-b8678b4ae1b6',
        amount: money(p.grandTotal),
        status: 'captured',
        error_code: null,
        method_details: { type: 'card', card: { type: 'visa', last4: '4242' } },
        created_at: p.billedAt,
        captured_at: p.billedAt,
      },
    ],
    checkout: { url: `https://shop.example/checkout?_ptxn=${p.transactionId}` },
    created_at: p.billedAt,
    updated_at: p.billedAt,
    billed_at: p.billedAt,
  });
}

export interface SubscriptionParams extends Envelope {
  eventType: 'subscription.created' | 'subscription.trialing' | 'subscription.updated';
  subscriptionId: string;
  /** `trialing` for a free trial; `active` once paid. */
  status: string;
  currency: string;
  customerId: string | null;
  visitorId: string | null;
  startedAt: string;
  /** The checkout's transaction, which Paddle names on `subscription.created`. */
  transactionId: string | null;
}

/** `subscription.created` / `subscription.trialing`: a subscription, with a ten-day trial when `trialing`. */
export function paddleSubscription(p: SubscriptionParams) {
  const isTrial = p.status === 'trialing';
  const trialEnds = new Date(new Date(p.startedAt).getTime() + 10 * 86_400_000).toISOString();
  return envelope(p.eventType, p, {
    id: p.subscriptionId,
    transaction_id: p.transactionId,
    status: p.status,
    customer_id: p.customerId,
    address_id: 'add_01h84cjfy5411jpjes4hmafqry',
    business_id: null,
    currency_code: p.currency,
    created_at: p.startedAt,
    updated_at: p.startedAt,
    started_at: p.startedAt,
    first_billed_at: isTrial ? null : p.startedAt,
    next_billed_at: trialEnds,
    paused_at: null,
    canceled_at: null,
    discount: null,
    collection_mode: 'automatic',
    billing_details: null,
    current_billing_period: { starts_at: p.startedAt, ends_at: trialEnds },
    billing_cycle: { interval: 'month', frequency: 1 },
    scheduled_change: null,
    items: [
      {
        status: p.status,
        quantity: 1,
        recurring: true,
        created_at: p.startedAt,
        updated_at: p.startedAt,
        previously_billed_at: null,
        next_billed_at: trialEnds,
        trial_dates: isTrial ? { starts_at: p.startedAt, ends_at: trialEnds } : null,
        price: {
          id: 'pri_01h84cdy3xatsp16afda2gekzy',
          product_id: 'pro_01h84cd36f900f3wmpdfamgv8w',
          description: 'Monthly plan',
          unit_price: { amount: '2900', currency_code: p.currency },
          trial_period: isTrial ? { interval: 'day', frequency: 10 } : null,
          billing_cycle: { interval: 'month', frequency: 1 },
          tax_mode: 'account_setting',
        },
      },
    ],
    custom_data: customData(p.visitorId),
  });
}

export interface AdjustmentParams extends Envelope {
  eventType: 'adjustment.created' | 'adjustment.updated';
  adjustmentId: string;
  transactionId: string;
  /** `refund`, `credit`, `chargeback`, … */
  action: string;
  /** `pending_approval` when created, `approved` or `rejected` once Paddle reviewed it. */
  status: string;
  /** `totals.total` in minor units. */
  amount: number;
  currency: string;
  customerId: string;
  /** `full` or `partial`. */
  type: string;
  createdAt: string;
  /** Paddle sends `0001-01-01T00:00:00Z` until the adjustment is first updated. */
  updatedAt: string;
}

/** `adjustment.created` / `adjustment.updated`: one refund (or credit, chargeback) of a transaction. */
export function paddleAdjustment(p: AdjustmentParams) {
  const tax = Math.round(p.amount * 0.08);
  const totals = { subtotal: String(p.amount - tax), tax: String(tax), total: String(p.amount) };
  return envelope(p.eventType, p, {
    id: p.adjustmentId,
    action: p.action,
    type: p.type,
    transaction_id: p.transactionId,
    subscription_id: null,
    customer_id: p.customerId,
    reason: 'requested_by_customer',
    credit_applied_to_balance: false,
    currency_code: p.currency,
    status: p.status,
    items: [
      {
        id: `adjitm_${p.adjustmentId.slice(4)}`,
        item_id: 'txnitm_01h8e18cjzkpvj81m223nvag50',
        type: p.type,
        amount: String(p.amount),
        proration: null,
        totals,
      },
    ],
    totals: { ...totals, fee: '0', earnings: totals.subtotal, currency_code: p.currency },
    payout_totals: null,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  });
}

/** An event no payment is read from: a customer was created. */
export function paddleCustomerCreated(p: Envelope) {
  return envelope('customer.created', p, {
    id: 'ctm_01h844p3h41s12zs5mn4axja51',
    name: 'Jo Brown',
    email: 'jo.brown@example.com',
    status: 'active',
    locale: 'en',
    marketing_consent: false,
    custom_data: null,
    created_at: p.occurredAt,
    updated_at: p.occurredAt,
  });
}

/**
 * The headers Paddle sends with `body`: `Paddle-Signature: ts=…;h1=…`, the HMAC-SHA256 of
 * `ts:body` keyed with the secret key; one `h1` per secret while a secret is rotated.
 */
export function signPaddle(body: string, secret: string | string[], at: Date): Record<string, string> {
  const ts = String(Math.floor(at.getTime() / 1000));
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const signatures = secrets.map(
    (key) => `h1=${createHmac('sha256', key).update(`${ts}:${body}`).digest('hex')}`,
  );
  return { 'paddle-signature': [`ts=${ts}`, ...signatures].join(';') };
}
