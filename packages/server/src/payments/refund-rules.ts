/**
 * Refund rules 4 and 5 of interface §4.4 as pure functions: `refunded_amount` is a running
 * total, only the part above what was already taken back is subtracted, and never more than
 * the payment holds. Also how one refund is split over the sources a payment was credited to.
 */

import { microToDecimal, splitAmount } from '../attribution/split-amount.js';
import type { AttributionModel } from '../db/types.js';
import { ATTRIBUTION_MODELS } from '../sites/sites.schemas.js';

/** Source label of revenue nobody can be credited with (the unattributed row of daily_revenue). */
export const UNATTRIBUTED_SOURCE = '';

export interface RefundOutcome {
  /** Minor units taken back by this post (0: nothing to do, still answered `refunded`). */
  deltaMinor: number;
  /** The payment's refunded total after this post. */
  totalMinor: number;
}

/**
 * @param sentTotalMinor the post's `refunded_amount` in minor units, or null when omitted
 *   (omitted means everything still outstanding).
 */
export function applyRefundRules(
  payment: { amountMinor: number; refundedMinor: number },
  sentTotalMinor: number | null,
): RefundOutcome {
  const target = Math.min(sentTotalMinor ?? payment.amountMinor, payment.amountMinor);
  const deltaMinor = Math.max(0, target - payment.refundedMinor);
  return { deltaMinor, totalMinor: payment.refundedMinor + deltaMinor };
}

export interface Credit {
  model: AttributionModel;
  source: string;
  share: number;
}

/**
 * Each model's part of a refund, as exact decimal text of minor units: split over the payment's
 * credits for that model exactly as the attribution job split its gross (attribution/
 * split-amount.ts, so a full refund cancels every source to the millionth), or wholly to the
 * unattributed source when the model credited nobody. Ordered by model, then source.
 */
export function splitRefund(credits: readonly Credit[], deltaMinor: number) {
  return ATTRIBUTION_MODELS.flatMap((model) => {
    const own = credits.filter((credit) => credit.model === model);
    const shares = new Map(own.length > 0 ? own.map((c) => [c.source, c.share]) : [[UNATTRIBUTED_SOURCE, 1]]);
    return [...splitAmount(deltaMinor, shares)].map(([source, micro]) => ({
      model,
      source,
      amountMinor: microToDecimal(micro),
    }));
  });
}
