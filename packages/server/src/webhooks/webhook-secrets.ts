/**
 * Signing secrets. HMAC signing needs the plaintext, so a secret cannot be stored as a hash:
 * it is sealed with AES-256-GCM under a key derived (HKDF-SHA256) from SECRET_KEY, with the
 * endpoint id as associated data so a sealed value copied onto another row does not open.
 * Secrets appear only in the create and rotate responses; never in listings or logs.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT = 'v1';

/** `whsec_` + base64 of 32 random bytes, as the Standard Webhooks libraries expect. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export interface SecretBox {
  seal(secret: string, webhookId: string): string;
  open(sealed: string, webhookId: string): string;
}

export function createSecretBox(secretKey: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secretKey, 'touchtrail', 'webhook signing secrets v1', 32));
  return {
    seal(secret, webhookId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(webhookId));
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
    },
    open(sealed, webhookId) {
      const [format, encoded] = sealed.split(':');
      if (format !== FORMAT || !encoded) throw new Error('unknown sealed secret format');
      const raw = Buffer.from(encoded, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(webhookId));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

/** Opens a sealed secret, or explains the one way that fails in practice. */
export function openSecret(box: SecretBox, sealed: string, webhookId: string): string {
  try {
    return box.open(sealed, webhookId);
  } catch {
    throw new Error('the signing secret cannot be decrypted (was SECRET_KEY changed?); rotate it');
  }
}
