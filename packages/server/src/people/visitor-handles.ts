/**
 * Visitor handles (`vh_…`, DESIGN.md §4): AES-256-GCM over (site UUID, a visit UUID of the
 * person) under a key derived from the server secret, so a handle can be neither read, forged,
 * nor walked. The person is named through their earliest visit rather than their person key (a
 * 32-byte HMAC) or visitor id (up to 64 characters): two UUIDs make every handle 83 characters,
 * short enough for URLs and Fastify's default 100-character path parameter. The visit's
 * visitor id leads to the person (its earliest identity link).
 * The IV is synthetic (an HMAC of the plaintext under a second key): a person's handle is
 * stable, and a repeated IV only ever meets the same plaintext, so GCM's nonce reuse cannot bite.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto';

const PREFIX = 'vh_';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PLAINTEXT_BYTES = 32;
const SEALED_BYTES = IV_BYTES + PLAINTEXT_BYTES + TAG_BYTES;
/** Binds ciphertexts to this use and version; a later format would change it. */
const AAD = Buffer.from('touchtrail/visitor-handle/v1');

export interface HandleSubject {
  siteId: string;
  visitId: string;
}

export interface HandleCodec {
  encode(subject: HandleSubject): string;
  /** The subject, or null for anything that is not a handle this server minted. */
  decode(handle: string): HandleSubject | null;
}

function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'touchtrail', purpose, 32));
}

const uuidToBytes = (uuid: string) => Buffer.from(uuid.replaceAll('-', ''), 'hex');

function bytesToUuid(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function createHandleCodec(secretKey: string): HandleCodec {
  const encryptionKey = deriveKey(secretKey, 'visitor-handle/aes-256-gcm/v1');
  const ivKey = deriveKey(secretKey, 'visitor-handle/synthetic-iv/v1');

  return {
    encode({ siteId, visitId }) {
      const plaintext = Buffer.concat([uuidToBytes(siteId), uuidToBytes(visitId)]);
      const iv = createHmac('sha256', ivKey).update(plaintext).digest().subarray(0, IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(AAD);
      const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return PREFIX + Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64url');
    },

    decode(handle) {
      if (!handle.startsWith(PREFIX)) return null;
      const body = handle.slice(PREFIX.length);
      if (!/^[A-Za-z0-9_-]+$/.test(body)) return null;
      const sealed = Buffer.from(body, 'base64url');
      // Base64url has several spellings of some byte strings; only the canonical one is a handle.
      if (sealed.length !== SEALED_BYTES || sealed.toString('base64url') !== body) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', encryptionKey, sealed.subarray(0, IV_BYTES), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(AAD);
        decipher.setAuthTag(sealed.subarray(IV_BYTES + PLAINTEXT_BYTES));
        const plaintext = Buffer.concat([
          decipher.update(sealed.subarray(IV_BYTES, IV_BYTES + PLAINTEXT_BYTES)),
          decipher.final(),
        ]);
        return {
          siteId: bytesToUuid(plaintext.subarray(0, 16)),
          visitId: bytesToUuid(plaintext.subarray(16)),
        };
      } catch {
        return null;
      }
    },
  };
}
