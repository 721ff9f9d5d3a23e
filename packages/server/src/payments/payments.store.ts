/**
 * SQL of the payment path. The conversion event, its daily count, its attribution job and the
 * identity link reuse the ingest statements (ingest.store.ts), so a payment is written exactly
 * like any other conversion.
 */
import type { Transaction } from 'kysely';
import type { DB } from '../db/types.js';

type Trx = Transaction<DB>;

export interface NewPaymentRow {
  site_id: string;
  id: string;
  event_id: string;
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

export async function setRefundedTotal(trx: Trx, siteId: string, paymentId: string, totalMinor: number) {
  await trx
    .updateTable('payments')
    .set({ refunded_minor: totalMinor })
    .where('site_id', '=', siteId)
    .where('id', '=', paymentId)
    .execute();
}
