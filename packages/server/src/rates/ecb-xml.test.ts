/** The ECB file reader: both layouts of the real files, and every kind of defect refused whole. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isIsoDay, parseEcbXml, RatesFileError } from './ecb-xml.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const HIST = fixture('eurofxref-hist-sample.xml');
const DAILY = fixture('eurofxref-daily-sample.xml');

/** A minimal well-formed file around `cubes` (the inside of the outer <Cube>). */
const envelope = (cubes: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01">\n<Cube>\n${cubes}\n</Cube>\n</gesmes:Envelope>\n`;

describe('parseEcbXml', () => {
  it('reads the daily layout (single quotes, one day)', () => {
    const parsed = parseEcbXml(DAILY);
    expect(parsed.days).toEqual(['2026-11-17']);
    expect(parsed.rows).toEqual([
      { day: '2026-11-17', currency: 'USD', per_euro: '1.1625' },
      { day: '2026-11-17', currency: 'JPY', per_euro: '182.10' },
      { day: '2026-11-17', currency: 'GBP', per_euro: '0.8790' },
      { day: '2026-11-17', currency: 'ISK', per_euro: '149.2' },
      { day: '2026-11-17', currency: 'KRW', per_euro: '1715.8' },
    ]);
  });

  it('reads the historical layout (double quotes, newest first, gaps), keeping the exact text', () => {
    const parsed = parseEcbXml(HIST);
    expect(parsed.days).toEqual(['2026-11-12', '2026-11-13', '2026-11-16']);
    expect(parsed.rows).toHaveLength(14);
    expect(parsed.rows.filter((row) => row.day === '2026-11-13').map((row) => row.currency)).toEqual([
      'USD',
      'JPY',
      'GBP',
      'KRW',
    ]);
    expect(parsed.rows).toContainEqual({ day: '2026-11-13', currency: 'JPY', per_euro: '180.00' });
    expect(parsed.rows).toContainEqual({ day: '2026-11-12', currency: 'KRW', per_euro: '1700' });
  });

  it('accepts a byte-order mark, CRLF line ends and attributes in either order', () => {
    const xml = `\uFEFF${envelope(`<Cube time='2026-11-17'>\r\n<Cube rate="1.5" currency="USD" />\r\n</Cube>`)}`;
    expect(parseEcbXml(xml).rows).toEqual([{ day: '2026-11-17', currency: 'USD', per_euro: '1.5' }]);
  });

  const day = (inner: string, time = '2026-11-17') => `<Cube time="${time}">${inner}</Cube>`;
  const usd = '<Cube currency="USD" rate="1.16"/>';
  const malformed: [string, string, RegExp][] = [
    ['an empty file', '', /empty/],
    ['an HTML error page', '<!DOCTYPE html><html><body>Service Unavailable</body></html>', /gesmes:Envelope/],
    ['a truncated download', HIST.slice(0, HIST.indexOf('<Cube time="2026-11-13"')), /truncated/],
    ['no rates at all', envelope(''), /no rates/],
    ['an unparseable rate', envelope(day('<Cube currency="USD" rate="1,16"/>')), /invalid rate "1,16"/],
    ['a zero rate', envelope(day('<Cube currency="USD" rate="0.000"/>')), /invalid rate "0.000"/],
    ['a negative rate', envelope(day('<Cube currency="USD" rate="-1.2"/>')), /invalid rate/],
    ['an exponent', envelope(day('<Cube currency="USD" rate="1e3"/>')), /invalid rate/],
    ['too many decimals', envelope(day('<Cube currency="USD" rate="1.12345678901"/>')), /invalid rate/],
    ['a lower-case code', envelope(day('<Cube currency="usd" rate="1.1"/>')), /invalid currency code/],
    ['a rate for EUR', envelope(day('<Cube currency="EUR" rate="1"/>')), /EUR/],
    ['a currency twice in a day', envelope(day(usd + usd)), /USD appears twice on 2026-11-17/],
    ['a day twice', envelope(day(usd) + day(usd)), /day 2026-11-17 appears twice/],
    ['an impossible date', envelope(day(usd, '2026-02-30')), /invalid date "2026-02-30"/],
    ['a date before the euro', envelope(day(usd, '1998-12-31')), /before the euro/],
    ['a rate outside a day', envelope(usd), /expected <Cube time/],
    ['a nested day', envelope(day(day(usd))), /expected <Cube currency/],
    ['an unknown attribute', envelope(day('<Cube currency="USD" rate="1.1" note="x"/>')), /expected <Cube/],
    ['an unclosed day', envelope(`<Cube time="2026-11-17">${usd}`), /unexpected content/],
    ['stray text', envelope(day(`${usd} 1.17`)), /unexpected content "1.17/],
    ['another element', envelope(day(`<Rate currency="USD" rate="1.1"/>`)), /unexpected content/],
    ['an unterminated comment', envelope(`${day(usd)}<!-- oops`), /unterminated comment/],
  ];
  it.each(malformed)('refuses %s with a clear error', (_, xml, message) => {
    expect(() => parseEcbXml(xml)).toThrow(RatesFileError);
    expect(() => parseEcbXml(xml)).toThrow(message);
  });

  it('names the line of the defect', () => {
    const xml = HIST.replace('rate="0.88"', 'rate="n/a"');
    const line = HIST.slice(0, HIST.indexOf('rate="0.88"')).split('\n').length;
    expect(() => parseEcbXml(xml)).toThrow(`line ${line}: invalid rate "n/a" for GBP`);
  });
});

describe('isIsoDay', () => {
  it('accepts real calendar days only', () => {
    expect(isIsoDay('2024-02-29')).toBe(true);
    expect(isIsoDay('2026-02-29')).toBe(false);
    expect(isIsoDay('2026-1-05')).toBe(false);
    expect(isIsoDay('2026-11-17T00:00:00Z')).toBe(false);
  });
});
