/**
 * Stripe's webhook signature (docs.stripe.com/webhooks#verify-events): the `Stripe-Signature`
 * header `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" keyed with the whsec_ secret>`, checked
 * by the official package's `webhooks.constructEvent` (constant-time comparison) at our clock.
 * The header's shape and freshness are checked here first, so each failure gets its own message.
 */
import Stripe from 'stripe';
import { PayloadError, SignatureError, type SignedDelivery } from '../processor.js';

/** Stripe's default tolerance (the package's `webhooks.DEFAULT_TOLERANCE`). */
export const STRIPE_TOLERANCE_S = 300;

const TIMESTAMP = /^\d{1,12}$/;
const V1_SIGNATURE = /^[0-9a-f]{64}$/;

/** The header's timestamp; the signatures themselves are left to the package. */
function signedAt(header: string): number {
  let timestamp: number | null = null;
  let hasV1 = false;
  for (const item of header.split(',')) {
    const [key, value = ''] = item.trim().split('=', 2);
    if (key === 't') timestamp = TIMESTAMP.test(value) ? Number(value) : null;
    if (key === 'v1' && V1_SIGNATURE.test(value)) hasV1 = true;
  }
  if (timestamp === null || !hasV1)
    throw new SignatureError('Stripe-Signature header is malformed: expected t=<timestamp>,v1=<signature>');
  return timestamp;
}

/**
 * The package rejects only a timestamp older than the tolerance; one further ahead than the
 * tolerance is refused here too, since no honest clock skew is that large.
 */
function checkFreshness(timestamp: number, now: Date): void {
  const ageS = Math.floor(now.getTime() / 1000) - timestamp;
  if (ageS > STRIPE_TOLERANCE_S)
    throw new SignatureError(
      `Stripe-Signature timestamp is older than the ${STRIPE_TOLERANCE_S} s tolerance`,
    );
  if (-ageS > STRIPE_TOLERANCE_S)
    throw new SignatureError(`Stripe-Signature timestamp is more than ${STRIPE_TOLERANCE_S} s in the future`);
}

export function verifyStripe(delivery: SignedDelivery, secret: string, now: Date): unknown {
  const header = delivery.header('stripe-signature');
  if (!header) throw new SignatureError('Stripe-Signature header is missing');
  // Every Stripe endpoint secret has this prefix; another kind (an API key) can never match.
  if (!secret.startsWith('whsec_'))
    throw new SignatureError("the connection's signing secret is not a Stripe webhook secret (whsec_…)");
  checkFreshness(signedAt(header), now);
  try {
    return Stripe.webhooks.constructEvent(
      delivery.rawBody,
      header,
      secret,
      STRIPE_TOLERANCE_S,
      undefined,
      now.getTime(),
    );
  } catch (error) {
    // The package's messages quote nothing secret, but ours stay short and fixed.
    if (error instanceof Stripe.errors.StripeSignatureVerificationError)
      throw new SignatureError('Stripe-Signature does not match the body for this signing secret');
    throw new PayloadError('the body is not a Stripe event in JSON');
  }
}
