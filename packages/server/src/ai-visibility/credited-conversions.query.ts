/**
 * What AI assistants are credited with in a range, under one model: the conversion events, the
 * payments posted (their gross on the day paid) and the refunds applied (on the day posted),
 * each with the AI-credited shares stored for its conversion and the visits of those assistants
 * that counted toward it (identity/identity.sql.ts), with their entry pages. Gross and refunds
 * follow the revenue ledger: only posted payments and applied refunds, in what the processor
 * paid out (payments/paid-out.sql.ts).
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { AttributionModel, DB } from '../db/types.js';
import { visitsTowardConversion } from '../identity/identity.sql.js';
import { paidOutCurrency, paidOutMinor } from '../payments/paid-out.sql.js';
import { VISIT_DIMENSION_SQL } from '../reporting/visit-columns.sql.js';
import { creditedSourceOf } from '../revenue/credited-source.sql.js';

export interface CreditWindow {
  siteId: string;
  model: AttributionModel;
  start: Date;
  end: Date;
}

/** A conversion: what its credits and touchpoints are looked up by. */
export interface ConversionRef {
  event_id: string;
  visitor_id: string | null;
  person_key: string | null;
  at: Date;
}

export interface MoneyRow extends ConversionRef {
  /** Integer minor units of `currency`. */
  amount_minor: number;
  currency: string;
  /** The UTC day whose exchange rate applies, as in the revenue report. */
  day: string;
}

/** One visit of a credited assistant, or a credit none of whose visits is found (nulls). */
export interface CreditedVisitRow {
  event_id: string;
  source: string;
  share: number;
  visit_id: string | null;
  started_at: Date | null;
  page: string | null;
}

function hasAiCredit(w: CreditWindow, eventId: RawBuilder<unknown>) {
  return sql`exists (
    select 1 from attribution_credits c
    where c.site_id = ${w.siteId} and c.event_id = ${eventId} and c.model = ${w.model} and c.source_kind = 'ai'
  )`;
}

export interface CreditedConversion extends ConversionRef {
  /** The assistant the conversion counts for (its credited source), or null when that is not one. */
  counted_source: string | null;
}

/** Conversion events in the range with credit to an assistant. */
export async function aiCreditedConversions(db: Kysely<DB>, w: CreditWindow): Promise<CreditedConversion[]> {
  const credited = creditedSourceOf({ siteId: w.siteId, eventId: sql.ref('e.event_id'), model: w.model });
  const { rows } = await sql<CreditedConversion>`
    select e.event_id, e.visitor_id, e.person_key, e.occurred_at as at,
      case when credit.source_kind = 'ai' then credit.source end as counted_source
    from events e
    left join lateral ${credited} credit on true
    where e.site_id = ${w.siteId} and e.type = 'event'
      and e.occurred_at >= ${w.start} and e.occurred_at < ${w.end}
      and ${hasAiCredit(w, sql`e.event_id`)}
  `.execute(db);
  return rows;
}

/** Posted payments paid in the range, with credit to an assistant. */
export async function aiCreditedPayments(db: Kysely<DB>, w: CreditWindow): Promise<MoneyRow[]> {
  const { rows } = await sql<MoneyRow>`
    select p.event_id, p.visitor_id, p.person_key, p.paid_at as at,
      ${paidOutMinor('p')} as amount_minor,
      ${paidOutCurrency('p')} as currency,
      to_char(p.paid_at at time zone 'UTC', 'YYYY-MM-DD') as day
    from payments p
    where p.site_id = ${w.siteId} and p.kind = 'payment' and p.attributed_at is not null
      and p.paid_at >= ${w.start} and p.paid_at < ${w.end}
      and ${hasAiCredit(w, sql`p.event_id`)}
  `.execute(db);
  return rows;
}

/** Applied refunds posted in the range, of payments with credit to an assistant. */
export async function aiCreditedRefunds(db: Kysely<DB>, w: CreditWindow): Promise<MoneyRow[]> {
  const { rows } = await sql<MoneyRow>`
    select p.event_id, p.visitor_id, p.person_key, p.paid_at as at,
      ${paidOutMinor('r')} as amount_minor,
      ${paidOutCurrency('p')} as currency,
      to_char(r.refunded_at at time zone 'UTC', 'YYYY-MM-DD') as day
    from refunds r
    join payments p on p.site_id = r.site_id and p.id = r.payment_id
    where r.site_id = ${w.siteId} and r.applied
      and r.refunded_at >= ${w.start} and r.refunded_at < ${w.end}
      and ${hasAiCredit(w, sql`p.event_id`)}
  `.execute(db);
  return rows;
}

/**
 * Each conversion's AI credits under the model, with the visits of each credited assistant
 * among the visits that count toward the conversion (its touchpoints).
 */
export async function creditedVisits(
  db: Kysely<DB>,
  w: CreditWindow,
  conversions: readonly ConversionRef[],
): Promise<CreditedVisitRow[]> {
  if (conversions.length === 0) return [];
  const touchpoints = visitsTowardConversion({
    siteId: w.siteId,
    visitorId: sql.ref('t.visitor_id'),
    personKey: sql.ref('t.person_key'),
    at: sql.ref('t.at'),
  });
  const { rows } = await sql<CreditedVisitRow>`
    select t.event_id, c.source, c.share, v.id as visit_id, v.started_at,
      ${VISIT_DIMENSION_SQL['visit:entry_page']} as page
    from unnest(
      ${conversions.map((c) => c.event_id)}::text[],
      ${conversions.map((c) => c.visitor_id)}::text[],
      ${conversions.map((c) => c.person_key)}::text[],
      ${conversions.map((c) => new Date(c.at).toISOString())}::timestamptz[]
    ) as t(event_id, visitor_id, person_key, at)
    join attribution_credits c
      on c.site_id = ${w.siteId} and c.event_id = t.event_id and c.model = ${w.model} and c.source_kind = 'ai'
    left join lateral ${touchpoints} v on v.source_kind = 'ai' and v.session_ai_source = c.source
  `.execute(db);
  return rows;
}
