/**
 * Turns a processor's payment facts into the payment write path's input (§4.4 rules): amounts
 * from the processor's minor units, the visitor id only when it looks like one, the email as
 * its person key, the customer id redacted.
 */
import { emailPersonKey, isEmailLike } from '../identity/person-key.js';
import { currencyExponent, isIsoCurrency, toMinorUnits } from '../lib/money.js';
import { redactText } from '../lib/redact.js';
import type { PaymentInput } from '../payments/payment-write.js';
import { TRANSACTION_ID_MAX } from '../payments/payments.schemas.js';
import { PayloadError, type PaymentFacts } from './processor.js';

const VISITOR_ID = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * §4.4: a currency with no minor unit (ISK, JPY, KRW) has its major unit equal to the
 * processor's minor unit; every other currency is the processor's amount divided by 100.
 */
export function processorAmountToMajor(amount: number, currency: string): number {
  return currencyExponent(currency) === 0 ? amount : amount / 100;
}

/** The processor's amount in our minor units of `currency`. */
export function processorAmountToMinor(amount: number, currency: string): number {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new PayloadError(`amount ${amount} is not a non-negative whole number of minor units`);
  return toMinorUnits(processorAmountToMajor(amount, currency), currency);
}

export function paymentInputOf(
  facts: PaymentFacts,
  context: { siteId: string; provider: string; secretKey: string },
): Omit<PaymentInput, 'refund'> {
  if (facts.transactionId.length === 0 || facts.transactionId.length > TRANSACTION_ID_MAX)
    throw new PayloadError(`the payment id must be 1 to ${TRANSACTION_ID_MAX} characters`);
  if (!isIsoCurrency(facts.currency))
    throw new PayloadError(`currency ${facts.currency} is not an ISO 4217 code`);
  const amountMinor = processorAmountToMinor(facts.amount, facts.currency);
  const trial = facts.trial || amountMinor === 0;
  const email = facts.email?.trim() ?? '';
  return {
    siteId: context.siteId,
    provider: context.provider,
    transactionId: facts.transactionId,
    kind: trial ? 'trial' : 'payment',
    amountMinor: trial ? 0 : amountMinor,
    currency: facts.currency,
    settlement: null,
    renewal: facts.renewal,
    customerId: facts.customerId ? redactText(facts.customerId) : null,
    visitorId: facts.visitorId && VISITOR_ID.test(facts.visitorId) ? facts.visitorId : null,
    personKey: isEmailLike(email) ? emailPersonKey(context.secretKey, email) : null,
    at: facts.paidAt,
  };
}
