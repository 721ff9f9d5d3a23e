/**
 * The one-time links of invitations and password resets: a random token, stored only as its
 * SHA-256, carried in the link's fragment (`#token=…`) so it never reaches a server log or a
 * Referer header; the dashboard page reads it and posts it to the API.
 */
import { AppError } from '../http/errors.js';
import { randomToken } from '../lib/ids.js';
import { sha256Hex } from '../lib/secrets.js';

export type LinkPage = 'accept-invitation' | 'reset-password';

/** Tokens are 43 base64url characters; anything far longer is refused before hashing. */
export const MAX_TOKEN_LENGTH = 200;

export function newOneTimeToken(): { token: string; tokenHash: string } {
  const token = randomToken(32);
  return { token, tokenHash: sha256Hex(token) };
}

export function hashOneTimeToken(token: string): string {
  return sha256Hex(token);
}

export function oneTimeLink(publicUrl: string, page: LinkPage, token: string): string {
  return `${publicUrl}/${page}#token=${token}`;
}

/** One answer for an unknown, used, revoked or expired token, so none can be told from another. */
export const invalidLink = () =>
  new AppError(400, 'invalid_token', 'This link is not valid: it is unknown, used, revoked or expired');
