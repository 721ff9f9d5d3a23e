/**
 * The refunds recorded against the payments behind conversion events, oldest first, in the
 * money the payment was charged in (as a person's conversions show their value).
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';

export interface ConversionRefund {
  /** The payment's conversion event. */
  event_id: string;
  /** Minor units of `currency`. */
  amount_minor: number;
  currency: string;
  refunded_at: Date;
}

export async function findRefundsOfConversions(
  db: Kysely<DB>,
  siteId: string,
  eventIds: readonly string[],
): Promise<ConversionRefund[]> {
  if (eventIds.length === 0) return [];
  const rows = await db
    .selectFrom('refunds as r')
    .innerJoin('payments as p', (join) =>
      join.onRef('p.site_id', '=', 'r.site_id').onRef('p.id', '=', 'r.payment_id'),
    )
    .select(['p.event_id', 'r.amount_minor', 'p.currency', 'r.refunded_at'])
    .where('r.site_id', '=', siteId)
    .where('p.event_id', 'in', eventIds)
    .orderBy('r.refunded_at')
    .execute();
  return rows.map((row) => ({
    ...row,
    event_id: String(row.event_id),
    amount_minor: Number(row.amount_minor),
  }));
}
