/** Query and response of `GET /v1/conversions` (interface §2.8, §4.5, §7.5, §8). */
import { z } from 'zod';
import { ATTRIBUTION_MODELS } from '../attribution/models.js';
import { queryInteger } from '../http/schemas.js';
import { daySchema } from '../lib/day-window.js';
import { conversionsPageExample, SITE_UUID_EXAMPLE } from './conversions.examples.js';
import { DEFAULT_PAGE_SIZE, MAX_OFFSET, PROPERTIES_MAX_BYTES } from './conversions.service.js';

const PAGE_SIZE_MAX = 200;
/** Beyond the offset ceiling with a page of one; larger pages are refused here already. */
const MAX_PAGE = MAX_OFFSET + 1;

export const conversionsQuery = z.strictObject({
  site_id: z
    .uuid({ error: 'must be the internal site UUID' })
    .describe('Internal site UUID (not the snippet key)')
    .meta({ examples: [SITE_UUID_EXAMPLE] }),
  from: daySchema.optional().describe('First day, YYYY-MM-DD (UTC), inclusive; default six days before `to`'),
  to: daySchema.optional().describe('Last day, YYYY-MM-DD (UTC), inclusive; default today'),
  event_name: z.string().min(1).max(64).optional().describe('Only conversions with this event name'),
  source: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Only conversions credited (any share) to this source under `attribution_model`; case-insensitive. `total_count` is then null',
    ),
  attribution_model: z.enum(ATTRIBUTION_MODELS).optional().describe('Default `last_touch`'),
  page: queryInteger(1, MAX_PAGE)
    .optional()
    .describe(`1-based page, default 1; (page - 1) × page_size may not exceed ${MAX_OFFSET}`),
  page_size: queryInteger(1, PAGE_SIZE_MAX)
    .optional()
    .describe(`1 to ${PAGE_SIZE_MAX}, default ${DEFAULT_PAGE_SIZE}`),
});

export const conversionRowSchema = z.object({
  event_id: z.string(),
  timestamp: z.string().describe('When the conversion happened, ISO-8601 UTC'),
  event_name: z.string(),
  source_kind: z.string().describe('Visit category `ai`, `non_ai` or `unknown`; empty when no visit matched'),
  source_name: z.string().describe('Host the visit came from; empty when none recorded'),
  session_ai_source: z
    .string()
    .describe('Visit source label (an assistant name, `search`, `direct`, …); empty when no visit matched'),
  country_code: z.string().describe('Empty when unknown'),
  ai_source: z
    .string()
    .nullable()
    .describe(
      'Source credited under `attribution_model`: under `linear` and `time_decay` the one with the largest share (ties by name); null when none credited (no visit, or not attributed yet)',
    ),
  confidence: z
    .number()
    .nullable()
    .describe('Share of the credit of `ai_source`, 0 to 1; null when `ai_source` is'),
  visitor_id_short: z
    .string()
    .describe('First 8 characters of the visitor id; a display token only; empty when none'),
  value_cents: z.number().int().describe('Whole minor units of `currency`; 0 when sent without a value'),
  currency: z.string().describe('ISO 4217: the event’s, or the site’s when the event named none'),
  display_value: z
    .number()
    .nullable()
    .describe(
      'The value in `display_currency`, major units, at the ECB rate of the conversion’s day or the most recent earlier one; null when no value or no rate',
    ),
  rate_day: z
    .string()
    .nullable()
    .describe(
      'Day (YYYY-MM-DD) of the ECB rate `display_value` was converted at (the older of the two currencies’ rates); null when no conversion was needed or possible',
    ),
  properties: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      `Parameters after personal-data removal; {} when none; null when the stored object exceeds ${PROPERTIES_MAX_BYTES} bytes`,
    ),
});

export const conversionsPageSchema = z
  .object({
    conversions: z.array(conversionRowSchema).describe('Newest first, one row per conversion'),
    page: z.number().int(),
    page_size: z.number().int(),
    has_more: z.boolean().describe('True whenever a full page came back, so the next page may be empty'),
    total_count: z
      .number()
      .int()
      .nullable()
      .describe(
        'Conversions in the window (for `event_name` when given) from the daily totals; null when `source` is given or the daily totals cannot be read (`event_names` is then empty)',
      ),
    event_names: z
      .array(z.object({ name: z.string(), count: z.number().int() }))
      .describe('Event names in the window with their counts, most first, at most 100'),
    display_currency: z.string().describe('The site’s currency'),
    rates_as_of: z
      .string()
      .nullable()
      .describe('Newest day (YYYY-MM-DD) with a stored ECB rate; null when none is stored'),
    rates_stale: z
      .boolean()
      .describe('True when no rate is stored or the newest is more than 7 days before today (UTC)'),
  })
  .meta({ description: 'One page of conversions, newest first', examples: [conversionsPageExample] });

const statusBody = z.object({ error: z.string(), statusCode: z.number().int() });

export const conversionErrorSchemas = {
  401: statusBody.describe('No dashboard session; an API key always gets this'),
  403: statusBody.describe('`{error: "Forbidden", statusCode: 403}`: the site is not on the account'),
  404: statusBody.describe('No account for the credential'),
  422: z
    .object({ error: z.literal('validation_failed'), message: z.string(), field: z.string() })
    .describe('Bad or unknown query parameter, or a page past the offset ceiling'),
  429: statusBody.describe('`{error: "Too Many Requests", statusCode: 429}`: over 120 requests a minute'),
  500: z
    .object({ error: z.literal('Failed to load conversions') })
    .describe('The listing could not be read; no `statusCode`. Retry later'),
};
