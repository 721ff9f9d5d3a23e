/**
 * The `conversion.refunded` fact: one per refund that took money back, queued to the outbox by
 * the revenue ledger in the transaction that takes the refund out of daily_revenue. A refund
 * that rolls back queues nothing; one that commits is fanned out to the endpoints subscribed to
 * the type (webhooks/webhook-dispatch.ts) like every other fact.
 */
import type { Transaction } from 'kysely';
import type { AttributionModel, DB } from '../db/types.js';
import { newId } from '../lib/ids.js';
import { microToDecimal, splitAmount } from '../revenue/split-amount.js';
import { insertOutboxEvent } from './attribution.store.js';
import { ATTRIBUTION_MODELS, creditsInOrder } from './models.js';

export const REFUND_EVENT_TYPE = 'conversion.refunded';

export interface RefundedPayment {
  event_id: string;
  transaction_id: string;
  provider: string;
  currency: string;
}

export interface SourceCredit {
  model: AttributionModel;
  source: string;
  source_kind: string;
  share: number;
}

/**
 * Each model's credited sources with the part of the refund taken from each, in minor units of
 * the payment's currency (up to six decimals, split exactly as the ledger splits money, so a
 * model's parts add up to the refund). A model that credited nobody lists no source: its part
 * came off unattributed revenue.
 */
export function refundCredits(credits: readonly SourceCredit[], amountMinor: number) {
  return Object.fromEntries(
    ATTRIBUTION_MODELS.map((model) => {
      const ordered = creditsInOrder(credits, model);
      const parts = splitAmount(amountMinor, new Map(ordered.map((credit) => [credit.source, credit.share])));
      return [
        model,
        ordered.map(({ source, source_kind, share }) => ({
          source,
          source_kind,
          share,
          refunded_cents: Number(microToDecimal(parts.get(source) ?? 0n)),
        })),
      ];
    }),
  );
}

/**
 * Queues the fact of one refund (`refundId`, the refunds row, is its dedupe key). Amounts are in
 * the payment's own currency, as `conversion.attributed` gives the payment's value, even when
 * revenue is counted in a settlement currency.
 */
export async function queueRefundFact(
  trx: Transaction<DB>,
  siteId: string,
  payment: RefundedPayment,
  refund: { id: string; amountMinor: number; refundedAt: Date },
  credits: readonly SourceCredit[],
  now: Date,
): Promise<void> {
  await insertOutboxEvent(trx, {
    site_id: siteId,
    id: newId(),
    type: REFUND_EVENT_TYPE,
    dedupe_key: refund.id,
    payload: {
      event_id: payment.event_id,
      transaction_id: payment.transaction_id,
      provider: payment.provider,
      refunded_cents: refund.amountMinor,
      currency: payment.currency,
      refunded_at: refund.refundedAt.toISOString(),
      credits: refundCredits(credits, refund.amountMinor),
    },
    created_at: now,
  });
}
