/**
 * SQL of the payment path. The conversion event, its daily count, its attribution job and the
 * identity link reuse the ingest statements (ingest.store.ts), so a payment is written exactly
 * like any other conversion.
 */
import { sql, type Transaction } from 'kysely';
import type { AttributionModel, DB } from '../db/types.js';

type Trx = Transaction<DB>;

export interface NewPaymentRow {
  site_id: string;
  id: string;
  provider: string;
  transaction_id: string;
  kind: 'payment' | 'trial';
  amount_minor: number;
  currency: string;
  settlement_minor: number | null;
  settlement_currency: string | null;
  renewal: boolean;
  customer_id: string | null;
  visitor_id: string | null;
  person_key: string | null;
  paid_at: Date;
  received_at: Date;
}

export interface LockedPayment {
  id: string;
  amount_minor: number;
  refunded_minor: number;
  currency: string;
  settlement_minor: number | null;
  settlement_currency: string | null;
  attributed_at: Date | null;
}

/**
 * Claims (site, provider, transaction_id). Returns false when it was already held: under
 * concurrent identical posts exactly one insert wins, the others wait for it and see the row.
 */
export async function claimPayment(trx: Trx, row: NewPaymentRow): Promise<boolean> {
  const inserted = await trx
    .insertInto('payments')
    .values(row)
    .onConflict((oc) => oc.columns(['site_id', 'provider', 'transaction_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The payment row, locked until the transaction ends (the attribution job locks it the same way). */
export async function lockPayment(
  trx: Trx,
  siteId: string,
  provider: string,
  transactionId: string,
): Promise<LockedPayment | undefined> {
  return trx
    .selectFrom('payments')
    .select([
      'id',
      'amount_minor',
      'refunded_minor',
      'currency',
      'settlement_minor',
      'settlement_currency',
      'attributed_at',
    ])
    .where('site_id', '=', siteId)
    .where('provider', '=', provider)
    .where('transaction_id', '=', transactionId)
    .forUpdate()
    .executeTakeFirst();
}

export async function insertRefund(
  trx: Trx,
  row: {
    site_id: string;
    id: string;
    payment_id: string;
    amount_minor: number;
    settlement_minor: number | null;
    refunded_at: Date;
    created_at: Date;
    applied: boolean;
  },
): Promise<void> {
  await trx.insertInto('refunds').values(row).execute();
}

export async function setRefundedTotal(trx: Trx, siteId: string, paymentId: string, totalMinor: number) {
  await trx
    .updateTable('payments')
    .set({ refunded_minor: totalMinor })
    .where('site_id', '=', siteId)
    .where('id', '=', paymentId)
    .execute();
}

/** The stored credits of one conversion, in a fixed order (rows are then locked in that order). */
export function loadCredits(trx: Trx, siteId: string, eventId: string) {
  return trx
    .selectFrom('attribution_credits')
    .select(['model', 'source', 'share'])
    .where('site_id', '=', siteId)
    .where('event_id', '=', eventId)
    .orderBy('model')
    .orderBy('source')
    .execute();
}

export interface RevenueRefundRow {
  site_id: string;
  day: string;
  model: AttributionModel;
  source: string;
  currency: string;
  /** Exact decimal text of (fractional) minor units. */
  refunded_minor: string;
}

/** Adds refunded money to the days' rows; a day's net may go negative (refund rule 2). */
export async function addRefundedRevenue(trx: Trx, rows: RevenueRefundRow[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('daily_revenue')
    .values(rows.map((row) => ({ ...row, refunded_minor: sql<number>`${row.refunded_minor}::numeric` })))
    .onConflict((oc) =>
      oc.columns(['site_id', 'day', 'model', 'source', 'currency']).doUpdateSet({
        refunded_minor: sql`daily_revenue.refunded_minor + excluded.refunded_minor`,
      }),
    )
    .execute();
}
