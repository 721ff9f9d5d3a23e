/**
 * Recovery codes: ten one-time codes shown once at enrolment, for a lost phone. Each has about
 * 59 random bits, so a SHA-256 of it is enough at rest (no slow hash needed).
 */
import { randomInt } from 'node:crypto';
import { sha256Hex } from '../lib/secrets.js';

export const RECOVERY_CODE_COUNT = 10;
// No 0/o, 1/l/i: read off paper without mistakes.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUPS = 3;
const GROUP_LENGTH = 4;

/** `xxxx-xxxx-xxxx` */
function newRecoveryCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    let group = '';
    for (let i = 0; i < GROUP_LENGTH; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
}

/** Case, spaces and dashes do not matter when a code is typed back. */
export function recoveryCodeHash(code: string): string {
  return sha256Hex(code.toLowerCase().replace(/[\s-]/g, ''));
}
