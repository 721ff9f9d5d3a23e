/**
 * One attribution job's work, inside its transaction: find the visits that count toward the
 * conversion (identity/identity.ts), store credits under all four models, post a payment to the
 * revenue ledger, and queue the `conversion.attributed` fact. Credits already stored (a job run
 * again) are reused, never recomputed, so a conversion is attributed once.
 */
import type { Transaction } from 'kysely';
import type { AttributionModel, DB } from '../db/types.js';
import { PAYMENT_EVENT_NAMES } from '../goals/goal-names.js';
import { newId } from '../lib/ids.js';
import { type LedgerPayment, lockPayment, postPayment } from '../revenue/revenue-ledger.js';
import * as store from './attribution.store.js';
import {
  ATTRIBUTION_MODELS,
  attributeUnderAllModels,
  type Credits,
  creditsInOrder,
  sourceKinds,
} from './models.js';
import { loadCredits } from './stored-credits.query.js';

const PAYMENTS: ReadonlySet<string> = new Set(PAYMENT_EVENT_NAMES);

/** Test seams: called between steps, inside the job's transaction. */
export interface AttributionHooks {
  afterCredits?: (job: store.ClaimedJob, trx: Transaction<DB>) => void | Promise<void>;
}

function creditRowsOf(
  credits: Record<AttributionModel, Credits>,
  kinds: Map<string, string>,
): store.CreditRow[] {
  return ATTRIBUTION_MODELS.flatMap((model) =>
    [...credits[model]].map(([source, share]) => ({
      model,
      source,
      source_kind: kinds.get(source) ?? 'unknown',
      share,
    })),
  );
}

function creditsOf(rows: store.CreditRow[]): Record<AttributionModel, Credits> {
  const credits = Object.fromEntries(ATTRIBUTION_MODELS.map((model) => [model, new Map()])) as Record<
    AttributionModel,
    Credits
  >;
  for (const row of rows) credits[row.model].set(row.source, row.share);
  return credits;
}

/** The stored credits of the conversion, computing and storing them first if there are none. */
async function creditConversion(
  trx: Transaction<DB>,
  siteId: string,
  conversion: NonNullable<Awaited<ReturnType<typeof store.loadConversion>>>,
): Promise<store.CreditRow[]> {
  const stored = await loadCredits(trx, siteId, conversion.event_id);
  if (stored.length > 0) return stored;
  const at = new Date(conversion.occurred_at);
  const touchpoints = await store.loadTouchpoints(trx, siteId, {
    visitorId: conversion.visitor_id,
    personKey: conversion.person_key,
    at,
  });
  const rows = creditRowsOf(attributeUnderAllModels(touchpoints, at), sourceKinds(touchpoints));
  await store.insertCredits(trx, siteId, conversion.event_id, rows);
  return rows;
}

export async function attributeConversion(
  trx: Transaction<DB>,
  job: store.ClaimedJob,
  now: Date,
  hooks: AttributionHooks = {},
): Promise<void> {
  const conversion = await store.loadConversion(trx, job.site_id, job.event_id);
  // A conversion whose event is not (yet) visible is retried, then marked failed.
  if (!conversion) throw new Error(`conversion event ${job.event_id} not found`);
  const rows = await creditConversion(trx, job.site_id, conversion);
  await hooks.afterCredits?.(job, trx);

  const payment = PAYMENTS.has(conversion.name ?? '')
    ? await lockPayment(trx, job.site_id, { eventId: conversion.event_id })
    : null;
  // The payment and its event are written in one transaction; missing, the job retries.
  if (payment === undefined) throw new Error(`payment of conversion ${conversion.event_id} not found`);

  // Queued before the ledger posts the payment, so its refunds' facts come after this one.
  await store.insertOutboxEvent(trx, {
    site_id: job.site_id,
    id: newId(),
    type: 'conversion.attributed',
    dedupe_key: conversion.event_id,
    payload: {
      site_id: conversion.snippet_key,
      event_id: conversion.event_id,
      event_name: conversion.name,
      occurred_at: new Date(conversion.occurred_at).toISOString(),
      value_cents: payment ? payment.amount_minor : (conversion.value_minor ?? 0),
      currency: payment ? payment.currency : (conversion.currency ?? conversion.site_currency),
      ...paymentFacts(payment),
      credits: Object.fromEntries(
        ATTRIBUTION_MODELS.map((model) => [
          model,
          creditsInOrder(rows, model).map(({ source, source_kind, share }) => ({
            source,
            source_kind,
            share,
          })),
        ]),
      ),
    },
    created_at: now,
  });
  if (payment) await postPayment(trx, job.site_id, payment, creditsOf(rows), now);
}

/**
 * What a backend matches a payment by: its `transaction_id` and `provider`, whether it renews,
 * and the minor units refunded before it was attributed (each such refund is also sent as its
 * own `conversion.refunded`). Null for a goal conversion, so the fields are always present.
 */
function paymentFacts(payment: LedgerPayment | null) {
  return {
    transaction_id: payment?.transaction_id ?? null,
    provider: payment?.provider ?? null,
    renewal: payment?.renewal ?? null,
    refunded_cents: payment?.refunded_minor ?? null,
  };
}
