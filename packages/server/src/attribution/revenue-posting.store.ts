/**
 * SQL for posting a payment's attributed revenue: the payment row (locked, so a refund posted
 * at the same moment waits and then sees `attributed_at`), its refunds not yet in the rollup,
 * and additive upserts into daily_revenue.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/types.js';

type Trx = Transaction<DB>;

/** Locks the payment for the rest of the transaction (the payments endpoint locks it too). */
export function lockPayment(trx: Trx, siteId: string, paymentId: string) {
  return trx
    .selectFrom('payments')
    .select([
      'id',
      'kind',
      'amount_minor',
      'currency',
      'settlement_minor',
      'settlement_currency',
      'paid_at',
      'attributed_at',
    ])
    .where('site_id', '=', siteId)
    .where('id', '=', paymentId)
    .forUpdate()
    .executeTakeFirst();
}

export function loadUnappliedRefunds(trx: Trx, siteId: string, paymentId: string) {
  return trx
    .selectFrom('refunds')
    .select(['id', 'amount_minor', 'settlement_minor', 'refunded_at'])
    .where('site_id', '=', siteId)
    .where('payment_id', '=', paymentId)
    .where('applied', '=', false)
    .orderBy('refunded_at')
    .forUpdate()
    .execute();
}

export async function markRefundsApplied(trx: Trx, siteId: string, refundIds: string[]) {
  if (refundIds.length === 0) return;
  await trx
    .updateTable('refunds')
    .set({ applied: true })
    .where('site_id', '=', siteId)
    .where('id', 'in', refundIds)
    .execute();
}

export async function markPaymentAttributed(trx: Trx, siteId: string, paymentId: string, now: Date) {
  await trx
    .updateTable('payments')
    .set({ attributed_at: now })
    .where('site_id', '=', siteId)
    .where('id', '=', paymentId)
    .where('attributed_at', 'is', null)
    .execute();
}

/** Amounts to add to one daily_revenue row, as exact decimal text. */
export interface RevenueDelta {
  day: string;
  model: string;
  source: string;
  currency: string;
  gross: string;
  refunded: string;
  conversions: string;
  trials: string;
}

/**
 * Adds the deltas to their rows, creating rows as needed. Callers pass rows in one fixed order
 * (day, model, source, currency), so two transactions never lock the same rows crosswise.
 */
export async function addDailyRevenue(trx: Trx, siteId: string, deltas: RevenueDelta[]) {
  if (deltas.length === 0) return;
  const num = (value: string) => sql<number>`${value}::numeric`;
  await trx
    .insertInto('daily_revenue')
    .values(
      deltas.map((delta) => ({
        site_id: siteId,
        day: delta.day,
        model: delta.model,
        source: delta.source,
        currency: delta.currency,
        gross_minor: num(delta.gross),
        refunded_minor: num(delta.refunded),
        conversions: num(delta.conversions),
        trials: num(delta.trials),
      })),
    )
    .onConflict((oc) =>
      oc.columns(['site_id', 'day', 'model', 'source', 'currency']).doUpdateSet((eb) => ({
        gross_minor: eb('daily_revenue.gross_minor', '+', eb.ref('excluded.gross_minor')),
        refunded_minor: eb('daily_revenue.refunded_minor', '+', eb.ref('excluded.refunded_minor')),
        conversions: eb('daily_revenue.conversions', '+', eb.ref('excluded.conversions')),
        trials: eb('daily_revenue.trials', '+', eb.ref('excluded.trials')),
      })),
    )
    .execute();
}
