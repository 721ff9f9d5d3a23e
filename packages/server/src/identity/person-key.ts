/**
 * A person's key: an HMAC-SHA-256 of a user id or of a normalised email address under the
 * server secret. The raw value is never stored; the same email always gives the same key, so a
 * payment's email finds the visits of the person who signed in with it.
 */
import { hmacHex } from '../lib/secrets.js';

const EMAIL_LIKE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmailLike(value: string): boolean {
  return EMAIL_LIKE.test(value.trim());
}

export function emailPersonKey(secret: string, email: string): string {
  return `e:${hmacHex(secret, `email:${email.trim().toLowerCase()}`)}`;
}

export function userPersonKey(secret: string, userId: string): string {
  return `u:${hmacHex(secret, `user:${userId}`)}`;
}

/** identify() takes either; an email-shaped value is treated as an email. */
export function personKeyFor(secret: string, userIdOrEmail: string): string {
  return isEmailLike(userIdOrEmail)
    ? emailPersonKey(secret, userIdOrEmail)
    : userPersonKey(secret, userIdOrEmail);
}
