/**
 * Splits a whole amount over credited sources in exact decimal arithmetic. daily_revenue keeps
 * six decimals of a minor unit (numeric(24, 6)); floating-point products of shares would leave
 * a day's parts a millionth off their payment, so the parts are counted in millionths as
 * BigInt and the largest share takes the remainder: the parts always add up to the amount.
 */
import type { Credits } from '../attribution/models.js';

/** Millionths of a unit: the precision of daily_revenue's amounts and counts. */
export const MICRO_PER_UNIT = 1_000_000n;
const SHARE_PRECISION = 1_000_000_000_000n;

/**
 * `amount` (a non-negative safe integer: minor units, or 1 for one conversion) split in
 * proportion to the shares, in millionths. Every credited source appears, with 0n at worst.
 */
export function splitAmount(amount: number, credits: Credits): Map<string, bigint> {
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new RangeError('amount must be a non-negative safe integer');
  const total = BigInt(amount) * MICRO_PER_UNIT;
  const ordered = [...credits].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  const parts = new Map<string, bigint>();
  let given = 0n;
  for (const [source, share] of ordered.slice(1)) {
    // Rounded to the nearest millionth: a third of 9000 is 3000, not 2999.999999.
    const scaled = total * BigInt(Math.round(share * Number(SHARE_PRECISION)));
    const part = (scaled + SHARE_PRECISION / 2n) / SHARE_PRECISION;
    parts.set(source, part);
    given += part;
  }
  const largest = ordered[0];
  if (largest) parts.set(largest[0], total - given);
  return new Map([...parts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Millionths as decimal text for a numeric column (`-1234567n` → `"-1.234567"`). */
export function microToDecimal(micro: bigint): string {
  const sign = micro < 0n ? '-' : '';
  const magnitude = micro < 0n ? -micro : micro;
  const whole = magnitude / MICRO_PER_UNIT;
  const fraction = (magnitude % MICRO_PER_UNIT).toString().padStart(6, '0');
  return `${sign}${whole}.${fraction}`;
}
