/**
 * The envelope and signature of every webhook request, per the Standard Webhooks
 * specification: body `{type, id, created_at, data}` where `id` is the `whd_…` envelope id,
 * also sent as `webhook-id` (the same on every retry, so receivers can deduplicate);
 * `webhook-timestamp` is the attempt's Unix time and `webhook-signature` is
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, signed with the `standardwebhooks` package.
 */
import { Webhook } from 'standardwebhooks';
import { randomBase62 } from '../lib/ids.js';

export const ENVELOPE_PREFIX = 'whd_';
const USER_AGENT = 'Touchtrail-Webhooks/1.0';

export function newEnvelopeId(): string {
  return ENVELOPE_PREFIX + randomBase62(24);
}

/** The body text, fields in the order the specification lists them. */
export function buildEnvelope(type: string, envelopeId: string, createdAt: Date, data: object): string {
  return JSON.stringify({ type, id: envelopeId, created_at: createdAt.toISOString(), data });
}

/**
 * Headers of one attempt. `sentAt` is wall-clock time, not the service clock: receivers compare
 * it with their own clocks (a tolerance of five minutes is usual) to refuse replays.
 */
export function signedHeaders(
  secret: string,
  envelopeId: string,
  body: string,
  sentAt: Date,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': envelopeId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(envelopeId, sentAt, body),
  };
}
