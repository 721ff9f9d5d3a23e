/**
 * Request and response schemas of the webhook routes (interface §2.6, §2.7, §4.3, §7.3). They
 * check shape; URL rules (https, no credentials, public addresses only) live in webhook-url.ts,
 * which the service applies for every caller.
 */
import { z } from 'zod';
import { codedErrorSchema, queryInteger, timestampSchema, uuidParam } from '../http/schemas.js';
import { siteParams } from '../sites/sites.schemas.js';
import { DELIVERY_STATUSES, EVENT_TYPES, VERIFICATION_STATUSES } from './webhook-tables.js';
import { MAX_URL_LENGTH } from './webhook-url.js';
import {
  createdWebhookExample,
  createWebhookExample,
  deliveriesPageExample,
  rotatedSecretExample,
  SITE_KEY_EXAMPLE,
  testResultExample,
  updatedWebhookExample,
  updateWebhookExample,
  WEBHOOK_ID_EXAMPLE,
  webhookListExample,
} from './webhooks.examples.js';

export const MAX_DELIVERIES_PAGE = 100;
export const DEFAULT_DELIVERIES_PAGE = 50;

/** The sites routes' `siteId`, with an example for the document. */
export const webhookSiteParams = z.strictObject({
  siteId: siteParams.shape.siteId.meta({ examples: [SITE_KEY_EXAMPLE] }),
});

export const webhookParams = webhookSiteParams.extend({
  webhookId: uuidParam.meta({ examples: [WEBHOOK_ID_EXAMPLE], description: 'The webhook endpoint’s id' }),
});

const urlField = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
  .describe('https:// only; no user-info; not a private, loopback, link-local or internal address');

const eventTypesField = z
  .array(z.enum(EVENT_TYPES, { error: `must be one of ${EVENT_TYPES.join(', ')}` }))
  .min(1, 'must name at least one event type')
  .max(EVENT_TYPES.length * 2)
  .describe(`Subset of ${EVENT_TYPES.join(', ')}`);

export const createWebhookBody = z
  .strictObject({
    url: urlField,
    event_types: eventTypesField.optional().describe('Default: [ai_session.classified]'),
  })
  .meta({ examples: [createWebhookExample] });

export const updateWebhookBody = z
  .strictObject({
    url: urlField.optional(),
    event_types: eventTypesField.optional(),
    enabled: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, {
    error: 'send at least one of url, event_types, enabled',
  })
  .meta({ examples: [updateWebhookExample] });

/** POST bodies of test and rotate-secret: nothing, or an empty object. */
export const emptyBody = z
  .strictObject({})
  .nullish()
  .meta({ examples: [{}] });

export const deliveriesQuery = z.strictObject({
  limit: queryInteger(1, MAX_DELIVERIES_PAGE).optional().describe('1 to 100, default 50'),
  status: z.enum(DELIVERY_STATUSES).optional().describe('Only deliveries in this state'),
  before: timestampSchema
    .optional()
    .describe('Exclusive cursor: pass back `next_before` of the previous page'),
});

export const webhookSchema = z.object({
  id: z.uuid(),
  site_id: z.string().describe('Snippet key'),
  url: z.string(),
  event_types: z.array(z.string()),
  enabled: z.boolean(),
  verification_status: z.enum(VERIFICATION_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
});

export const updatedWebhookSchema = webhookSchema.meta({
  description: 'The endpoint as updated',
  examples: [updatedWebhookExample],
});

export const createdWebhookSchema = webhookSchema
  .extend({
    secret: z.string().describe('Signing secret `whsec_…`; shown here and by rotate-secret only'),
  })
  .meta({
    description: 'The new endpoint, with its signing secret (shown once)',
    examples: [createdWebhookExample],
  });

export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) }).meta({
  description: 'The site’s endpoints, newest first, without secrets',
  examples: [webhookListExample],
});

export const deliverySchema = z.object({
  id: z.uuid(),
  webhook_id: z.uuid(),
  event_type: z
    .string()
    .describe('ai_session.classified, conversion.attributed, conversion.refunded, or webhook.ping'),
  envelope_id: z.string().describe('`whd_…`; also the `webhook-id` header, the same on every retry'),
  dedupe_key: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempt_count: z.number().int(),
  response_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  created_at: z.string().describe('With microseconds; strictly increasing per endpoint'),
  payload: z.string().describe('The delivered body as text (see the WebhookEvent schemas)'),
});

export const deliveriesPageSchema = z
  .object({
    deliveries: z.array(deliverySchema),
    next_before: z.string().nullable().describe('Null when the page was not full'),
  })
  .meta({ description: 'One page of the delivery log, newest first', examples: [deliveriesPageExample] });

export const testResultSchema = z
  .object({
    ok: z.boolean(),
    status_code: z.number().int().describe('HTTP status of the answer; 0 when none arrived'),
    latency_ms: z.number().int(),
    response_snippet: z.string().describe('First 1 KB of the answer, or why there was none'),
    verification_status: z.enum(VERIFICATION_STATUSES),
  })
  .meta({ description: 'How the endpoint answered the ping', examples: [testResultExample] });

export const rotatedSchema = z
  .object({ id: z.uuid(), secret: z.string().describe('The new signing secret `whsec_…`, shown once') })
  .meta({ description: 'The new signing secret', examples: [rotatedSecretExample] });

const bareError = z.object({ statusCode: z.number().int(), message: z.string() });

export const WEBHOOK_ERRORS = {
  401: codedErrorSchema,
  403: codedErrorSchema.describe(
    'insufficient_scope (naming required_scope), or Forbidden for a site out of reach',
  ),
  404: bareError.describe('Unknown webhook id on the site (no `error` field)'),
  409: codedErrorSchema.describe('conflict, code webhook_limit_reached: the site has 10 webhooks'),
  422: codedErrorSchema,
  429: bareError.describe('`{statusCode: 429, message}`: rate limited; honour `Retry-After`'),
};
