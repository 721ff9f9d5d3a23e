/**
 * The payments of visits (visit-conversions.sql.ts says which are a visit's) with the refunds
 * recorded against them so far, in the money revenue is counted in: what the processor paid
 * out (payments/paid-out.sql.ts).
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.js';
import { paidOutCurrency, paidOutMinor } from '../payments/paid-out.sql.js';
import { isPaymentOfVisit } from './visit-conversions.sql.js';

export interface VisitPayment {
  visit_id: string;
  kind: 'payment' | 'trial';
  /** Minor units of `currency`. */
  amount_minor: number;
  currency: string;
  paid_at: Date;
  refunds: { amount_minor: number; refunded_at: Date }[];
}

export async function findVisitPayments(
  db: Kysely<DB>,
  siteId: string,
  visitIds: readonly string[],
): Promise<VisitPayment[]> {
  if (visitIds.length === 0) return [];
  const { rows } = await sql<Omit<VisitPayment, 'refunds'> & { payment_id: string }>`
    select v.id as visit_id, p.id as payment_id, p.kind,
      ${paidOutMinor('p')}::float8 as amount_minor,
      ${paidOutCurrency('p')} as currency, p.paid_at
    from visits v
    join events e on ${isPaymentOfVisit('e')}
    join payments p on p.site_id = e.site_id and p.event_id = e.event_id
    where v.site_id = ${siteId} and v.id in (${sql.join(visitIds.map((id) => sql`${id}::uuid`))})
    order by p.paid_at, p.id
  `.execute(db);
  if (rows.length === 0) return [];
  const refunds = await db
    .selectFrom('refunds')
    .select(['payment_id', sql<number>`${paidOutMinor('refunds')}::float8`.as('amount_minor'), 'refunded_at'])
    .where('site_id', '=', siteId)
    .where(
      'payment_id',
      'in',
      rows.map((row) => row.payment_id),
    )
    .orderBy('refunded_at')
    .execute();
  return rows.map(({ payment_id, ...payment }) => ({
    ...payment,
    amount_minor: Number(payment.amount_minor),
    refunds: refunds
      .filter((refund) => refund.payment_id === payment_id)
      .map((refund) => ({ amount_minor: Number(refund.amount_minor), refunded_at: refund.refunded_at })),
  }));
}
