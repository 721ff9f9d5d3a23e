/**
 * Puts an attributed payment into daily_revenue under every model (the contract with the
 * payments endpoint is in migrations/006_revenue.sql): its gross and its conversion on the day
 * it was paid, then each refund posted before attribution on the refund's own day. A payment
 * nobody can be credited with goes to source '' (unattributed, still in totals). The payment
 * row is locked first and `attributed_at` / `applied` guard every addition, so running this
 * twice adds nothing the second time.
 */
import type { Transaction } from 'kysely';
import type { AttributionModel, DB } from '../db/types.js';
import { ATTRIBUTION_MODELS, type Credits } from './models.js';
import * as store from './revenue-posting.store.js';
import { microToDecimal, splitAmount } from './split-amount.js';

/** The source of revenue no visit could be credited with. */
export const UNATTRIBUTED_SOURCE = '';

type Field = 'gross' | 'refunded' | 'conversions' | 'trials';
type Sums = Record<Field, bigint>;

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** Deltas per (day, model, source) in millionths, turned into rows in a fixed order. */
function createDeltaSheet(currency: string) {
  const sums = new Map<string, Sums>();
  return {
    add(day: string, model: AttributionModel, field: Field, parts: Map<string, bigint>) {
      for (const [source, micro] of parts) {
        const key = JSON.stringify([day, model, source]);
        const row = sums.get(key) ?? { gross: 0n, refunded: 0n, conversions: 0n, trials: 0n };
        row[field] += micro;
        sums.set(key, row);
      }
    },
    rows(): store.RevenueDelta[] {
      return [...sums]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, row]) => {
          const [day, model, source] = JSON.parse(key) as [string, string, string];
          return {
            day,
            model,
            source,
            currency,
            gross: microToDecimal(row.gross),
            refunded: microToDecimal(row.refunded),
            conversions: microToDecimal(row.conversions),
            trials: microToDecimal(row.trials),
          };
        });
    },
  };
}

/**
 * Posts the payment behind a `pay_<id>` conversion; returns the payment for the outbox fact.
 * Throws when the payment row is missing (the job retries).
 */
export async function postPaymentRevenue(
  trx: Transaction<DB>,
  siteId: string,
  paymentId: string,
  credits: Record<AttributionModel, Credits>,
  now: Date,
) {
  const payment = await store.lockPayment(trx, siteId, paymentId);
  if (!payment) throw new Error(`payment ${paymentId} of conversion pay_${paymentId} not found`);
  // With a settlement, revenue is counted in what the processor paid out (payments/payment-write.ts).
  const sheet = createDeltaSheet(payment.settlement_currency ?? payment.currency);
  const sharesUnder = (model: AttributionModel): Credits =>
    credits[model].size > 0 ? credits[model] : new Map([[UNATTRIBUTED_SOURCE, 1]]);

  const isFirstPosting = payment.attributed_at === null;
  if (isFirstPosting) {
    const day = dayOf(new Date(payment.paid_at));
    for (const model of ATTRIBUTION_MODELS) {
      const shares = sharesUnder(model);
      // Trials count as conversions (interface §4.4: they lower average order value) and apart.
      sheet.add(day, model, 'conversions', splitAmount(1, shares));
      if (payment.kind === 'trial') sheet.add(day, model, 'trials', splitAmount(1, shares));
      else
        sheet.add(day, model, 'gross', splitAmount(payment.settlement_minor ?? payment.amount_minor, shares));
    }
  }
  const refunds = await store.loadUnappliedRefunds(trx, siteId, paymentId);
  for (const refund of refunds) {
    const day = dayOf(new Date(refund.refunded_at));
    for (const model of ATTRIBUTION_MODELS) {
      sheet.add(
        day,
        model,
        'refunded',
        splitAmount(refund.settlement_minor ?? refund.amount_minor, sharesUnder(model)),
      );
    }
  }
  await store.addDailyRevenue(trx, siteId, sheet.rows());
  await store.markRefundsApplied(
    trx,
    siteId,
    refunds.map((refund) => refund.id),
  );
  if (isFirstPosting) await store.markPaymentAttributed(trx, siteId, paymentId, now);
  return payment;
}
