/**
 * The fuzzer's seeded randomness (mulberry32): one generator per request, so request N is the same
 * whatever ran before it.
 */

export function createRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min, max) => min + Math.floor(next() * (max - min + 1));
  const pick = (list) => list[int(0, list.length - 1)];
  const text = (length, alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') => {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[int(0, alphabet.length - 1)];
    return out;
  };
  return { next, int, pick, text, chance: (p) => next() < p };
}

export const randomFor = (seed, index) => createRandom((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
