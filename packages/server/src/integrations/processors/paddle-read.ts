/**
 * Paddle Billing events read as payment facts. Shapes from Paddle's webhook reference
 * (developer.paddle.com/webhooks: transaction.completed, subscription.created/.trialing,
 * adjustment.created/.updated); money is a string of the currency's lowest denomination
 * ("10 USD is \"1000\"", "100 JPY is \"100\"": developer.paddle.com/api-reference/currencies),
 * which is already the `amount` convention of interface §4.4, so amounts pass through unchanged.
 */
import { PayloadError, type PaymentFacts, type ProcessorEvent } from '../processor.js';
import { isJsonObject, jsonFieldReaders, type Located, pathOf } from './json-fields.js';

const VISITOR_KEY = 'touchtrail_visitor_id';
const MINOR_UNITS = /^\d+$/;
const CURRENCY_CODE = /^[A-Za-z]{3}$/;

/** The optional string read is for fields the docs call nullable: absent and `null` both read as null. */
const { objectAt, stringAt, optionalStringAt } = jsonFieldReaders({
  object: 'is missing or not an object',
  string: 'is missing or not a string',
  stringOrNull: 'is not a string',
});

function optionalDateAt(parent: Located, key: string): Date | null {
  const text = optionalStringAt(parent, key);
  if (text === null) return null;
  const date = new Date(text);
  if (Number.isNaN(date.getTime()))
    throw new PayloadError(`${pathOf(parent, key)} is not an RFC 3339 date-time`);
  return date;
}

function dateAt(parent: Located, key: string): Date {
  const date = optionalDateAt(parent, key);
  if (date === null) throw new PayloadError(`${pathOf(parent, key)} is missing`);
  return date;
}

function minorUnitsAt(parent: Located, key: string): number {
  const value = parent.value[key];
  const amount = typeof value === 'string' && MINOR_UNITS.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(amount))
    throw new PayloadError(`${pathOf(parent, key)} is not a string of minor units`);
  return amount;
}

function currencyAt(parent: Located, key: string): string {
  const value = parent.value[key];
  if (typeof value !== 'string' || !CURRENCY_CODE.test(value))
    throw new PayloadError(`${pathOf(parent, key)} is not a three-letter currency code`);
  return value.toUpperCase();
}

/** `custom_data.touchtrail_visitor_id`, set through Paddle.js `customData` at checkout; anything else is no visitor. */
function visitorIdOf(data: Located): string | null {
  const custom = data.value.custom_data;
  if (!isJsonObject(custom)) return null;
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
function readTransaction(event: Located, occurredAt: Date): PaymentFacts[] {
  const data = objectAt(event, 'data');
  const transactionId = stringAt(data, 'id');
  const origin = stringAt(data, 'origin');
  const details = objectAt(data, 'details');
  const totals = objectAt(details, 'totals');
  // What the customer was charged: after discounts and tax, and after any credit from their balance.
  const amount = minorUnitsAt(totals, 'grand_total');
  const currency = currencyAt(data, 'currency_code');
  if (amount === 0) return [];
  return [
    {
      transactionId,
      amount,
      currency,
      trial: false,
      renewal: origin.startsWith('subscription_'),
      customerId: optionalStringAt(data, 'customer_id'),
      visitorId: visitorIdOf(data),
      email: null,
      paidAt: optionalDateAt(data, 'billed_at') ?? occurredAt,
      ...NO_REFUND,
    },
  ];
}

/**
 * A subscription in `trialing` status is a free trial. Its own id (`sub_…`) is the key, so
 * `subscription.created` and `subscription.trialing` for one trial record it once, apart from
 * any paid transaction of the same checkout.
 */
function readSubscription(event: Located, occurredAt: Date): PaymentFacts[] {
  const data = objectAt(event, 'data');
  if (stringAt(data, 'status') !== 'trialing') return [];
  return [
    {
      transactionId: stringAt(data, 'id'),
      amount: 0,
      currency: currencyAt(data, 'currency_code'),
      trial: true,
      renewal: false,
      customerId: optionalStringAt(data, 'customer_id'),
      visitorId: visitorIdOf(data),
      email: null,
      paidAt: optionalDateAt(data, 'started_at') ?? occurredAt,
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
function readAdjustment(event: Located): PaymentFacts[] {
  const data = objectAt(event, 'data');
  const action = stringAt(data, 'action');
  const status = stringAt(data, 'status');
  if (action !== 'refund' || status !== 'approved') return [];
  const adjustmentId = stringAt(data, 'id');
  const amount = minorUnitsAt(objectAt(data, 'totals'), 'total');
  const currency = currencyAt(data, 'currency_code');
  const createdAt = dateAt(data, 'created_at');
  // Approval time; Paddle sends 0001-01-01 before an adjustment was ever updated.
  const updatedAt = optionalDateAt(data, 'updated_at');
  if (amount === 0) return [];
  return [
    {
      transactionId: stringAt(data, 'transaction_id'),
      amount,
      currency,
      trial: false,
      renewal: false,
      customerId: optionalStringAt(data, 'customer_id'),
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
const READERS = new Map<string, (event: Located, occurredAt: Date) => PaymentFacts[]>([
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
  if (!isJsonObject(payload)) throw new PayloadError('body is not a JSON object');
  const event: Located = { value: payload, path: '' };
  const id = stringAt(event, 'event_id');
  const type = stringAt(event, 'event_type');
  const reader = READERS.get(type);
  if (!reader) return { id, type, payments: [] };
  return { id, type, payments: reader(event, dateAt(event, 'occurred_at')) };
}
