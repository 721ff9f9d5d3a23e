import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyExponent, isIsoCurrency, majorUnitsText, toMajorUnits, toMinorUnits } from './money.js';

describe('money', () => {
  it('knows ISO 4217 exponents', () => {
    expect(currencyExponent('USD')).toBe(2);
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('ISK')).toBe(0);
    expect(currencyExponent('KRW')).toBe(0);
    expect(currencyExponent('KWD')).toBe(3);
    expect(isIsoCurrency('EUR')).toBe(true);
    expect(isIsoCurrency('eur')).toBe(false);
    expect(isIsoCurrency('XYZ')).toBe(false);
  });

  it.each([
    [0.29, 'USD', 29],
    [19.99, 'USD', 1999],
    [1.005, 'USD', 101],
    [1000000000000, 'USD', 100000000000000],
    [1234567890.12, 'EUR', 123456789012],
    [500, 'JPY', 500],
    [1.2345, 'KWD', 1235],
    [1e-7, 'USD', 0],
    [0, 'USD', 0],
  ])('%d %s is %d minor units', (amount, currency, minor) => {
    expect(toMinorUnits(amount, currency)).toBe(minor);
  });

  it('is exact for every amount with at most the currency precision, up to 1e12', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 100_000_000_000_000n }),
        fc.constantFrom('USD', 'JPY', 'KWD'),
        (minor, currency) => {
          const exponent = currencyExponent(currency);
          const maxMinor = 10n ** 12n * 10n ** BigInt(exponent);
          const bounded = minor % (maxMinor + 1n);
          const major = Number(bounded) / 10 ** exponent;
          expect(toMinorUnits(major, currency)).toBe(Number(bounded));
          expect(toMajorUnits(Number(bounded), currency)).toBe(major);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([
    [1234, 'USD', '12.34'],
    [5, 'EUR', '0.05'],
    [0, 'USD', '0.00'],
    [500, 'JPY', '500'],
    [0, 'JPY', '0'],
    [1005, 'KWD', '1.005'],
    [7, 'BHD', '0.007'],
    [9007199254740991, 'USD', '90071992547409.91'],
  ])('%d minor units of %s are "%s" as text', (minor, currency, text) => {
    expect(majorUnitsText(minor, currency)).toBe(text);
  });
});
