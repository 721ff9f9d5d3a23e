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
 * Claims (site, provider, transaction_id): `isNew` is false when it was already held, and
 * `eventId` is then the holder's. Under concurrent identical posts exactly one insert wins; the
 * others wait for it, then read its row.
 */
export async function claimPayment(
  trx: Trx,
  row: Insertable<PaymentsTable> & { event_id: string },
): Promise<{ isNew: boolean; eventId: string }> {
  const inserted = await trx
    .insertInto('payments')
    .values(row)
    .onConflict((oc) => oc.columns(['site_id', 'provider', 'transaction_id']).doNothing())
    .returning('event_id')
    .executeTakeFirst();
  if (inserted) return { isNew: true, eventId: inserted.event_id };
  const held = await trx
    .selectFrom('payments')
    .select('event_id')
    .where('site_id', '=', row.site_id)
    .where('provider', '=', row.provider)
    .where('transaction_id', '=', row.transaction_id)
    .executeTakeFirstOrThrow();
  return { isNew: false, eventId: held.event_id };
}

export async function setRefundedTotal(trx: Trx, siteId: string, paymentId: string, totalMinor: number) {
  await trx
    .updateTable('payments')
    .set({ refunded_minor: totalMinor })
    .where('site_id', '=', siteId)
    .where('id', '=', paymentId)
    .execute();
}
