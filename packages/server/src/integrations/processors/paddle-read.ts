/**
 * Paddle Billing events read as payment facts. Shapes from Paddle's webhook reference
 * (developer.paddle.com/webhooks: transaction.completed, subscription.created/.trialing,
 * adjustment.created/.updated); money is a string of the currency's lowest denomination
 * ("10 USD is \"1000\"", "100 JPY is \"100\"": developer.paddle.com/api-reference/currencies),
 * which is already the `amount` convention of interface §4.4, so amounts pass through unchanged.
 */
import { PayloadError, type PaymentFacts, type ProcessorEvent } from '../processor.js';

type JsonObject = Record<string, unknown>;

const VISITOR_KEY = 'touchtrail_visitor_id';
const MINOR_UNITS = /^\d+$/;
const CURRENCY_CODE = /^[A-Za-z]{3}$/;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectAt(parent: JsonObject, key: string, path: string): JsonObject {
  const value = parent[key];
  if (!isObject(value)) throw new PayloadError(`${path} is missing or not an object`);
  return value;
}

function stringAt(parent: JsonObject, key: string, path: string): string {
  const value = parent[key];
  if (typeof value !== 'string' || value === '') throw new PayloadError(`${path} is missing or not a string`);
  return value;
}

/** A field the docs call nullable: absent and `null` both read as null. */
function optionalStringAt(parent: JsonObject, key: string, path: string): string | null {
  const value = parent[key];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw new PayloadError(`${path} is not a string`);
  return value;
}

function optionalDateAt(parent: JsonObject, key: string, path: string): Date | null {
  const text = optionalStringAt(parent, key, path);
  if (text === null) return null;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new PayloadError(`${path} is not an RFC 3339 date-time`);
  return date;
}

function dateAt(parent: JsonObject, key: string, path: string): Date {
  const date = optionalDateAt(parent, key, path);
  if (date === null) throw new PayloadError(`${path} is missing`);
  return date;
}

function minorUnitsAt(parent: JsonObject, key: string, path: string): number {
  const value = parent[key];
  const amount = typeof value === 'string' && MINOR_UNITS.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(amount)) throw new PayloadError(`${path} is not a string of minor units`);
  return amount;
}

function currencyAt(parent: JsonObject, key: string, path: string): string {
  const value = parent[key];
  if (typeof value !== 'string' || !CURRENCY_CODE.test(value))
    throw new PayloadError(`${path} is not a three-letter currency code`);
  return value.toUpperCase();
}

/** `custom_data.touchtrail_visitor_id`, set through Paddle.js `customData` at checkout; anything else is no visitor. */
function visitorIdOf(data: JsonObject): string | null {
  const custom = data.custom_data;
  if (!isObject(custom)) return null;
  const visitorId = custom[VISITOR_KEY];
  return typeof visitorId === 'string' && visitorId.trim() !== '' ? visitorId.trim() : null;
}

const NO_REFUND = { refundedTotal: null, refundPart: null, refundedAt: null } as const;

/**
 * A completed transaction is a payment. Transactions Paddle makes for an existing subscription
 * (origin `subscription_recurring`, `subscription_update`, `subscription_charge`) are renewals;
 * the checkout that started it (`web`, `api`) is not. A zero total is no payment: a trial's
 * checkout (the subscription events report the trial) or a payment-method change.
 */
function readTransaction(event: JsonObject, occurredAt: Date): PaymentFacts[] {
  const data = objectAt(event, 'data', 'data');
  const transactionId = stringAt(data, 'id', 'data.id');
  const origin = stringAt(data, 'origin', 'data.origin');
  const details = objectAt(data, 'details', 'data.details');
  const totals = objectAt(details, 'totals', 'data.details.totals');
  // What the customer was charged: after discounts and tax, and after any credit from their balance.
  const amount = minorUnitsAt(totals, 'grand_total', 'data.details.totals.grand_total');
  const currency = currencyAt(data, 'currency_code', 'data.currency_code');
  if (amount === 0) return [];
  return [
    {
      transactionId,
      amount,
      currency,
      trial: false,
      renewal: origin.startsWith('subscription_'),
      customerId: optionalStringAt(data, 'customer_id', 'data.customer_id'),
      visitorId: visitorIdOf(data),
      email: null,
      paidAt: optionalDateAt(data, 'billed_at', 'data.billed_at') ?? occurredAt,
      ...NO_REFUND,
    },
  ];
}

