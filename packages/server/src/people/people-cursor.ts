/**
 * The `before` cursor of the people listing: the last listed person and their sort value,
 * sealed with AES-256-GCM under a key derived from the server secret. Sealed, not just encoded,
 * because the person is a raw visitor id or a person key, which never leave the server; the
 * site and the sort are bound in as associated data, so a cursor only opens for the listing
 * that made it (another site or sort reads as malformed).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { PersonId } from '../identity/identity.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** A person id is at most 2 + 66 characters and a sort value 20; anything longer was not minted here. */
const MAX_PLAINTEXT_BYTES = 200;
const SORT_VALUE = /^-?\d{1,19}$/;
const PERSON = /^(p|v):[\x21-\x7e]{1,100}$/;

export interface PeopleCursor {
  /** The sort value of the last listed person, a whole number written in decimal. */
  value: string;
  person: PersonId;
}

export interface PeopleCursorCodec {
  encode(cursor: PeopleCursor, scope: { siteId: string; sort: string }): string;
  /** The cursor, or null for anything this server did not mint for the same site and sort. */
  decode(text: string, scope: { siteId: string; sort: string }): PeopleCursor | null;
}

const aadOf = ({ siteId, sort }: { siteId: string; sort: string }) =>
  Buffer.from(`touchtrail/people-cursor/v1|${siteId}|${sort}`);

export function createPeopleCursorCodec(secretKey: string): PeopleCursorCodec {
  const key = Buffer.from(hkdfSync('sha256', secretKey, 'touchtrail', 'people-cursor/aes-256-gcm/v1', 32));

  return {
    encode({ value, person }, scope) {
      // Random IVs: a cursor need not be stable, and GCM must never see an IV twice.
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aadOf(scope));
      const sealed = Buffer.concat([cipher.update(JSON.stringify([value, person])), cipher.final()]);
      return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
    },

    decode(text, scope) {
      if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
      const bytes = Buffer.from(text, 'base64url');
      if (bytes.toString('base64url') !== text) return null;
      if (bytes.length <= IV_BYTES + TAG_BYTES || bytes.length > IV_BYTES + MAX_PLAINTEXT_BYTES + TAG_BYTES)
        return null;
      let plaintext: string;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(aadOf(scope));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
        plaintext = Buffer.concat([
          decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        return null;
      }
      const parsed: unknown = JSON.parse(plaintext);
      if (!Array.isArray(parsed) || parsed.length !== 2) return null;
      const [value, person] = parsed;
      if (typeof value !== 'string' || !SORT_VALUE.test(value)) return null;
      if (typeof person !== 'string' || !PERSON.test(person)) return null;
      return { value, person: person as PersonId };
    },
  };
}
