/**
 * What one exported record holds, per kind: the one list of fields both formats write (ndjson
 * as an object after `record`, csv as the header and cells in this order). Times are ISO-8601
 * UTC; payment amounts are decimal text in major units of their currency. No field is a
 * keyed hash: `person_key` and the like stay behind.
 */
import { currencyExponent } from '../lib/money.js';
import type { EventRow, PaymentRow, VisitRow } from './site-export.queries.js';

export const RECORD_KINDS = ['visits', 'events', 'payments'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** The `record` value of each kind's ndjson lines. */
export const RECORD_NAMES: Record<RecordKind, string> = {
  visits: 'visit',
  events: 'event',
  payments: 'payment',
};

export type FieldValue = string | number | boolean | null | Record<string, unknown>;

export const VISIT_FIELDS = [
  'id',
  'visitor_id',
  'started_at',
  'last_activity_at',
  'entry_url',
  'exit_url',
  'source_kind',
  'session_ai_source',
  'source_name',
  'campaign',
  'utm_source',
  'utm_medium',
  'utm_content',
  'utm_term',
  'ref',
  'device_type',
  'os',
  'browser',
  'country_code',
  'city',
  'pageviews',
  'engaged_seconds',
  'is_new',
] as const;

const EVENT_FIELDS = [
  'id',
  'type',
  'name',
  'visitor_id',
  'visit_id',
  'occurred_at',
  'url',
  'properties',
  'value_minor',
  'currency',
  'origin',
] as const;

const PAYMENT_FIELDS = [
  'provider',
  'transaction_id',
  'kind',
  'amount',
  'currency',
  'refunded_amount',
  'renewal',
  'customer_id',
  'visitor_id',
  'paid_at',
  'event_id',
] as const;

/** Each kind's fields, in the order the csv header lists them. */
export const FIELDS: Record<RecordKind, readonly string[]> = {
  visits: VISIT_FIELDS,
  events: EVENT_FIELDS,
  payments: PAYMENT_FIELDS,
};

type Fields<Names extends readonly string[]> = { [Name in Names[number]]: FieldValue };

export function visitFields(row: VisitRow): Fields<typeof VISIT_FIELDS> {
  return {
    id: row.id,
    visitor_id: row.visitor_id,
    started_at: row.started_at.toISOString(),
    last_activity_at: row.last_activity_at.toISOString(),
    entry_url: row.entry_url,
    exit_url: row.exit_url,
    source_kind: row.source_kind,
    session_ai_source: row.session_ai_source,
    source_name: row.source_name,
    campaign: row.campaign,
    utm_source: row.utm_source,
    utm_medium: row.utm_medium,
    utm_content: row.utm_content,
    utm_term: row.utm_term,
    ref: row.ref,
    device_type: row.device_type,
    os: row.os,
    browser: row.browser,
    country_code: row.country_code,
    city: row.city,
    pageviews: row.pageviews,
    engaged_seconds: row.engaged_seconds,
    is_new: row.is_new,
  };
}

export function eventFields(row: EventRow): Fields<typeof EVENT_FIELDS> {
  return {
    id: row.event_id,
    type: row.type,
    name: row.name,
    visitor_id: row.visitor_id,
    visit_id: row.visit_id,
    occurred_at: row.occurred_at.toISOString(),
    url: row.url,
    properties: row.properties,
    value_minor: row.value_minor,
    currency: row.currency,
    origin: row.origin,
  };
}

export function paymentFields(row: PaymentRow): Fields<typeof PAYMENT_FIELDS> {
  return {
    provider: row.provider,
    transaction_id: row.transaction_id,
    kind: row.kind,
    amount: majorUnitsText(row.amount_minor, row.currency),
    currency: row.currency,
    refunded_amount: majorUnitsText(row.refunded_minor, row.currency),
    renewal: row.renewal,
    customer_id: row.customer_id,
    visitor_id: row.visitor_id,
    paid_at: row.paid_at.toISOString(),
    event_id: row.event_id,
  };
}

/**
 * Whole minor units as exact decimal text in major units (1234 USD cents → "12.34", 500 JPY →
 * "500", 1005 KWD fils → "1.005"), never through floating point.
 */
export function majorUnitsText(minor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  if (exponent === 0) return String(minor);
  const digits = String(minor).padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}
