/**
 * Reporting currencies a site may choose: EUR plus every currency the European Central Bank
 * publishes a daily euro foreign exchange reference rate for (the ECB's daily list, as of 2026:
 * BGN left it when Bulgaria joined the euro area on 1 January 2026). Static on purpose, not
 * derived from the stored rates: choosing a currency must not depend on whether a refresh has
 * run yet (or is turned off). A listed currency with no stored rate converts to null.
 */
export const SUPPORTED_CURRENCIES = [
  'EUR',
  'USD',
  'JPY',
  'CZK',
  'DKK',
  'GBP',
  'HUF',
  'PLN',
  'RON',
  'SEK',
  'CHF',
  'ISK',
  'NOK',
  'TRY',
  'AUD',
  'BRL',
  'CAD',
  'CNY',
  'HKD',
  'IDR',
  'ILS',
  'INR',
  'KRW',
  'MXN',
  'MYR',
  'NZD',
  'PHP',
  'SGD',
  'THB',
  'ZAR',
] as const;

export type Currency = (typeof SUPPORTED_CURRENCIES)[number];

export const DEFAULT_CURRENCY: Currency = 'USD';

const SUPPORTED = new Set<string>(SUPPORTED_CURRENCIES);

/** True for an upper-case ISO 4217 code on the supported list. */
export function isSupportedCurrency(code: string): code is Currency {
  return SUPPORTED.has(code);
}
