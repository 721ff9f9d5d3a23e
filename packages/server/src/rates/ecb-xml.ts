/**
 * A strict reader for the ECB's euro reference-rate files: the daily `eurofxref-daily.xml` and
 * the historical `eurofxref-hist.xml` / `eurofxref-hist-90d.xml`. The format is fixed and flat
 * (`<Cube time>` blocks of `<Cube currency rate/>` inside one outer `<Cube>`), so a few anchored
 * regular expressions read it without an XML dependency. Anything else — an HTML error page, a
 * truncated download, a bad date or rate — fails the whole file, so an import is all or nothing.
 */

/** One rate: units of `currency` per one euro on `day`, as the exact decimal text of the file. */
export interface RateRow {
  day: string;
  currency: string;
  per_euro: string;
}

export interface ParsedRates {
  rows: RateRow[];
  /** Distinct days that carry at least one rate, ascending. */
  days: string[];
}

export class RatesFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RatesFileError';
  }
}

/** The euro's first day; an earlier date is a broken file, not history. */
export const FIRST_EURO_DAY = '1999-01-01';
// Fits `numeric(24, 10)`: up to 14 integer digits and 10 decimals, no sign, no exponent.
const RATE_PATTERN = /^(?:0|[1-9]\d{0,13})(?:\.\d{1,10})?$/;

/** True for a rate the table can hold exactly: positive decimal text, no sign or exponent. */
export function isRateText(text: string): boolean {
  // Positive: at least one non-zero digit.
  return RATE_PATTERN.test(text) && /[1-9]/.test(text);
}

const CURRENCY_PATTERN = /^[A-Z]{3}$/;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
// One `<Cube …>`, `<Cube …/>` or `</Cube>` tag, with any leading whitespace, at the cursor.
const CUBE_TAG = /\s*<(\/?)Cube((?:\s+[A-Za-z]+\s*=\s*(?:"[^"<>]*"|'[^'<>]*'))*)\s*(\/?)>/y;
const ATTRIBUTE = /\s+([A-Za-z]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** True for a real calendar day written `YYYY-MM-DD`. */
export function isIsoDay(text: string): boolean {
  if (!DAY_PATTERN.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** Parses a whole ECB reference-rate file; throws `RatesFileError` naming the line on any defect. */
export function parseEcbXml(xml: string): ParsedRates {
  // Comments and the declaration become spaces, so offsets (and line numbers) stay true.
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  const text = xml
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml[^?]*\?>/, blank)
    .replace(/<!--[\s\S]*?-->/g, blank);
  const lineAt = (offset: number) => text.slice(0, offset).split('\n').length;
  // Annotated on the binding so that TypeScript narrows after each call.
  const fail: (offset: number, message: string) => never = (offset, message) => {
    throw new RatesFileError(`line ${lineAt(offset)}: ${message}`);
  };

  if (text.trim() === '') throw new RatesFileError('the file is empty');
  if (text.includes('<!--')) fail(text.indexOf('<!--'), 'unterminated comment');
  if (!/^\s*<gesmes:Envelope\b[^<>]*>/.test(text)) {
    throw new RatesFileError('not an ECB reference-rate file: it does not start with <gesmes:Envelope>');
  }
  const end = text.search(/<\/gesmes:Envelope>\s*$/);
  if (end < 0) throw new RatesFileError('truncated: the file does not end with </gesmes:Envelope>');

  const outer = /<Cube\s*>/.exec(text);
  if (!outer) throw new RatesFileError('no <Cube> element holding the rates');
  const firstCube = text.indexOf('<Cube');
  if (firstCube < outer.index) fail(firstCube, 'a <Cube> with attributes outside the outer <Cube>');

  const rows: RateRow[] = [];
  const days = new Set<string>();
  const seenDays = new Set<string>();
  let day: string | undefined;
  let dayCurrencies = new Set<string>();
  let cursor = outer.index + outer[0].length;

  for (;;) {
    CUBE_TAG.lastIndex = cursor;
    const tag = CUBE_TAG.exec(text);
    if (!tag) {
      const at = cursor + (text.length - cursor - text.slice(cursor).trimStart().length);
      return fail(at, `unexpected content ${JSON.stringify(text.slice(at, at + 40))}`);
    }
    const at = tag.index + (tag[0].length - tag[0].trimStart().length);
    cursor = CUBE_TAG.lastIndex;
    const [, closing, attributeText = '', selfClosing] = tag;
    const attributes = readAttributes(attributeText, (message) => fail(at, message));

    if (closing) {
      if (attributeText || selfClosing) fail(at, 'malformed </Cube>');
      if (day === undefined) break;
      day = undefined;
      continue;
    }
    if (day === undefined) {
      // A day block: <Cube time="YYYY-MM-DD">.
      const time = attributes.get('time');
      if (selfClosing || time === undefined || attributes.size !== 1) {
        return fail(at, 'expected <Cube time="YYYY-MM-DD"> or </Cube>');
      }
      if (!isIsoDay(time)) fail(at, `invalid date ${JSON.stringify(time)}`);
      if (time < FIRST_EURO_DAY) fail(at, `date ${time} is before the euro existed`);
      if (seenDays.has(time)) fail(at, `day ${time} appears twice`);
      seenDays.add(time);
      day = time;
      dayCurrencies = new Set();
      continue;
    }
    // A rate: <Cube currency="USD" rate="1.0867"/>.
    const currency = attributes.get('currency');
    const rate = attributes.get('rate');
    if (!selfClosing || currency === undefined || rate === undefined || attributes.size !== 2) {
      return fail(at, 'expected <Cube currency="XXX" rate="…"/> or </Cube>');
    }
    if (!CURRENCY_PATTERN.test(currency)) fail(at, `invalid currency code ${JSON.stringify(currency)}`);
    if (currency === 'EUR') fail(at, 'a rate for EUR itself (it is 1 by definition)');
    if (!isRateText(rate)) {
      fail(at, `invalid rate ${JSON.stringify(rate)} for ${currency}`);
    }
    if (dayCurrencies.has(currency)) fail(at, `${currency} appears twice on ${day}`);
    dayCurrencies.add(currency);
    days.add(day);
    rows.push({ day, currency, per_euro: rate });
  }

  if (text.slice(cursor, end).trim() !== '') fail(cursor, 'unexpected content after the outer </Cube>');
  if (rows.length === 0) throw new RatesFileError('the file holds no rates');
  return { rows, days: [...days].sort() };
}

function readAttributes(text: string, fail: (message: string) => never): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name = '', double, single] of text.matchAll(ATTRIBUTE)) {
    if (attributes.has(name)) fail(`attribute ${name} appears twice`);
    attributes.set(name, double ?? single ?? '');
  }
  return attributes;
}
