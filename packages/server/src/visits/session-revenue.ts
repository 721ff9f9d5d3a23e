/**
 * A session's revenue: its payments net of every refund recorded against them so far, in the
 * site's currency. As in the revenue report, a payment converts at the ECB rate of the day it was
 * paid and each refund at that of the day it was posted (or the latest earlier rate). A payment
 * whose money has no rate on record for one of those days is left out whole, so no amount is
 * ever guessed; trials are conversions with no revenue.
 */
import { toMinorUnits } from '../lib/money.js';
import type { RatesService } from '../rates/rates.service.js';
import type { VisitPayment } from './session-payments.query.js';

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** Net minor units of the site's currency per visit id; visits without payments are absent. */
export async function netRevenueByVisit(
  rates: Pick<RatesService, 'convertMinor'>,
  payments: readonly VisitPayment[],
  siteCurrency: string,
): Promise<Map<string, number>> {
  const toSiteMinor = async (amountMinor: number, currency: string, at: Date) => {
    const major = await rates.convertMinor(amountMinor, currency, siteCurrency, dayOf(at));
    return major === null ? null : toMinorUnits(major, siteCurrency);
  };
  const net = new Map<string, number>();
  for (const payment of payments) {
    if (payment.kind === 'trial') continue;
    const gross = await toSiteMinor(payment.amount_minor, payment.currency, payment.paid_at);
    const refunds = await Promise.all(
      payment.refunds.map((refund) => toSiteMinor(refund.amount_minor, payment.currency, refund.refunded_at)),
    );
    if (gross === null || refunds.some((refund) => refund === null)) continue;
    const refunded = refunds.reduce<number>((sum, refund) => sum + (refund ?? 0), 0);
    net.set(payment.visit_id, (net.get(payment.visit_id) ?? 0) + gross - refunded);
  }
  return net;
}
