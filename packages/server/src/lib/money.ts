/**
 * Money as integer minor units with the currency's ISO 4217 exponent (JPY 0, USD 2, KWD 3).
 * Conversion goes through the number's shortest decimal text, never through floating-point
 * multiplication, so 0.29 USD is 29 cents and 1234567890.12 stays exact.
 */
const SUPPORTED = new Set(Intl.supportedValuesOf('currency'));

export function isIsoCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && SUPPORTED.has(code);
}

export function currencyExponent(code: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
      .maximumFractionDigits ?? 2
  );
}

/** Digits of a non-negative finite number as plain decimal text (no exponent notation). */
function plainDecimal(amount: number): string {
  const text = String(amount);
  if (!/e/i.test(text)) return text;
  return amount.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

/**
 * Major units to minor units, rounding half away from zero past the currency's precision
 * (a value sent with more decimals than the currency has).
 */
export function toMinorUnits(amount: number, currency: string): number {
  if (!Number.isFinite(amount) || amount < 0)
    throw new RangeError('amount must be a non-negative finite number');
  const exponent = currencyExponent(currency);
  const [whole = '0', fraction = ''] = plainDecimal(amount).split('.');
  const kept = fraction.slice(0, exponent).padEnd(exponent, '0');
  const roundUp = (fraction[exponent] ?? '0') >= '5';
  const minor = BigInt(whole + kept) + (roundUp ? 1n : 0n);
  return Number(minor);
}

export function toMajorUnits(minor: number, currency: string): number {
  return minor / 10 ** currencyExponent(currency);
}

/**
 * Whole, non-negative minor units as exact decimal text in major units (1234 USD cents →
 * "12.34", 500 JPY → "500", 1005 KWD fils → "1.005"), never through floating point. A negative
 * amount is not supported: the sign would land among the digits.
 */
export function majorUnitsText(minor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  if (exponent === 0) return String(minor);
  const digits = String(minor).padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}
