/**
 * What every payment-processor connection module gives the receiving endpoint (DESIGN.md §11):
 * a signature check in the processor's own scheme, and a reading of its event as payment facts.
 * The modules know nothing of sites, databases or HTTP; the endpoint stores what they read.
 */

export const PROCESSORS = ['stripe', 'paddle', 'lemonsqueezy', 'polar'] as const;
export type ProcessorName = (typeof PROCESSORS)[number];

/** One webhook request as the processor sent it. */
export interface SignedDelivery {
  /** The body exactly as received: signatures cover these bytes. */
  rawBody: string;
  /** A request header by its lower-case name. */
  header(name: string): string | undefined;
}

/**
 * The request is not provably from the processor: no signature, a wrong one, or a timestamp
 * outside the processor's tolerance. The message says which, and never echoes a secret.
 */
export class SignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignatureError';
  }
}

/** Signed correctly but not an event this module can read (a required field missing). */
export class PayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PayloadError';
  }
}

/**
 * One payment as the processor describes it at the moment of the event. A refund event gives
 * the whole payment again with its cumulative refunded total, so a refund that arrives before
 * its payment still records both (the payment write path creates the payment first).
 */
export interface PaymentFacts {
  /** The processor's payment id: the idempotency key with the provider (§4.4). */
  transactionId: string;
  /** In the processor's minor units, as sent (JPY 500 is 500, USD 5.00 is 500). */
  amount: number;
  /** Upper-case ISO 4217. */
  currency: string;
  /** A free trial started: a conversion with zero revenue. */
  trial: boolean;
  /** A subscription charge after the first. */
  renewal: boolean;
  /** The processor's customer id, when there is one. */
  customerId: string | null;
  /** `touchtrail_visitor_id` from the checkout or customer metadata (Stripe: also `client_reference_id`). */
  visitorId: string | null;
  /** The customer's email; hashed by the caller, never stored. */
  email: string | null;
  /** When the payment happened (a refund-only event: when the payment was made, if known). */
  paidAt: Date;
  /**
   * Cumulative refunded total in the processor's minor units, or null when the event is not
   * about a refund. Refund events carry the running total (partial, full, or out of order).
   */
  refundedTotal: number | null;
  /**
   * For processors that describe each refund on its own instead of a running total: the
   * refund's own id and amount (processor minor units). The endpoint adds it once per id.
   * Null otherwise; never set together with `refundedTotal`.
   */
  refundPart: { id: string; amount: number } | null;
  /** When the refund happened, for a refund event; else null. */
  refundedAt: Date | null;
}

export interface ProcessorEvent {
  /** The processor's event id: a replay of the same id is acknowledged and not applied again. */
  id: string;
  /** The processor's event type, as sent. */
  type: string;
  /** What to record; empty for an event type that is acknowledged and ignored. */
  payments: PaymentFacts[];
  /**
   * Other ids the processor uses for a payment already described under `transactionId` (Stripe
   * from API version 2025-03-31 on: an invoice's PaymentIntent, which its refunds name). A later
   * fact that names the alias, and finds no payment of its own, applies to that payment.
   */
  aliases?: { alias: string; transactionId: string }[];
}

export interface Processor {
  name: ProcessorName;
  /** Where in the processor's dashboard the signing secret is found, for docs and errors. */
  secretHint: string;
  /** How every signing secret of this processor begins, when it has a fixed prefix; else null. */
  secretPrefix: string | null;
  /**
   * Checks the signature and its freshness against `secret` at `now`; throws `SignatureError`.
   * Returns the parsed JSON body; throws `PayloadError` when the body is not JSON.
   */
  verify(delivery: SignedDelivery, secret: string, now: Date): unknown;
  /** Reads a verified body; throws `PayloadError` when a field this event needs is missing. */
  read(payload: unknown): ProcessorEvent;
}
