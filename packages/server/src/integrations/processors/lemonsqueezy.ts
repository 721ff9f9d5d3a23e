/**
 * Lemon Squeezy webhooks: verified by the `X-Signature` header, read by lemonsqueezy-read.ts.
 * Signing as documented at https://docs.lemonsqueezy.com/help/webhooks/signing-requests :
 * the hex HMAC-SHA256 digest of the raw body, keyed with the webhook's signing secret.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { PayloadError, type Processor, SignatureError, type SignedDelivery } from '../processor.js';
import { readLemonSqueezyEvent } from './lemonsqueezy-read.js';

const SIGNATURE_HEADER = 'x-signature';
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * Lemon Squeezy signs no timestamp, so `now` is unused: a captured request could be replayed
 * at any time. A replay carries the same body, so it gets the same event id and is not
 * applied twice; and refunds are running totals, so even a new id could not count one twice.
 */
function verifyLemonSqueezy(delivery: SignedDelivery, secret: string, _now: Date): unknown {
  if (secret.length === 0) throw new SignatureError('the connection has no signing secret');
  const header = delivery.header(SIGNATURE_HEADER);
  if (header === undefined || header.trim() === '') throw new SignatureError('missing X-Signature header');
  const sent = header.trim();
  if (!HEX_SHA256.test(sent))
    throw new SignatureError('malformed X-Signature header: expected a hex HMAC-SHA256 digest');
  const expected = createHmac('sha256', secret).update(delivery.rawBody, 'utf8').digest();
  if (!timingSafeEqual(expected, Buffer.from(sent, 'hex')))
    throw new SignatureError("X-Signature does not match the body signed with this connection's secret");
  try {
    return JSON.parse(delivery.rawBody);
  } catch {
    throw new PayloadError('the body is not JSON');
  }
}

/**
 * The event name is read from the signed body (`meta.event_name`), not from the unsigned
 * `X-Event-Name` header that repeats it.
 */
export const lemonsqueezy: Processor = {
  name: 'lemonsqueezy',
  secretHint: 'the signing secret you chose when creating the webhook in Lemon Squeezy, Settings » Webhooks',
  secretPrefix: null,
  verify: verifyLemonSqueezy,
  read: readLemonSqueezyEvent,
};
