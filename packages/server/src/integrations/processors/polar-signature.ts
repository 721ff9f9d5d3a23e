/**
 * Polar's webhook signature: Standard Webhooks (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`), five minutes of tolerance
 * either way (polar.sh/docs/integrate/webhooks/delivery; the spec's verifier in `standardwebhooks`).
 *
 * Polar keys the HMAC in one of two ways and the receiver cannot tell which from the secret alone
 * (polarsource/polar `server/polar/webhook/tasks.py`, `sign_webhook`): endpoints whose secret was
 * generated from 2026-09-08 use the Standard Webhooks key (the base64 after `whsec_`); older ones,
 * and Polar's own SDK (`validateEvent` base64-encodes the secret first), use the UTF-8 bytes of the
 * whole secret. Both keys come from the one secret, so accepting either proves the same thing.
 */
import { timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { SignatureError, type SignedDelivery } from '../processor.js';

export const POLAR_TOLERANCE_SECONDS = 5 * 60;
const MAX_SIGNATURES = 8;

export type PolarKeyScheme = 'standard' | 'legacy';

/** The HMAC key of `secret` under one scheme; null when the secret cannot be read that way. */
export function polarKey(secret: string, scheme: PolarKeyScheme): Uint8Array | null {
  if (scheme === 'legacy') return secret.length > 0 ? Buffer.from(secret, 'utf8') : null;
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : null;
  if (encoded === null || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return null;
  const key = Buffer.from(encoded, 'base64');
  return key.length > 0 ? key : null;
}

/** `v1,<base64>` for the message `id.timestamp.body` under `key`, as `standardwebhooks` signs it. */
export function polarSignature(key: Uint8Array, id: string, timestampSeconds: number, body: string): string {
  return new Webhook(key, { format: 'raw' }).sign(id, new Date(timestampSeconds * 1000), body);
}

function requiredHeader(delivery: SignedDelivery, name: string): string {
  const value = delivery.header(name)?.trim();
  if (!value) throw new SignatureError(`missing ${name} header`);
  return value;
}

/** The base64 parts of the `v1` entries of a space-separated `webhook-signature` header. */
function v1Signatures(header: string): string[] {
  const entries = header.split(' ').filter((entry) => entry.length > 0);
  const parsed = entries.map((entry) => /^([a-z0-9]+),([A-Za-z0-9+/]+={0,2})$/.exec(entry));
  if (entries.length > MAX_SIGNATURES || parsed.some((match) => match === null))
    throw new SignatureError('malformed webhook-signature header (expected "v1,<base64>" entries)');
  const v1 = parsed.flatMap((match) => (match?.[1] === 'v1' && match[2] ? [match[2]] : []));
  if (v1.length === 0) throw new SignatureError('webhook-signature header has no v1 signature');
  return v1;
}

function equalText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Checks the delivery's signature and freshness at `now` and returns its `webhook-id` (Polar's
 * event id, the same on every retry). The freshness check is ours rather than the package's
 * `verify`, which reads the system clock.
 */
export function verifyPolarSignature(delivery: SignedDelivery, secret: string, now: Date): string {
  const id = requiredHeader(delivery, 'webhook-id');
  const timestampText = requiredHeader(delivery, 'webhook-timestamp');
  const signatures = v1Signatures(requiredHeader(delivery, 'webhook-signature'));
  if (!/^\d{1,12}$/.test(timestampText))
    throw new SignatureError('malformed webhook-timestamp header (expected Unix seconds)');
  const timestamp = Number(timestampText);
  const age = Math.floor(now.getTime() / 1000) - timestamp;
  if (age > POLAR_TOLERANCE_SECONDS)
    throw new SignatureError(`webhook-timestamp is more than ${POLAR_TOLERANCE_SECONDS} seconds old`);
  if (-age > POLAR_TOLERANCE_SECONDS)
    throw new SignatureError(
      `webhook-timestamp is more than ${POLAR_TOLERANCE_SECONDS} seconds in the future`,
    );
  const keys = [polarKey(secret, 'standard'), polarKey(secret, 'legacy')].filter((key) => key !== null);
  if (keys.length === 0) throw new SignatureError('the connection has no signing secret');
  const expected = keys.map((key) =>
    polarSignature(key, id, timestamp, delivery.rawBody).slice('v1,'.length),
  );
  const matches = expected.some((mine) => signatures.some((theirs) => equalText(mine, theirs)));
  if (!matches) throw new SignatureError('webhook-signature does not match the body and the signing secret');
  return id;
}
