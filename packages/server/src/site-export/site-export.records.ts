/**
 * What one exported record holds, per kind: the one list of fields both formats write (ndjson
 * as an object after `record`, csv as the header and cells in this order). Times are ISO-8601
 * UTC; payment amounts are decimal text in major units of their currency. No field is a
 * keyed hash: `person_key` and the like stay behind.
 */
import { majorUnitsText } from '../lib/money.js';
import {
  type EventRow,
  type ImportedDayRow,
  type PaymentRow,
  VISIT_COLUMNS,
  type VisitRow,
} from './site-export.query.js';

export const RECORD_KINDS = ['visits', 'events', 'payments', 'imported_days'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** The `record` value of each kind's ndjson lines. */
export const RECORD_NAMES: Record<RecordKind, string> = {
  visits: 'visit',
  events: 'event',
  payments: 'payment',
  imported_days: 'imported_day',
};

export type FieldValue = string | number | boolean | null | Record<string, unknown>;

/** Visits export the columns they are read with, times as ISO-8601. */
const VISIT_FIELDS = VISIT_COLUMNS;

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

/** An import's daily counts of one dimension value ('' dimension: the day's totals). */
const IMPORTED_DAY_FIELDS = [
  'import_id',
  'source',
  'day',
  'dimension',
  'value',
  'visitors',
  'visits',
  'pageviews',
  'bounces',
  'duration_seconds',
  'events',
] as const;

/** Each kind's fields, in the order the csv header lists them. */
export const FIELDS: Record<RecordKind, readonly string[]> = {
  visits: VISIT_FIELDS,
  events: EVENT_FIELDS,
  payments: PAYMENT_FIELDS,
  imported_days: IMPORTED_DAY_FIELDS,
};

export function importedDayFields({
  cursor_at: _cursor,
  ...row
}: ImportedDayRow): Fields<typeof IMPORTED_DAY_FIELDS> {
  return row;
}

type Fields<Names extends readonly string[]> = { [Name in Names[number]]: FieldValue };

export function visitFields({ cursor_at: _cursor, ...row }: VisitRow): Fields<typeof VISIT_FIELDS> {
  return {
    ...row,
    started_at: row.started_at.toISOString(),
    last_activity_at: row.last_activity_at.toISOString(),
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
