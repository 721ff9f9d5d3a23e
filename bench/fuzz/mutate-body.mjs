/** Mutations of a request's body and content type, and the body's slots they aim at. */
import {
  CONTENT_TYPES,
  deepJson,
  hugeString,
  junkValue,
  NASTY_STRINGS,
  ODD_NUMBERS,
  raw,
  serialize,
} from './hostile.mjs';

/** Paths of every slot (object property or array item) in `value`, root first. */
function slotsOf(value, trail = []) {
  const slots = [trail];
  if (value && typeof value === 'object') {
    for (const key of Object.keys(value)) slots.push(...slotsOf(value[key], [...trail, key]));
  }
  return slots;
}

function setAt(request, trail, value) {
  if (trail.length === 0) {
    request.body = value;
    return;
  }
  let parent = request.body;
  for (const key of trail.slice(0, -1)) parent = parent[key];
  parent[trail.at(-1)] = value;
}

function randomSlot(request, rng) {
  if (!request.body || typeof request.body !== 'object') request.body = {};
  return rng.pick(
    slotsOf(request.body)
      .slice(1)
      .concat([[rng.pick(['site_id', 'name', 'x'])]]),
  );
}

export const bodyMutations = {
  dropField(request, { rng }) {
    if (!request.body || typeof request.body !== 'object') return;
    const trail = rng.pick(slotsOf(request.body).slice(1).concat([[]]));
    if (trail.length === 0) return;
    let parent = request.body;
    for (const key of trail.slice(0, -1)) parent = parent[key];
    if (Array.isArray(parent)) parent.splice(Number(trail.at(-1)), 1);
    else delete parent[trail.at(-1)];
  },
  unknownField(request, { rng }) {
    const key = rng.pick([
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'x',
      '',
      'site_id ',
      'a.b',
      rng.text(300),
    ]);
    if (!request.body || typeof request.body !== 'object' || Array.isArray(request.body)) request.body = {};
    // `__proto__` as an own key needs defineProperty; JSON.stringify then writes it like any key.
    Object.defineProperty(request.body, key, {
      value: junkValue(rng),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  },
  wrongType(request, { rng }) {
    setAt(request, randomSlot(request, rng), junkValue(rng));
  },
  hugeString(request, { rng }) {
    setAt(request, randomSlot(request, rng), hugeString(rng));
  },
  deepNesting(request, { rng }) {
    setAt(request, randomSlot(request, rng), raw(deepJson(rng)));
  },
  nastyString(request, { rng }) {
    setAt(request, randomSlot(request, rng), rng.pick(NASTY_STRINGS));
  },
  oddNumber(request, { rng }) {
    setAt(request, randomSlot(request, rng), raw(rng.pick(ODD_NUMBERS)));
  },
  bigArray(request, { rng }) {
    setAt(
      request,
      randomSlot(request, rng),
      Array.from({ length: rng.int(501, 20_000) }, (_, i) => i),
    );
  },
  duplicateKeys(request, { rng }) {
    const value = serialize(request.body ?? {});
    request.rawBody = value.startsWith('{')
      ? `{"site_id":${JSON.stringify(rng.pick(NASTY_STRINGS))},${value.slice(1)}`
      : value;
  },
  badJson(request, { rng }) {
    const text = serialize(request.body ?? { a: 1 });
    const broken = [text.slice(0, rng.int(0, Math.max(0, text.length - 1))), `${text}}`, `${text}\u0000`];
    const invalid = ['{"a":1,}', '{a:1}', 'NaN', '\ufeff{}', '{"a":"\\x"}', '{"a":"\\ud800"}', '[,]'];
    request.rawBody = rng.pick([...broken, text.replaceAll('"', "'"), ...invalid]);
  },
  randomBytes(request, { rng }) {
    request.rawBody = Buffer.from(Array.from({ length: rng.int(1, 4096) }, () => rng.int(0, 255)));
  },
  emptyBody(request) {
    request.rawBody = '';
  },
  nonObjectBody(request, { rng }) {
    request.rawBody = rng.pick(['null', '[]', '1', '"x"', 'true', '[{}]', JSON.stringify([request.body])]);
  },
  hugeBody(request, { rng }) {
    request.rawBody = `{"site_id":"${'x'.repeat(rng.int(1_048_577, 1_300_000))}"}`;
  },
  contentType(request, { rng }) {
    request.contentType = rng.pick(CONTENT_TYPES);
    if (request.body === undefined && request.rawBody === undefined) request.body = { a: 1 };
  },
};

export const BODY_MUTATIONS = [
  ['dropField', 'unknownField', 'wrongType', 'hugeString', 'deepNesting', 'nastyString', 'oddNumber'],
  ['bigArray', 'duplicateKeys', 'badJson', 'randomBytes', 'emptyBody', 'nonObjectBody', 'hugeBody'],
  ['contentType'],
].flat();
