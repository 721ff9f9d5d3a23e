/**
 * Hostile values the mutations draw from: odd strings, numbers, percent-escapes, content types, and
 * raw JSON fragments that JSON.stringify cannot produce.
 */

export const NASTY_STRINGS = [
  ['', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\u202egnp.exe', '😀', '👨‍👩‍👧‍👦', 'e\u0301'],
  ['\ufeff', '\r\n', '\t', "'", '"', '\\', "' OR '1'='1", '1; DROP TABLE sites; --', '$(id)', '`id`'],
  ['<script>alert(1)</script>', '{{7*7}}'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent literally
  ['${7*7}', '%s%n%x', '../../etc/passwd', '__proto__', 'constructor', 'null', 'undefined', 'NaN', 'true'],
  ['[]', '{}', '0', '-1', '1e400', 'ttid_', 'tk_live_', 'tt_bot_', 'vh_', 'http://', 'https://'],
  ['mailto:a@b', 'javascript:alert(1)', 'a@b.c', '９', '\u0085', '\u2028', 'İ', 'ß', 'Ω'.repeat(300)],
].flat();
export const ODD_NUMBERS = [
  '1e999',
  '-1e999',
  '-0',
  '0.1e-400',
  '9007199254740993',
  '-9007199254740993',
  '1.5',
  '-1',
  '1e21',
];
export const BAD_PERCENT = [
  '%',
  '%zz',
  '%00',
  '%C0%AF',
  '%FF%FE',
  '%E2%82',
  '%2F',
  '%2e%2e',
  '%25',
  '%ud800',
  '%F0%9F%98%80',
];
export const BAD_PATH_VALUES = [
  ['..', '.', 'a%2Fb', ';', 'null', 'undefined', '-1', '0', '1e400', 'NaN', '%20', '__proto__'],
  ['constructor', '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'],
  ['ttid_0000000000000000000000'],
].flat();
export const CONTENT_TYPES = [
  ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'],
  ['application/json; charset=utf-16', 'application/json; charset=latin1', 'APPLICATION/JSON'],
  ['application/json, text/plain', 'application/jsonx', '*/*', '', 'application/vnd.api+json'],
  ['application/json;;;', 'text/plain; charset=ÿ', undefined],
].flat();
export const WRONG_QUERY_VALUES = [
  ['abc', '1.5', '-1', '1e309', '99999999999999999999', '', 'NaN', '0x10', '2026-02-30', '9999-12-31'],
  ['0000-00-00', '2026-13-01', '1-1-1'],
].flat();
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'];

export function hugeString(rng) {
  const length = rng.int(1_000, 100_000);
  return rng.chance(0.5) ? rng.pick(['x', 'é', '😀', '\u0000', '%']).repeat(length) : rng.text(length);
}

export function deepJson(rng) {
  const depth = rng.int(50, 10_000);
  return rng.chance(0.5)
    ? '['.repeat(depth) + ']'.repeat(depth)
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A value of a random JSON type, including raw text JSON.stringify cannot produce. */
export function junkValue(rng) {
  switch (rng.int(0, 9)) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick([0, -1, 1.5, 2 ** 53, -(2 ** 31), 1e308]);
    case 3:
      return rng.pick(NASTY_STRINGS);
    case 4:
      return [];
    case 5:
      return {};
    case 6:
      return [rng.pick(NASTY_STRINGS), 1, null];
    case 7:
      return { [rng.pick(NASTY_STRINGS)]: rng.pick(NASTY_STRINGS) };
    case 8:
      return raw(rng.pick(ODD_NUMBERS));
    default:
      return rng.text(rng.int(1, 40));
  }
}

// Raw JSON fragments (deep nesting, 1e999, duplicate keys) ride through JSON.stringify as marked
// strings and are substituted afterwards.
const RAW_MARK = '\u0001raw:';
export const raw = (text) => `${RAW_MARK}${Buffer.from(text).toString('base64')}\u0001`;
export function serialize(value) {
  return JSON.stringify(value).replace(/"\\u0001raw:([A-Za-z0-9+/=]*)\\u0001"/g, (_, b64) =>
    Buffer.from(b64, 'base64').toString(),
  );
}
