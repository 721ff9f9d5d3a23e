/** RFC 6238 Appendix B through `otpauth`, and the window and step rules built on it. */
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { matchStep, newTotpSecret, otpauthUri } from './totp.js';

describe('TOTP', () => {
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('gives the RFC 6238 Appendix B SHA-1 code at %i s', (seconds, expected) => {
    const totp = new TOTP({
      algorithm: 'SHA1',
      digits: 8,
      period: 30,
      secret: Secret.fromLatin1('12345678901234567890'),
    });
    expect(totp.generate({ timestamp: seconds * 1000 })).toBe(expected);
  });

  it('accepts the code of this step and the steps either side, and names the step', () => {
    const secret = newTotpSecret();
    const at = new Date('2026-03-01T10:00:10Z');
    const step = Math.floor(at.getTime() / 30_000);
    const codeAt = (ms: number) =>
      new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
        timestamp: ms,
      });
    expect(matchStep(secret, codeAt(at.getTime()), at)).toBe(step);
    expect(matchStep(secret, codeAt(at.getTime() - 30_000), at)).toBe(step - 1);
    expect(matchStep(secret, codeAt(at.getTime() + 30_000), at)).toBe(step + 1);
    expect(matchStep(secret, codeAt(at.getTime() - 60_000), at)).toBeNull();
    expect(matchStep(secret, codeAt(at.getTime() + 60_000), at)).toBeNull();
    expect(matchStep(secret, '12345', at)).toBeNull();
    expect(matchStep(secret, 'abcdef', at)).toBeNull();
  });

  it('makes 160-bit secrets and an otpauth URI with issuer, SHA1, 6 digits and 30 s', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri(secret, 'ana@example.com'));
    expect(`${uri.protocol}//${uri.host}`).toBe('otpauth://totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Touchtrail:ana@example.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      issuer: 'Touchtrail',
      secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
