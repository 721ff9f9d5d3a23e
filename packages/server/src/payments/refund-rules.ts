/**
 * Refund rules 4 and 5 of interface §4.4 as pure functions: `refunded_amount` is a running
 * total, only the part above what was already taken back is subtracted, and never more than
 * the payment holds. How a refund is split over the payment's credits is the revenue ledger's
 * (revenue/revenue-ledger.ts).
 */

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
