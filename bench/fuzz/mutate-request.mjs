/** Mutations of everything but the body: path values, query string, method and headers. */
import {
  BAD_PATH_VALUES,
  BAD_PERCENT,
  hugeString,
  METHODS,
  NASTY_STRINGS,
  WRONG_QUERY_VALUES,
} from './hostile.mjs';

export const requestMutations = {
  pathValue(request, { rng }) {
    const params = Object.keys(request.pathValues);
    if (params.length === 0) {
      request.extraPath = rng.pick([
        '/%zz',
        '/x'.repeat(rng.int(1, 40)),
        '/',
        '//',
        `/${rng.pick(BAD_PERCENT)}`,
      ]);
      return;
    }
    const choice = rng.int(0, 4);
    const value =
      choice === 0
        ? { value: rng.pick(BAD_PERCENT) + rng.pick(['', 'x', rng.pick(BAD_PERCENT)]), raw: true }
        : choice === 1
          ? { value: 'x'.repeat(rng.pick([499, 500, 501, rng.int(502, 20_000)])), raw: false }
          : choice === 2
            ? { value: rng.pick(BAD_PATH_VALUES), raw: true }
            : choice === 3
              ? { value: rng.pick(NASTY_STRINGS), raw: false }
              : {
                  value: `${request.pathValues[params[0]].value}${rng.pick(['x', '%00', '/', ' ', 'é'])}`,
                  raw: false,
                };
    request.pathValues[rng.pick(params)] = value;
    request.foreignPath = false;
  },
  queryDrop(request, { rng }) {
    if (request.query.length > 0) request.query.splice(rng.int(0, request.query.length - 1), 1);
  },
  queryUnknown(request, { rng }) {
    const key = rng.pick([
      '__proto__',
      'constructor',
      'toString',
      'a[b]',
      'site_id[]',
      '',
      'x',
      rng.text(200),
    ]);
    request.query.push({ key, value: rng.pick(NASTY_STRINGS), raw: false });
  },
  queryRepeat(request, { rng }) {
    if (request.query.length === 0) return;
    const item = rng.pick(request.query);
    request.query.push({ ...item, value: rng.chance(0.5) ? item.value : rng.pick(NASTY_STRINGS) });
  },
  queryValue(request, { rng, op }) {
    const key = op.query.length > 0 ? rng.pick(op.query).name : 'site_id';
    request.query = request.query.filter((item) => item.key !== key);
    const choice = rng.int(0, 3);
    const value =
      choice === 0
        ? {
            value: rng.pick(WRONG_QUERY_VALUES),
            raw: false,
          }
        : choice === 1
          ? { value: hugeString(rng), raw: false }
          : choice === 2
            ? { value: rng.pick(BAD_PERCENT) + rng.pick(BAD_PERCENT), raw: true }
            : { value: rng.pick(NASTY_STRINGS), raw: false };
    request.query.push({ key, ...value });
  },
  rawQuery(request, { rng }) {
    const garbage = [
      '%',
      '=&=',
      'a=%zz',
      '&&&',
      '?',
      '#',
      'site_id',
      '%00=%00',
      `site_id=${rng.pick(BAD_PERCENT)}`,
    ];
    request.rawQuery = rng.pick(garbage);
  },
  method(request, { rng }) {
    request.method = rng.pick(METHODS);
  },
  unexpectedBody(request, { rng }) {
    request.body = { site_id: request.query[0]?.value ?? 'x', extra: rng.pick(NASTY_STRINGS) };
    request.contentType ??= 'application/json';
  },
  headers(request, { rng }) {
    const [name, value] = rng.pick([
      ['x-forwarded-for', rng.pick(['garbage', '999.1.1.1', '::ffff:zz', '1.1.1.1, '.repeat(500), ''])],
      ['x-request-id', rng.pick(['<script>', 'a'.repeat(500), '../x', ''])],
      ['accept', rng.pick(['text/html', '*/*;q=ÿ', 'application/xml', ''])],
      ['accept-encoding', rng.pick(['gzip;q=2', 'br, zstd, x', 'ÿ'])],
      ['origin', rng.pick(['https://evil.example', 'null', 'ÿ'])],
      ['host', rng.pick(['evil.example', '', 'a'.repeat(300), '[::1'])],
      ['user-agent', rng.pick(['GPTBot/1.0', '', `Mozilla/5.0 ${'x'.repeat(8000)}`])],
      ['referer', rng.pick(['https://chatgpt.com/', 'ÿ', 'x'.repeat(5000)])],
      ['x-http-method-override', 'DELETE'],
      ['transfer-encoding', 'chunked'],
    ]);
    request.headers[name] = value;
  },
};

export const QUERY_MUTATIONS = ['queryDrop', 'queryUnknown', 'queryRepeat', 'queryValue', 'rawQuery'];
export const OTHER_MUTATIONS = ['pathValue', 'method', 'unexpectedBody', 'headers'];
