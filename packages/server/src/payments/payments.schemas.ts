/**
 * The wire format of `POST /v1/server/payments` (interface §4.4, §7.4). Optional fields also
 * accept `null` as "not sent" (processors' payloads carry nulls, and `getVisitorId()` returns
 * null before the first pageview). Unknown fields are ignored, not refused. The settlement
 * fields, whose wire names the interface leaves open, are `settlement_amount` and
 * `settlement_currency`.
 */
import { z } from 'zod';
import { timestampSchema } from '../http/schemas.js';
import { amountSchema, currencySchema } from '../ingest/collect.schemas.js';
import { paymentExamples, paymentRecordedExample } from './payments.examples.js';

/** Amounts are major units; 1e12 is the ceiling of §8. */
export const MAX_AMOUNT = 1_000_000_000_000;
export const TRANSACTION_ID_MAX = 255;
export const PROVIDER_MAX = 32;
export const CUSTOMER_ID_MAX = 255;
export const DEFAULT_PROVIDER = 'api';

const CONTAINS_EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;

const transactionIdSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(TRANSACTION_ID_MAX, `must be at most ${TRANSACTION_ID_MAX} characters`)
  .refine((value) => !CONTAINS_EMAIL.test(value), 'must not contain an email address');

const providerSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(PROVIDER_MAX, `must be at most ${PROVIDER_MAX} characters`)
  .refine((value) => !/[A-Z]/.test(value), 'must be lowercase')
  .refine((value) => /^[a-z]/.test(value), 'must start with a letter')
  .refine((value) => /^[a-z0-9_.-]*$/.test(value), 'may hold only a-z, 0-9, _, . and -');

const optional = <T extends z.ZodType>(schema: T) => schema.nullish();

export const paymentBodySchema = z
  .object({
    // Any string: a value that is not a `ttid_` key is answered 401, not 422 (§7.4).
    site_id: z.string().describe('The site’s `ttid_` snippet key'),
    transaction_id: transactionIdSchema.describe(
      'The processor’s payment id, 1 to 255 characters, not an email address; with `provider` the idempotency key',
    ),
    amount: amountSchema.describe('Major units of `currency` (not cents), 0 to 1000000000000'),
    currency: currencySchema.describe('Three-letter ISO 4217 code, any case; stored uppercase'),
    provider: optional(providerSchema).describe(
      'Lowercase label starting with a letter, 1 to 32 characters; default `api`',
    ),
    visitor_id: optional(
      z
        .string()
        .regex(
          /^[A-Za-z0-9_-]{8,64}$/,
          'must be the visitor cookie’s value (8 to 64 of A-Z, a-z, 0-9, _ and -)',
        ),
    ).describe('Visitor id from the visitor cookie (`getVisitorId()`); the strongest match'),
    email: optional(z.email({ error: 'must be an email address' }).max(254)).describe(
      'Used only to find the buyer’s visits: hashed with the server secret, never stored or logged',
    ),
    customer_id: optional(
      z.string().max(CUSTOMER_ID_MAX, `must be at most ${CUSTOMER_ID_MAX} characters`),
    ).describe(
      'The processor’s customer id; email addresses and phone numbers in it are stored as [REDACTED]',
    ),
    renewal: optional(z.boolean()).describe('A recurring charge; default false'),
    refunded: optional(z.boolean()).describe(
      'Marks the payment refunded (all that is outstanding, or up to `refunded_amount`)',
    ),
    refunded_amount: optional(
      z.number().gt(0, 'must be above zero').max(MAX_AMOUNT, 'must be at most 1000000000000'),
    ).describe('Running total refunded so far, major units; alone it marks the payment refunded'),
    settlement_amount: optional(amountSchema).describe(
      'What the processor paid out for this payment, in major units of `settlement_currency` (for a charge in another currency); revenue is then counted in it. Sent with `settlement_currency`, on the first post of the payment',
    ),
    settlement_currency: optional(currencySchema).describe(
      'Three-letter ISO 4217 code of `settlement_amount`, any case',
    ),
    is_free_trial: optional(z.boolean()).describe(
      'A free trial (implied by `amount` 0): a conversion with zero revenue',
    ),
    timestamp: optional(timestampSchema).describe(
      'When the payment (or, on a refund post, the refund) happened; default now; at most 24 hours ahead',
    ),
  })
  // zod leaves `examples` out of the request side of a schema that transforms; @fastify/swagger
  // also reads named examples from `x-examples`, which zod keeps.
  .meta({ 'x-examples': paymentExamples });

export type PaymentBody = z.infer<typeof paymentBodySchema>;

export const PAYMENT_STATUSES = ['recorded', 'trial', 'refunded', 'duplicate'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const paymentAcceptedSchema = z
  .object({
    status: z
      .enum(PAYMENT_STATUSES)
      .describe('`recorded`, `trial`, `refunded`, or `duplicate` when the payment was already held'),
    transaction_id: z.string().describe('The `transaction_id` sent'),
    event_id: z
      .string()
      .describe(
        'The payment’s id `pay_…`: `event_id` of its `conversion.attributed` and `conversion.refunded` webhooks ' +
          'and of its row in the conversion listing. A duplicate or a refund answers the id of the payment it concerns',
      ),
  })
  .meta({ description: 'Accepted and committed', examples: [paymentRecordedExample] });

/** Error bodies of §7.4, for the OpenAPI document and the response serialiser. */
export const paymentErrorSchemas = {
  400: z.object({ error: z.literal('invalid JSON') }),
  401: z
    .object({ error: z.literal('unauthorized') })
    .describe(
      'Missing, malformed, revoked or expired key, a key without `ingest:write` or for another site, or a `site_id` that is not a `ttid_` key',
    ),
  413: z
    .object({ error: z.string(), message: z.string() })
    .describe('`payload_too_large`: the body is over 64 KiB'),
  415: z
    .object({ error: z.string(), message: z.string() })
    .describe('`unsupported_media_type`: the body is not `application/json`'),
  422: z.object({
    error: z.literal('validation_failed'),
    issues: z.array(z.object({ field: z.string(), message: z.string() })),
  }),
  429: z
    .object({ error: z.enum(['rate_limited', 'quota_exceeded']) })
    .describe(
      '`rate_limited`: back off, honouring `Retry-After`; `quota_exceeded`: the site is scheduled for deletion and takes no data',
    ),
  500: z.object({ error: z.literal('internal_error') }).describe('`internal_error`: retry'),
  503: z
    .object({ error: z.literal('unavailable') })
    .describe('`unavailable`: nothing was recorded; retry, and the payment is recorded once'),
};
