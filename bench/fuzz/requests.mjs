/**
 * One request: a well-formed start from the operation's schema, then zero to three mutations, then
 * the target, body and headers as they go on the wire.
 */
import { pathPool, pickCredential } from './credentials.mjs';
import { serialize } from './hostile.mjs';
import { BODY_MUTATIONS, bodyMutations } from './mutate-body.mjs';
import { OTHER_MUTATIONS, QUERY_MUTATIONS, requestMutations } from './mutate-request.mjs';
import { randomFor } from './prng.mjs';
import { generate } from './valid-values.mjs';

const MUTATIONS = { ...bodyMutations, ...requestMutations };

function baseRequest(op, ctx, index) {
  const { rng } = ctx;
  const credential = pickCredential(ctx);
  const request = {
    index,
    op: `${op.method} ${op.template}`,
    method: op.method,
    pathValues: {},
    foreignPath: false,
    query: [],
    body: undefined,
    rawBody: undefined,
    contentType: op.body?.contentType,
    credential,
    headers: { ...credential.headers },
    mutations: [],
  };
  for (const param of op.pathParams) {
    const pool = pathPool(op, param, ctx.fx);
    const ownAccount = credential.account === 'rival' ? 'rival' : 'owner';
    const otherAccount = ownAccount === 'owner' ? 'rival' : 'owner';
    // A rival credential is pointed at the owner's ids: its own would prove nothing.
    const wantsForeign = credential.account === 'rival' || (credential.account && rng.chance(0.25));
    const values = wantsForeign && pool[otherAccount].length > 0 ? pool[otherAccount] : pool.owner;
    request.pathValues[param] = { value: rng.pick(values), raw: false };
    if (wantsForeign && values === pool[otherAccount]) request.foreignPath = true;
  }
  for (const parameter of op.query) {
    if (parameter.required || rng.chance(0.4)) {
      const value = generate(parameter.schema, ctx, parameter.name);
      request.query.push({ key: parameter.name, value: String(value), raw: false });
    }
  }
  if (op.body) {
    const value = generate(op.body.schema, ctx, undefined);
    if (value !== null) request.body = value;
  }
  return request;
}

export function buildRequest(fx, operations, seed, index) {
  const rng = randomFor(seed, index);
  const op = rng.pick(operations);
  // One request in eight stays well-formed, with a credential that can do anything, so that
  // success paths run under the same load.
  const count = rng.chance(0.125) ? 0 : rng.int(1, 3);
  const ctx = { rng, fx, op, isWellFormed: count === 0 };
  const request = baseRequest(op, ctx, index);
  for (let i = 0; i < count; i++) {
    const pool = rng.pick(
      [
        op.body ? BODY_MUTATIONS : null,
        op.body ? BODY_MUTATIONS : null,
        op.query.length > 0 ? QUERY_MUTATIONS : null,
        op.pathParams.length > 0 ? ['pathValue'] : null,
        OTHER_MUTATIONS,
      ].filter(Boolean),
    );
    const mutation = rng.pick(pool);
    MUTATIONS[mutation](request, ctx);
    request.mutations.push(mutation);
  }
  return finish(request, op, rng);
}

/** encodeURIComponent, except that a lone surrogate goes out as its three WTF-8 bytes instead of throwing. */
function percentEncode(text) {
  return text.replace(/./gsu, (char) => {
    const unit = char.charCodeAt(0);
    if (char.length === 2 || unit < 0xd800 || unit > 0xdfff) return encodeURIComponent(char);
    return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
      .map((byte) => `%${byte.toString(16).toUpperCase()}`)
      .join('');
  });
}

const encodeSegment = ({ value, raw: isRaw }) => (isRaw ? value : percentEncode(value));

function finish(request, op, rng) {
  let target = op.template.replace(/\{(\w+)\}/g, (_, name) => encodeSegment(request.pathValues[name]));
  target += request.extraPath ?? '';
  const query =
    request.rawQuery ??
    request.query
      .map((item) =>
        item.raw ? `${item.key}=${item.value}` : `${percentEncode(item.key)}=${percentEncode(item.value)}`,
      )
      .join('&');
  if (query) target += `?${query}`;
  let body = request.rawBody;
  if (body === undefined && request.body !== undefined) body = serialize(request.body);
  const headers = { ...request.headers, 'x-request-id': `fz-${request.index}` };
  // The per-address rate limits would answer most of the run with 429: each request gets its own
  // address (the server trusts loopback proxies in this run), unless a mutation set the header.
  headers['x-forwarded-for'] ??= `10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
  if (body !== undefined && request.contentType !== undefined) headers['content-type'] = request.contentType;
  // Node's client sends a DELETE's or GET's body with no length at all; the server would read it
  // as the start of the next request.
  if (body !== undefined && !headers['transfer-encoding'])
    headers['content-length'] = Buffer.byteLength(body);
  // A path with bytes Node refuses to send is sent percent-encoded.
  target = target.replace(/[^\u0021-\u00ff]/gu, (char) => percentEncode(char));
  return { ...request, target, body, headers };
}
