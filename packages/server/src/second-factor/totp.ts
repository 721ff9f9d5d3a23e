/**
 * TOTP as authenticator apps expect it (RFC 6238): SHA-1, 6 digits, 30-second steps, through
 * the `otpauth` package. A code of the step before or after the current one is accepted too,
 * for phone clocks a little off.
 */
import { Secret, TOTP } from 'otpauth';

export const TOTP_PERIOD_S = 30;
const DIGITS = 6;
const WINDOW_STEPS = 1;
const ISSUER = 'Touchtrail';
/** 160 bits, the length RFC 4226 recommends for HMAC-SHA-1. */
const SECRET_BYTES = 20;

/** A new random secret, in base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

const totpOf = (secretBase32: string, label = '') =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });

/** The `otpauth://totp/…` URI an app reads from a QR code. */
export function otpauthUri(secretBase32: string, email: string): string {
  return totpOf(secretBase32, email).toString();
}

export const isTotpCode = (code: string) => /^\d{6}$/.test(code);

/** The time step a code belongs to, or null when it matches none within the window. */
export function matchStep(secretBase32: string, code: string, at: Date): number | null {
  if (!isTotpCode(code)) return null;
  const timestamp = at.getTime();
  const delta = totpOf(secretBase32).validate({ token: code, timestamp, window: WINDOW_STEPS });
  return delta === null ? null : TOTP.counter({ period: TOTP_PERIOD_S, timestamp }) + delta;
}
