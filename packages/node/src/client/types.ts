/**
 * What the SDK sends and gets back: the request and 202 bodies of `POST /v1/server/events` and
 * `POST /v1/server/payments`, field for field as in the server's OpenAPI document.
 */

export interface TouchtrailOptions {
  /** An API key with `ingest:write`, `tk_live_…`. */
  apiKey: string;
  /** Touchtrail's base address, e.g. `https://stats.example.com`; a path prefix is kept. */
  endpoint: string;
  /** How long one attempt may take before it is abandoned and retried (default 10,000). */
  timeoutMs?: number;
  /** Retries after the first attempt, for network errors, timeouts, 429 and 5xx (default 2). */
  maxRetries?: number;
  /** Replaces the global `fetch`, e.g. to use a custom agent or to watch requests in tests. */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /** Cancels the call: the attempt in flight is abandoned and no retry follows. */
  signal?: AbortSignal;
}

export type EventProperties = Record<string, string | number | boolean | null>;

/** The body of `POST /v1/server/events`. */
export interface EventInput {
  /** The site's `ttid_` snippet key. */
  site_id: string;
  /** The event (goal) name, up to 64 characters; a new name registers a goal. */
  name: string;
  /** The visitor cookie's value (`getVisitorId()` in the page). */
  visitor_id?: string;
  /** Your id of the signed-in person; with `visitor_id`, links that visitor to the person. */
  user_id?: string;
  /** Names the person when `user_id` is absent; only an HMAC of it is stored. */
  email?: string;
  properties?: EventProperties;
  /** Major units of `currency` (default: the site's currency), 0 to 1000000000000. */
  value?: number;
  currency?: string;
  /** Makes retries count once; the SDK generates one per call when it is left out. */
  event_id?: string;
  /** ISO 8601; default the time the server receives it. */
  timestamp?: string;
}

export interface EventResult {
  /** `duplicate` when an event with this `event_id` was already recorded. */
  status: 'recorded' | 'duplicate';
  event_id: string;
}

/**
 * The body of `POST /v1/server/payments`. Optional fields also take `null` for "not sent", as
 * the server does (a processor's payload often carries nulls).
 */
export interface PaymentInput {
  /** The site's `ttid_` snippet key. */
  site_id: string;
  /** The processor's payment id, 1 to 255 characters, not an email address. */
  transaction_id: string;
  /** Major units of `currency` (49.9 USD, 1200 JPY), not cents; 0 to 1000000000000. */
  amount: number;
  /** Three-letter ISO 4217 code, any case. */
  currency: string;
  /** Lowercase label starting with a letter, 1 to 32 characters; default `api`. */
  provider?: string | null;
  /** The visitor cookie's value; the strongest match to the buyer's visits. */
  visitor_id?: string | null;
  /** Used only to find the buyer's visits; hashed, never stored. */
  email?: string | null;
  /** The processor's customer id; email addresses and phone numbers in it are redacted. */
  customer_id?: string | null;
  /** A recurring charge; default false. */
  renewal?: boolean | null;
  /** Refunds everything outstanding, or up to `refunded_amount`. */
  refunded?: boolean | null;
  /** Running total refunded so far, major units, above 0; alone it marks the payment refunded. */
  refunded_amount?: number | null;
  /**
   * What the processor paid out for this payment, in major units of `settlement_currency` (a
   * charge of 100 EUR settled as 108.50 USD); revenue is then counted in it, refunds in their
   * share. Send both or neither, on the payment's first post.
   */
  settlement_amount?: number | null;
  /** Three-letter ISO 4217 code of `settlement_amount`. */
  settlement_currency?: string | null;
  /** A free trial: a conversion with zero revenue (implied by `amount` 0). */
  is_free_trial?: boolean | null;
  /** When the payment (or, on a refund, the refund) happened, ISO 8601; default now. */
  timestamp?: string | null;
}

export interface PaymentResult {
  /** `duplicate` when site + `provider` + `transaction_id` was already recorded. */
  status: 'recorded' | 'trial' | 'refunded' | 'duplicate';
  transaction_id: string;
  /** The payment's conversion id (`pay_…`), as webhooks and the conversion listing show it. */
  event_id: string;
}
