/**
 * Sealing for OpenID Connect: the start cookie (state, nonce, PKCE verifier, invitation token)
 * and the stored ID token. AES-256-GCM under a key derived (HKDF-SHA256) from SECRET_KEY: it
 * both signs and hides, and the purpose is bound as associated data so a value sealed for one
 * use does not open as another.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

export type SealPurpose = 'oidc-start' | 'oidc-id-token';

export interface OidcSeal {
  seal(value: string, purpose: SealPurpose): string;
  /** The sealed text, or undefined when it was changed, truncated or sealed under another key. */
  open(sealed: string, purpose: SealPurpose): string | undefined;
}

export function createOidcSeal(secretKey: string): OidcSeal {
  const key = Buffer.from(hkdfSync('sha256', secretKey, 'touchtrail', 'oidc/aes-256-gcm/v1', 32));
  return {
    seal(value, purpose) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(purpose));
      const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed, purpose) {
      const raw = Buffer.from(sealed, 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(purpose));
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([
          decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}
