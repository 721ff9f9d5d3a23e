/**
 * SQL of the payment path. The conversion event, its daily count, its attribution job and the
 * identity link reuse the ingest statements (ingest.store.ts), so a payment is written exactly
 * like any other conversion.
 */
import type { Insertable, Transaction } from 'kysely';
import type { PaymentsTable } from '../db/ingest-types.js';
import type { DB } from '../db/types.js';

type Trx = Transaction<DB>;

/**
 * Claims (site, provider, transaction_id). Returns false when it was already held: under
 * concurrent identical posts exactly one insert wins, the others wait for it and see the row.
 */
export async function claimPayment(trx: Trx, row: Insertable<PaymentsTable>): Promise<boolean> {
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