/**
 * A subscription in `trialing` status is a free trial. Its own id (`sub_…`) is the key, so
 * `subscription.created` and `subscription.trialing` for one trial record it once, apart from
 * any paid transaction of the same checkout.
 */
function readSubscription(event: JsonObject, occurredAt: Date): PaymentFacts[] {
  const data = objectAt(event, 'data', 'data');
  if (stringAt(data, 'status', 'data.status') !== 'trialing') return [];
  return [
    {
      transactionId: stringAt(data, 'id', 'data.id'),
      amount: 0,
      currency: currencyAt(data, 'currency_code', 'data.currency_code'),
      trial: true,
      renewal: false,
      customerId: optionalStringAt(data, 'customer_id', 'data.customer_id'),
      visitorId: visitorIdOf(data),
      email: null,
      paidAt: optionalDateAt(data, 'started_at', 'data.started_at') ?? occurredAt,
      ...NO_REFUND,
    },
  ];
}

/**
 * An approved refund adjustment is one refund of its own: Paddle sends each on its own, never a
 * running total, so it goes out as `refundPart` keyed by the adjustment id (seen again when
 * `adjustment.updated` repeats it, it is added once). A refund starts `pending_approval`; a
 * rejected one, credits and chargebacks are acknowledged and ignored.
 *
 * An adjustment does not carry its transaction's total, visitor or payment date, so its facts
 * describe the payment as the refunded amount. The receiving endpoint never records those: a
 * refund whose transaction has not arrived yet is refused (409) and Paddle sends it again.
 */
function readAdjustment(event: JsonObject): PaymentFacts[] {
  const data = objectAt(event, 'data', 'data');
  const action = stringAt(data, 'action', 'data.action');
  const status = stringAt(data, 'status', 'data.status');
  if (action !== 'refund' || status !== 'approved') return [];
  const adjustmentId = stringAt(data, 'id', 'data.id');
  const amount = minorUnitsAt(objectAt(data, 'totals', 'data.totals'), 'total', 'data.totals.total');
  const currency = currencyAt(data, 'currency_code', 'data.currency_code');
  const createdAt = dateAt(data, 'created_at', 'data.created_at');
  // Approval time; Paddle sends 0001-01-01 before an adjustment was ever updated.
  const updatedAt = optionalDateAt(data, 'updated_at', 'data.updated_at');
  if (amount === 0) return [];
  return [
    {
      transactionId: stringAt(data, 'transaction_id', 'data.transaction_id'),
      amount,
      currency,
      trial: false,
      renewal: false,
      customerId: optionalStringAt(data, 'customer_id', 'data.customer_id'),
      visitorId: null,
      email: null,
      paidAt: createdAt,
      refundedTotal: null,
      refundPart: { id: adjustmentId, amount },
      refundedAt: updatedAt !== null && updatedAt >= createdAt ? updatedAt : createdAt,
    },
  ];
}

// A Map, not an object: an event type such as `toString` must not find a reader.
const READERS = new Map<string, (event: JsonObject, occurredAt: Date) => PaymentFacts[]>([
  ['transaction.completed', readTransaction],
  ['subscription.created', readSubscription],
  ['subscription.trialing', readSubscription],
  ['adjustment.created', readAdjustment],
  ['adjustment.updated', readAdjustment],
]);

/** The event types a Paddle notification destination must send us; others are acknowledged and ignored. */
export const PADDLE_EVENT_TYPES = [...READERS.keys()];

/**
 * Reads a verified Paddle event. The customer's email is never in these events (Paddle sends
 * `customer_id` only), so visitors are matched by `custom_data.touchtrail_visitor_id`.
 */
export function readPaddleEvent(payload: unknown): ProcessorEvent {
  if (!isObject(payload)) throw new PayloadError('body is not a JSON object');
  const id = stringAt(payload, 'event_id', 'event_id');
  const type = stringAt(payload, 'event_type', 'event_type');
  const reader = READERS.get(type);
  if (!reader) return { id, type, payments: [] };
  return { id, type, payments: reader(payload, dateAt(payload, 'occurred_at', 'occurred_at')) };
}
