import { randomBytes, randomInt, randomUUID } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniformly random base62 text (no modulo bias: `randomInt` rejects out-of-range draws). */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export const newId = randomUUID;

export const API_KEY_PREFIX = 'tk_live_';
export const API_KEY_PATTERN = /^tk_live_[0-9A-Za-z]{32,64}$/;
export const SNIPPET_KEY_PATTERN = /^ttid_[0-9A-Za-z]{22}$/;
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A site as a caller names it: snippet key, or (for a dashboard session) the internal UUID. */
export const SITE_REF_PATTERN =
  /^(ttid_[0-9A-Za-z]{22}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

export function newApiKey(): string {
  return API_KEY_PREFIX + randomBase62(40);
}

export function newSnippetKey(): string {
  return `ttid_${randomBase62(22)}`;
}
