/**
 * Stripe amounts into the unit §4.4 reads a processor's amount in: whole units for a currency
 * with no minor unit (ISK, JPY, KRW: exponent 0 in lib/money), hundredths for every other one.
 * Stripe's own unit differs in three ways (docs.stripe.com/currencies, "Zero-decimal",
 * "Three-decimal" and "Special cases"):
 * - zero-decimal currencies (JPY, KRW, …) are sent in whole units, as §4.4 reads them;
 * - three-decimal currencies (BHD, JOD, KWD, OMR, TND) are sent in thousandths;
 * - every other currency is sent in hundredths, even where ISO 4217 or CLDR have no minor unit:
 *   ISK "will remain a two-decimal currency in the Stripe API, and an ISK amount of 100 will
 *   continue to represent 1 króna" (support.stripe.com/questions/deprecation-of-fractional-isk-
 *   charges-and-refunds); HUF, IDR and COP are likewise two-decimal in Stripe.
 */
import { currencyExponent } from '../../lib/money.js';
import { PayloadError } from '../processor.js';

const STRIPE_ZERO_DECIMAL = new Set(
  'BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' '),
);
const STRIPE_THREE_DECIMAL = new Set('BHD JOD KWD OMR TND'.split(' '));

function stripeExponent(currency: string): number {
  if (STRIPE_ZERO_DECIMAL.has(currency)) return 0;
  if (STRIPE_THREE_DECIMAL.has(currency)) return 3;
  return 2;
}

/** Stripe's lower-case currency code as upper-case ISO 4217. */
export function currencyOf(code: string, path: string): string {
  const currency = code.toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new PayloadError(`${path} must be a three-letter currency code`);
  return currency;
}

/**
 * A Stripe amount of `currency` in §4.4's processor unit. Stripe sends ISK and HUF in multiples
 * of 100 and three-decimal amounts ending in 0, so the division is exact in practice; a
 * fraction left over is rounded half up.
 */
export function amountFromStripe(amount: number, currency: string): number {
  const wanted = currencyExponent(currency) === 0 ? 0 : 2;
  const shift = wanted - stripeExponent(currency);
  if (shift >= 0) return amount * 10 ** shift;
  return Math.round(amount / 10 ** -shift);
}
