/**
 * The bodies Touchtrail POSTs to webhook endpoints, documented in the OpenAPI document's
 * `webhooks` section (OpenAPI 3.1) with their signature headers. The payloads are
 * written by ingest (ai_session.classified), the attribution job (conversion.attributed) and the
 * revenue ledger (conversion.refunded, attribution/refund-fact.ts);
 * these schemas describe them and are checked against real deliveries in webhooks.delivery.test.ts.
 */
import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { webhookEventExamples } from './webhooks.examples.js';

const envelope = <T extends z.ZodType>(type: string, data: T, description: string) =>
  z
    .object({
      type: z.literal(type),
      id: z
        .string()
        .describe('Envelope id `whd_…`, equal to the `webhook-id` header; the same on every retry'),
      created_at: z.string().describe('When the fact happened (ISO-8601 UTC)'),
      data,
    })
    .describe(description);

export const aiSessionClassifiedEvent = envelope(
  'ai_session.classified',
  z
    .object({
      site_id: z.string().describe('Snippet key `ttid_…`'),
      visit_id: z.uuid(),
      ai_source: z.string().describe('The assistant: chatgpt, perplexity, claude, gemini, copilot, …'),
      source_kind: z.literal('ai'),
      source_name: z.string().describe('Referring host, for example chatgpt.com; empty when none'),
      entry_url: z.string(),
      campaign: z.string().describe('utm_campaign; empty when none'),
      country_code: z.string().describe('ISO 3166-1 alpha-2; empty when unknown'),
      device_type: z.string(),
      is_new_visitor: z.boolean(),
      started_at: z.string(),
    })
    .loose(),
  'Sent once per new visit that arrived from an AI assistant',
);

const credit = z.object({ source: z.string(), source_kind: z.string(), share: z.number() });

const paymentId = z
  .string()
  .describe('The payment’s id `pay_…`: `event_id` of the payments response and of the conversion listing');
const transactionId = z.string().describe('The `transaction_id` the payment was posted with');
const provider = z.string().describe('The `provider` it was posted with (`api` by default)');

export const conversionAttributedEvent = envelope(
  'conversion.attributed',
  z
    .object({
      site_id: z.string().describe('Snippet key `ttid_…`'),
      event_id: z.string(),
      event_name: z.string().describe('Goal name, or payment / trial'),
      occurred_at: z.string(),
      value_cents: z.number().int().describe('Whole minor units of `currency`'),
      currency: z.string(),
      transaction_id: transactionId
        .nullable()
        .describe('Payments: the posted `transaction_id`; null for a goal'),
      provider: provider.nullable().describe('Payments: the posted `provider`; null for a goal'),
      renewal: z.boolean().nullable().describe('Payments: whether it is a renewal; null for a goal'),
      refunded_cents: z
        .number()
        .int()
        .nullable()
        .describe(
          'Payments: minor units refunded before it was attributed (each such refund is also sent as ' +
            '`conversion.refunded`; do not count it twice); null for a goal',
        ),
      credits: z
        .record(z.string(), z.array(credit))
        .describe(
          'Per model (first_touch, last_touch, linear, time_decay): credited sources, largest share first',
        ),
    })
    .loose(),
  'Sent once per conversion (goal event or payment) after it has been attributed; `event_id` of a payment is its `pay_…` id',
);

export const conversionRefundedEvent = envelope(
  'conversion.refunded',
  z
    .object({
      site_id: z.string().describe('Snippet key `ttid_…`'),
      event_id: paymentId,
      transaction_id: transactionId,
      provider,
      refunded_cents: z
        .number()
        .int()
        .positive()
        .describe('Minor units of `currency` this refund took back (not the running total)'),
      currency: z.string().describe('The payment’s currency'),
      refunded_at: z.string().describe('When the refund happened: its `timestamp`, or when it was posted'),
      credits: z
        .record(
          z.string(),
          z.array(
            credit.extend({
              refunded_cents: z
                .number()
                .describe("This source's part of the refund, minor units with up to six decimals"),
            }),
          ),
        )
        .describe(
          'Per model: the sources the payment was credited to, largest share first, with the part of the ' +
            'refund taken from each (they add up to `refunded_cents`); empty when the model credited nobody ' +
            '(the refund came off unattributed revenue)',
        ),
    })
    .loose(),
  'Sent once per refund that took money back from a payment (a re-posted total takes nothing and sends nothing); ' +
    'for a refund posted before its payment was attributed, right after that payment’s `conversion.attributed`',
);

export const pingEvent = envelope(
  'webhook.ping',
  z.object({
    site_id: z.uuid().describe('Internal site UUID (pings carry it, interface §6)'),
    webhook_id: z.uuid(),
  }),
  'Sent once at creation and by POST …/test; never retried',
);

const SIGNATURE_HEADERS = [
  ['webhook-id', "The envelope id `whd_…` (equal to the body's `id`); the same on every retry"],
  ['webhook-timestamp', 'Unix seconds of this attempt; refuse it when far from your clock'],
  [
    'webhook-signature',
    '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed by the secret',
  ],
].map(([name, description]) => ({
  name,
  in: 'header',
  required: true,
  schema: { type: 'string' },
  description,
}));

const EVENTS: [string, z.ZodType, string, string][] = [
  [
    'ai_session.classified',
    aiSessionClassifiedEvent,
    'A visit from an AI assistant was classified',
    'receiveAiSessionClassified',
  ],
  [
    'conversion.attributed',
    conversionAttributedEvent,
    'A conversion was attributed to its sources',
    'receiveConversionAttributed',
  ],
  [
    'conversion.refunded',
    conversionRefundedEvent,
    'A refund was taken back from the sources of a payment',
    'receiveConversionRefunded',
  ],
  ['webhook.ping', pingEvent, 'Creation and test pings', 'receiveWebhookPing'],
];

/** OpenAPI 3.1 `webhooks`: what Touchtrail POSTs to an endpoint, signed per Standard Webhooks. */
function webhooksSection() {
  return Object.fromEntries(
    EVENTS.map(([type, schema, summary, operationId]) => {
      const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-2020-12' });
      return [
        type,
        {
          post: {
            operationId,
            summary,
            description:
              'Verify the signature over the raw body before parsing it (any Standard Webhooks library ' +
              'does this). Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, ' +
              '2 h, 5 h, 10 h and 10 h, then the delivery is failed. Deduplicate on `webhook-id`.',
            parameters: SIGNATURE_HEADERS,
            requestBody: {
              required: true,
              content: { 'application/json': { schema: json, example: webhookEventExamples[type] } },
            },
            responses: { '2XX': { description: 'Received' } },
          },
        },
      ];
    }),
  );
}

/**
 * Route-level transform of @fastify/swagger that also writes the document's `webhooks` section
 * (the event payloads). Shared schemas (`addSchema`) are not used: they would make Fastify
 * rebuild validators of encapsulated plugins with Ajv instead of zod.
 */
export const documentWebhookEvents: SwaggerTransform = (args) => {
  if ('openapiObject' in args) (args.openapiObject as { webhooks?: unknown }).webhooks = webhooksSection();
  return jsonSchemaTransform(args);
};
