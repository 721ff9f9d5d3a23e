/**
 * Polar's "cents" follow Stripe's short list of zero-decimal currencies (polarsource/polar
 * `server/polar/kit/currency.py`, `_ZERO_DECIMAL_CURRENCIES` and its minimum-price table): ISK,
 * HUF, UGX, COP, IDR and a few more are sent with two decimals (ISK 70 is 7000). The contract's
 * amounts follow interface §4.4: the currency's own unit when it has no minor unit (lib/money.ts),
 * else hundredths. Every currency on Polar's list has no minor unit there too, so only the
 * two-decimal ones need dividing.
 */
import { currencyExponent, isIsoCurrency } from '../../lib/money.js';
import { PayloadError } from '../processor.js';

const POLAR_ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

/** Polar's lower-case currency as upper-case ISO 4217; a code ISO does not know is an error. */
export function polarCurrency(code: string, path: string): string {
  const upper = code.toUpperCase();
  if (!isIsoCurrency(upper)) throw new PayloadError(`${path} "${code}" is not an ISO 4217 currency`);
  return upper;
}

/** Polar's amount in the §4.4 convention (rounded half up where Polar is finer, as ISK 0.50). */
export function polarAmountToContract(amount: number, currency: string): number {
  if (currencyExponent(currency) !== 0 || POLAR_ZERO_DECIMAL.has(currency)) return amount;
  return Math.round(amount / 100);
}
