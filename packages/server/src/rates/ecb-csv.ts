/**
 * A strict reader and writer for the ECB's history in CSV (`eurofxref-hist.csv`, inside
 * `eurofxref-hist.zip`): a `Date` column, then one column per currency in units per euro, `N/A`
 * where the ECB published no rate, and a trailing comma on every line. The packaged snapshot
 * (rates-snapshot.ts) is the same format cut down to the supported currencies. Any defect fails
 * the whole file, as with the XML reader.
 */
import {
  FIRST_EURO_DAY,
  isIsoDay,
  isRateText,
  type ParsedRates,
  type RateRow,
  RatesFileError,
} from './ecb-xml.js';

const CURRENCY_PATTERN = /^[A-Z]{3}$/;
const NO_RATE = 'N/A';

/** The fields of a line; the ECB ends every line with a comma, which adds no column. */
const fieldsOf = (line: string) => line.replace(/,$/, '').split(',');

/**
 * Parses a whole ECB history CSV. With `keep`, the columns of other currencies are dropped
 * before their values are read (the ECB's file still carries currencies it no longer publishes).
 */
export function parseEcbCsv(text: string, keep?: ReadonlySet<string>): ParsedRates {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const fail: (line: number, message: string) => never = (line, message) => {
    throw new RatesFileError(`line ${line}: ${message}`);
  };

  if (lines.length === 0) throw new RatesFileError('the file is empty');
  const [label, ...codes] = fieldsOf(lines[0] as string);
  if (label !== 'Date') throw new RatesFileError('not an ECB history CSV: the first column is not Date');
  const seenCodes = new Set<string>();
  for (const code of codes) {
    if (!CURRENCY_PATTERN.test(code)) fail(1, `invalid currency code ${JSON.stringify(code)}`);
    if (code === 'EUR') fail(1, 'a column for EUR itself (it is 1 by definition)');
    if (seenCodes.has(code)) fail(1, `${code} appears twice`);
    seenCodes.add(code);
  }

  const rows: RateRow[] = [];
  const days = new Set<string>();
  const seenDays = new Set<string>();
  for (let index = 1; index < lines.length; index++) {
    const line = index + 1;
    const [day = '', ...values] = fieldsOf(lines[index] as string);
    if (values.length !== codes.length) fail(line, `${values.length} rates for ${codes.length} currencies`);
    if (!isIsoDay(day)) fail(line, `invalid date ${JSON.stringify(day)}`);
    if (day < FIRST_EURO_DAY) fail(line, `date ${day} is before the euro existed`);
    if (seenDays.has(day)) fail(line, `day ${day} appears twice`);
    seenDays.add(day);
    values.forEach((value, column) => {
      const currency = codes[column] as string;
      if (value === NO_RATE || (keep && !keep.has(currency))) return;
      if (!isRateText(value)) fail(line, `invalid rate ${JSON.stringify(value)} for ${currency}`);
      rows.push({ day, currency, per_euro: value });
      days.add(day);
    });
  }
  if (rows.length === 0) throw new RatesFileError('the file holds no rates');
  return { rows, days: [...days].sort() };
}

/** Writes rates in the ECB's CSV layout (newest day first), one column per code of `currencies`. */
export function formatEcbCsv(parsed: ParsedRates, currencies: readonly string[]): string {
  const byDay = new Map<string, Map<string, string>>();
  for (const row of parsed.rows) {
    const day = byDay.get(row.day) ?? new Map<string, string>();
    byDay.set(row.day, day.set(row.currency, row.per_euro));
  }
  const lines = [['Date', ...currencies].join(',')];
  for (const day of [...parsed.days].reverse()) {
    const rates = byDay.get(day);
    lines.push([day, ...currencies.map((code) => rates?.get(code) ?? NO_RATE)].join(','));
  }
  return `${lines.join('\n')}\n`;
}
