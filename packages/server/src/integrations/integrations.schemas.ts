/**
 * Schemas of the processor connection routes (DESIGN.md §11). The connect body is checked for
 * shape here; the site, the one-connection-per-processor rule and the currency adoption are
 * the service's.
 */
import { z } from 'zod';
import { timestampSchema, uuidParam } from '../http/schemas.js';
import { SUPPORTED_CURRENCIES } from '../rates/currencies.js';
import { siteParams } from '../sites/sites.schemas.js';
import {
  CONNECTION_ID_EXAMPLE,
  connectExample,
  connectionExample,
  newConnectionExample,
  receivedExample,
} from './integrations.examples.js';
import { PROCESSORS } from './processor.js';

const MAX_SECRET_CHARS = 512;
const MAX_NAME_CHARS = 60;

export const connectionSiteParams = siteParams;

export const connectionParams = siteParams.extend({
  connectionId: uuidParam.meta({ examples: [CONNECTION_ID_EXAMPLE], description: 'The connection’s id' }),
});

export const receiveParams = z.strictObject({
  provider: z.enum(PROCESSORS, { error: `must be one of ${PROCESSORS.join(', ')}` }).meta({
    description: 'The processor',
    examples: ['stripe'],
  }),
  connectionId: uuidParam.meta({ description: 'The connection’s id', examples: [CONNECTION_ID_EXAMPLE] }),
});

export const connectBody = z
  .strictObject({
    provider: z.enum(PROCESSORS, { error: `must be one of ${PROCESSORS.join(', ')}` }),
    signing_secret: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_SECRET_CHARS, `must be at most ${MAX_SECRET_CHARS} characters`)
      .describe(
        'The webhook signing secret the processor shows for the endpoint you add there (Stripe `whsec_…`, ' +
          'Paddle’s secret key, Lemon Squeezy’s signing secret, Polar’s secret). Stored encrypted; never shown again',
      ),
    name: z
      .string({ error: 'must be a string' })
      .max(MAX_NAME_CHARS, `must be at most ${MAX_NAME_CHARS} characters`)
      .nullable()
      .optional()
      .describe('A label to tell connections apart, up to 60 characters'),
    default_currency: z
      .string({ error: 'must be a string' })
      .transform((value) => value.toUpperCase())
      .pipe(z.enum(SUPPORTED_CURRENCIES, { error: 'must be a supported currency code' }))
      .optional()
      .describe(
        'The processor account’s default currency. It becomes the site’s currency unless one was set by hand; ' +
          'without it, the first payment received sets it',
      ),
  })
  .meta({ examples: [connectExample] });

const connectionSchema = z.object({
  id: z.string().describe('The connection’s id, part of `receive_url`'),
  provider: z.enum(PROCESSORS),
  name: z.string().nullable(),
  receive_url: z.string().describe('Paste this into the processor as the webhook endpoint URL'),
  created_at: timestampSchema,
  last_event_at: timestampSchema.nullable().describe('When the last verified event arrived'),
  last_error: z
    .string()
    .nullable()
    .describe('Why the last refused delivery was refused (bad signature, stale timestamp, unreadable event)'),
  last_error_at: timestampSchema.nullable(),
  events_received: z.number().int().describe('Verified events received, replays included'),
});

export const createdConnectionSchema = connectionSchema.meta({
  description: 'Connected',
  examples: [newConnectionExample],
});

export const connectionListSchema = z.object({ connections: z.array(connectionSchema) }).meta({
  description: 'The site’s connections, newest first',
  examples: [{ connections: [connectionExample] }],
});

export const receivedSchema = z
  .object({
    received: z.literal(true),
    duplicate: z.boolean().describe('The event id was applied before; nothing was applied again'),
    payments: z
      .number()
      .int()
      .describe('Payments, trials and refunds the event recorded; 0 for an ignored type'),
  })
  .meta({ description: 'Committed (or a replay acknowledged)', examples: [receivedExample] });
