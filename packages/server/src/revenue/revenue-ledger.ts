/**
 * The revenue ledger: the one writer of daily_revenue. The attribution job posts a payment once
 * it has credited it (`postPayment`): its gross and conversion on the day it was paid, then each
 * refund recorded before, on the refund's own day. The payments endpoint records refunds
 * (`postRefund`), posted at once when the payment is already in the ledger. Revenue nobody can
 * be credited with goes to source '' (unattributed, still in totals). With a settlement, revenue
 * is counted in what the processor paid out (payments/paid-out.sql.ts), and each refund in its
 * share of it.
 *
 * Both callers lock the payment row first (`lockPayment`), so a refund and the payment's posting
 * never interleave. `payments.attributed_at` says the payment is posted; a refund's `applied`
 * says it is in daily_revenue. A refund that arrives before its payment is posted cannot be split
 * yet (the credits do not exist), so it is stored unapplied and `postPayment` posts it later; the
 * flag is written and read here only, and makes posting twice add nothing the second time.
 * Applying a refund also queues its `conversion.refunded` fact (attribution/refund-fact.ts), in the
 * same transaction: at once, or with the payment's posting for a refund that came first.
 */
import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { ATTRIBUTION_MODELS, type Credits } from '../attribution/models.js';
import { queueRefundFact } from '../attribution/refund-fact.js';
import { loadCredits } from '../attribution/stored-credits.query.js';
import type { AttributionModel, DB } from '../db/types.js';
import { paidOutCurrencyOf, paidOutMinorOf } from '../payments/paid-out.sql.js';
import { countOnce } from './credited-source.js';
import { createDeltaSheet } from './revenue-deltas.js';
import * as store from './revenue-ledger.store.js';
import { microToDecimal, splitAmount } from './split-amount.js';

type Trx = Transaction<DB>;

export type { LedgerPayment, PaymentKey } from './revenue-ledger.store.js';

/** The source of revenue no visit could be credited with (the unattributed row). */
export const UNATTRIBUTED_SOURCE = '';

export interface Credit {
  model: AttributionModel;
  source: string;
  share: number;
}

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** A model's credited sources, or the unattributed source alone when it credited nobody. */
function sharesUnder(credits: ReadonlyMap<string, number>): Credits {
  return credits.size > 0 ? new Map(credits) : new Map([[UNATTRIBUTED_SOURCE, 1]]);
}

/**
 * Locks the payment row for the rest of the transaction; every caller of the ledger locks it
 * first, in the same way.
 */
export function lockPayment(trx: Trx, siteId: string, key: store.PaymentKey) {
  return store.lockPayment(trx, siteId, key);
}

/**
 * Each model's part of a refund, as exact decimal text of minor units: split over the payment's
 * credits for that model exactly as its gross was (split-amount.ts, so a full refund cancels
 * every source to the millionth), or wholly to the unattributed source when the model credited
 * nobody. Ordered by model, then source.
 */
export function splitRefund(credits: readonly Credit[], amountMinor: number) {
  return ATTRIBUTION_MODELS.flatMap((model) => {
    const own = new Map(credits.filter((c) => c.model === model).map((c) => [c.source, c.share]));
    return [...splitAmount(amountMinor, sharesUnder(own))].map(([source, micro]) => ({
      model,
      source,
      amountMinor: microToDecimal(micro),
    }));
  });
}

/**
 * Posts the payment behind a conversion under the credits the attribution job gave it (the
 * payment row locked by `lockPayment`), with the refunds recorded before.
 */
export async function postPayment(
  trx: Trx,
  siteId: string,
  payment: store.LedgerPayment,
  credits: Record<AttributionModel, Credits>,
  now: Date,
): Promise<void> {
  const sheet = createDeltaSheet(paidOutCurrencyOf(payment));
  const isFirstPosting = payment.attributed_at === null;
  if (isFirstPosting) {
    const day = dayOf(new Date(payment.paid_at));
    for (const model of ATTRIBUTION_MODELS) {
      const shares = sharesUnder(credits[model]);
      // Money is split by share; the conversion counts once, for its credited source. Trials
      // count as conversions (interface §4.4: they lower average order value) and apart.
      sheet.add(day, model, 'conversions', countOnce(shares));
      if (payment.kind === 'trial') sheet.add(day, model, 'trials', countOnce(shares));
      else sheet.add(day, model, 'gross', splitAmount(paidOutMinorOf(payment), shares));
    }
  }
  const refunds = await store.loadUnappliedRefunds(trx, siteId, payment.id);
  for (const refund of refunds) {
    const day = dayOf(new Date(refund.refunded_at));
    for (const model of ATTRIBUTION_MODELS) {
      const amount = paidOutMinorOf(refund);
      sheet.add(day, model, 'refunded', splitAmount(amount, sharesUnder(credits[model])));
    }
  }
  await store.addDailyRevenue(trx, siteId, sheet.rows());
  await store.markRefundsApplied(
    trx,
    siteId,
    refunds.map((refund) => refund.id),
  );
  if (isFirstPosting) await store.markPaymentAttributed(trx, siteId, payment.id, now);
  if (refunds.length === 0) return;
  const sourceCredits = await loadCredits(trx, siteId, payment.event_id);
  for (const refund of refunds) {
    const applied = {
      id: refund.id,
      amountMinor: refund.amount_minor,
      refundedAt: new Date(refund.refunded_at),
    };
    await queueRefundFact(trx, siteId, payment, applied, sourceCredits, now);
  }
}

/**
 * Records a refund of the payment (locked by `lockPayment`) and, when the payment is already
 * posted, takes it out of daily_revenue at once: on the refund's own day, against the sources
 * the payment was credited to.
 */
export async function postRefund(
  trx: Trx,
  siteId: string,
  payment: store.LedgerPayment,
  refund: { amountMinor: number; settlementMinor: number | null; refundedAt: Date },
  now: Date,
): Promise<void> {
  const isPosted = payment.attributed_at !== null;
  const refundId = randomUUID();
  const row = {
    site_id: siteId,
    id: refundId,
    payment_id: payment.id,
    amount_minor: refund.amountMinor,
    settlement_minor: refund.settlementMinor,
    refunded_at: refund.refundedAt,
    created_at: now,
    applied: isPosted,
  };
  await store.insertRefund(trx, row);
  if (!isPosted) return;
  const credits = await loadCredits(trx, siteId, payment.event_id);
  const day = dayOf(refund.refundedAt);
  await store.addDailyRevenue(
    trx,
    siteId,
    splitRefund(credits, paidOutMinorOf(row)).map((part) => ({
      day,
      model: part.model,
      source: part.source,
      currency: paidOutCurrencyOf(payment),
      gross: '0',
      refunded: part.amountMinor,
      conversions: '0',
      trials: '0',
    })),
  );
  const applied = { id: refundId, amountMinor: refund.amountMinor, refundedAt: refund.refundedAt };
  await queueRefundFact(trx, siteId, payment, applied, credits, now);
}
