/** Exact conversion through the euro: rounding only at the end, half away from zero. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertMinorExact } from './convert-minor.js';

const JPY = (perEuro: string) => ({ perEuro, exponent: 0 });
const USD = (perEuro: string) => ({ perEuro, exponent: 2 });

describe('convertMinorExact', () => {
  it('gives the exact answer where floating point does not', () => {
    expect((1000 / 180) * 1.17).not.toBe(6.5);
    expect(convertMinorExact(1000, JPY('180.00'), USD('1.17'))).toBe(6.5);
  });

  it('rounds half away from zero to the target minor unit, in both signs', () => {
    expect(convertMinorExact(1, JPY('180'), USD('1.17'))).toBe(0.01); // 0.0065
    expect(convertMinorExact(-1, JPY('180'), USD('1.17'))).toBe(-0.01);
    expect(convertMinorExact(1, JPY('200'), USD('1.17'))).toBe(0.01); // 0.00585
    expect(convertMinorExact(1, JPY('300'), USD('1.17'))).toBe(0); // 0.0039
    expect(convertMinorExact(0, JPY('300'), USD('1.17'))).toBe(0);
  });

  it('handles zero-decimal targets and the padded text numeric gives back', () => {
    expect(convertMinorExact(1234, { perEuro: '1', exponent: 2 }, JPY('1710.3500000000'))).toBe(21106);
    expect(convertMinorExact(1000, USD('1.1700000000'), JPY('180.0000000000'))).toBe(1538);
  });

  it('is the identity for equal rates and exponents', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e14, max: 1e14 }),
        fc.constantFrom('1', '0.8775', '1710.35', '0.0000000001'),
        fc.constantFrom(0, 2, 3),
        (amount, rate, exponent) => {
          const result = convertMinorExact(amount, { perEuro: rate, exponent }, { perEuro: rate, exponent });
          expect(result).toBe(amount / 10 ** exponent);
        },
      ),
    );
  });

  it('stays within half a minor unit of the real quotient', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        (amount, fromTenThousandths, toTenThousandths) => {
          const from = { perEuro: (fromTenThousandths / 10_000).toFixed(4), exponent: 0 };
          const to = { perEuro: (toTenThousandths / 10_000).toFixed(4), exponent: 2 };
          const result = convertMinorExact(amount, from, to);
          const real = (amount / fromTenThousandths) * toTenThousandths;
          expect(Math.abs(result - real)).toBeLessThanOrEqual(0.005 + Math.abs(real) * 1e-12);
        },
      ),
    );
  });

  it('refuses amounts that are not safe integers', () => {
    expect(() => convertMinorExact(1.5, JPY('1'), USD('1'))).toThrow(RangeError);
    expect(() => convertMinorExact(2 ** 53, JPY('1'), USD('1'))).toThrow(RangeError);
  });
});
