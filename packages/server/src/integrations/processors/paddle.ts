/**
 * Paddle Billing (not Paddle Classic): the `Paddle-Signature` check and the reading of its events
 * as payment facts (paddle-read.ts). Paddle's "Verify webhook signatures" page
 * (developer.paddle.com/webhooks/about/signature-verification) describes the scheme.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { PayloadError, type Processor, SignatureError, type SignedDelivery } from '../processor.js';
import { readPaddleEvent } from './paddle-read.js';

/**
 * How far `ts` may be from our clock. Paddle's SDKs reject a signature older than five seconds
 * (paddle-node-sdk `WebhooksValidator.MAX_VALID_TIME_DIFFERENCE = 5`) and the signature page asks
 * manual checks to do the same; we apply it to the future too, so a clock ahead of ours is caught.
 */
export const PADDLE_TOLERANCE_SECONDS = 5;

const SIGNATURE_HEADER = 'paddle-signature';
const HEX_SHA256 = /^[0-9a-f]{64}$/i;
const UNIX_SECONDS = /^\d{1,12}$/;

interface PaddleSignature {
  /** The timestamp exactly as sent: the signed text starts with it. */
  ts: string;
  /** One per active secret: several while a secret is being rotated. */
  h1: string[];
}

/** `ts=1671552777;h1=eb4d…` → its parts, or a `SignatureError` that names what is wrong. */
function parseSignatureHeader(header: string): PaddleSignature {
  let ts: string | null = null;
  const h1: string[] = [];
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 1) throw new SignatureError('Paddle-Signature header is malformed');
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 'ts') {
      if (ts !== null || !UNIX_SECONDS.test(value))
        throw new SignatureError('Paddle-Signature header has a malformed ts');
      ts = value;
    } else if (key === 'h1') {
      if (!HEX_SHA256.test(value)) throw new SignatureError('Paddle-Signature header has a malformed h1');
      h1.push(value.toLowerCase());
    }
    // Other keys are ignored: room for a future scheme beside h1.
  }
  if (ts === null) throw new SignatureError('Paddle-Signature header has no ts');
  if (h1.length === 0) throw new SignatureError('Paddle-Signature header has no h1 signature');
  return { ts, h1 };
}

function matchesAny(expectedHex: string, candidates: string[]): boolean {
  const expected = Buffer.from(expectedHex, 'hex');
  // Every candidate is compared, so the time taken does not say which one matched.
  let matched = false;
  for (const candidate of candidates) {
    if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) matched = true;
  }
  return matched;
}

function verifyPaddle(delivery: SignedDelivery, secret: string, now: Date): unknown {
  if (secret.length === 0) throw new SignatureError('no Paddle secret key is configured for this connection');
  const header = delivery.header(SIGNATURE_HEADER);
  if (header === undefined || header.trim() === '')
    throw new SignatureError('Paddle-Signature header is missing');
  const { ts, h1 } = parseSignatureHeader(header);
  // HMAC-SHA256 of `ts:rawBody`, keyed with the whole secret key as shown in Paddle.
  const expected = createHmac('sha256', secret).update(`${ts}:${delivery.rawBody}`).digest('hex');
  if (!matchesAny(expected, h1))
    throw new SignatureError('Paddle-Signature does not match the body and this connection’s secret key');
  const ageSeconds = now.getTime() / 1000 - Number(ts);
  if (ageSeconds > PADDLE_TOLERANCE_SECONDS)
    throw new SignatureError(`Paddle-Signature timestamp is more than ${PADDLE_TOLERANCE_SECONDS} s old`);
  if (ageSeconds < -PADDLE_TOLERANCE_SECONDS)
    throw new SignatureError(`Paddle-Signature timestamp is more than ${PADDLE_TOLERANCE_SECONDS} s ahead`);
  try {
    return JSON.parse(delivery.rawBody) as unknown;
  } catch {
    throw new PayloadError('body is not JSON');
  }
}

export const paddle: Processor = {
  name: 'paddle',
  secretHint:
    'Paddle > Developer tools > Notifications: edit the notification destination and copy its secret key (pdl_ntfset_…)',
  secretPrefix: 'pdl_ntfset_',
  verify: verifyPaddle,
  read: readPaddleEvent,
};
