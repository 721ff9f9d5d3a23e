/**
 * Currency conversion through the euro in exact decimal arithmetic: rates are the decimal text
 * the ECB published (and `numeric` stores), amounts are integer minor units, and the only
 * rounding is the last step, to the target currency's minor unit. Floating point would turn
 * 1,000 JPY at 180 JPY and 1.17 USD per euro into 6.499999999999999 USD instead of 6.50.
 */

interface Decimal {
  /** The digits without the point. */
  units: bigint;
  /** How many of them are decimals. */
  scale: number;
}

function parseDecimal(text: string): Decimal {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`not a non-negative decimal: ${JSON.stringify(text)}`);
  const [, whole = '', fraction = ''] = match;
  return { units: BigInt(whole + fraction), scale: fraction.length };
}

const pow10 = (exponent: number) => 10n ** BigInt(exponent);

/** `numerator / denominator` (denominator > 0) rounded half away from zero. */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (2n * magnitude + denominator) / (2n * denominator);
  return negative ? -rounded : rounded;
}

/** Minor units as major units, through their decimal text (so 650 cents is exactly 6.5). */
function minorToMajor(minor: bigint, exponent: number): number {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = exponent > 0 ? `.${digits.slice(-exponent)}` : '';
  return Number(`${negative ? '-' : ''}${whole}${fraction}`);
}

/**
 * Converts `amountMinor` (an integer, may be negative) in a currency worth `fromPerEuro` per euro
 * with `fromExponent` decimals into MAJOR units of a currency worth `toPerEuro` per euro with
 * `toExponent` decimals: amount / fromPerEuro × toPerEuro, rounded half away from zero to the
 * target's minor unit. Exact up to the final conversion to a JavaScript number, which is exact
 * while the result has at most 15 significant digits.
 */
export function convertMinorExact(
  amountMinor: number,
  from: { perEuro: string; exponent: number },
  to: { perEuro: string; exponent: number },
): number {
  if (!Number.isSafeInteger(amountMinor)) throw new RangeError('amountMinor must be a safe integer');
  const fromRate = parseDecimal(from.perEuro);
  const toRate = parseDecimal(to.perEuro);
  if (fromRate.units === 0n || toRate.units === 0n) throw new RangeError('rates must be positive');
  // target minor = amountMinor / 10^fromExp / (fromUnits / 10^fromScale) * (toUnits / 10^toScale) * 10^toExp
  const numerator = BigInt(amountMinor) * toRate.units * pow10(fromRate.scale + to.exponent);
  const denominator = fromRate.units * pow10(toRate.scale + from.exponent);
  return minorToMajor(divideRounded(numerator, denominator), to.exponent);
}
