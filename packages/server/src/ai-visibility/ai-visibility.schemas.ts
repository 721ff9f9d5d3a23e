/** Query and answer of `GET /v1/ai-visibility`; the descriptions are the endpoint's documentation. */
import { z } from 'zod';
import { ATTRIBUTION_MODELS } from '../attribution/models.js';
import { queryInteger, siteRefSchema } from '../http/schemas.js';
import { daySchema } from '../lib/day-window.js';
import { aiVisibilityExample } from './ai-visibility.examples.js';

export const AI_VISIBILITY_DEFAULT_DAYS = 30;
export const AI_VISIBILITY_MAX_DAYS = 365;
export const AI_VISIBILITY_DEFAULT_LIMIT = 100;
export const AI_VISIBILITY_MAX_LIMIT = 1000;

export const aiVisibilityQuery = z.strictObject({
  site_id: siteRefSchema,
  from: daySchema
    .optional()
    .describe(
      `First day, inclusive, in \`timezone\`. Default: ${AI_VISIBILITY_DEFAULT_DAYS - 1} days before \`to\``,
    ),
  to: daySchema.optional().describe('Last day, inclusive, in `timezone`. Default: today there'),
  timezone: z
    .string()
    .max(64)
    .optional()
    .describe('IANA time zone the days are counted in (visits, conversions, money); default UTC'),
  attribution_model: z
    .enum(ATTRIBUTION_MODELS)
    .optional()
    .describe('How conversions and revenue are credited; default the site’s model'),
  not_visited: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .describe('`true`: only pages AI crawlers fetched in the range that no assistant sent a visit to'),
  limit: queryInteger(1, AI_VISIBILITY_MAX_LIMIT)
    .optional()
    .describe(`Pages per answer, 1 to ${AI_VISIBILITY_MAX_LIMIT}; default ${AI_VISIBILITY_DEFAULT_LIMIT}`),
  offset: queryInteger(0, 1_000_000).optional().describe('Pages to skip; default 0'),
});

export type AiVisibilityQuery = z.infer<typeof aiVisibilityQuery>;

const pageSchema = z.object({
  page: z.string().describe('Path, without query or fragment'),
  crawler_hits: z.object({
    total: z.number().int(),
    by_operator: z
      .array(
        z.object({
          operator: z.string().describe('Who runs the crawler: `OpenAI`, `Anthropic`, `Perplexity`, …'),
          purpose: z
            .string()
            .describe(
              '`training`, `search`, `user` (fetching for a person right now), or `unknown` for hits older than ' +
                'the 90 days raw hits are kept, whose purpose the daily totals do not hold',
            ),
          hits: z.number().int(),
        }),
      )
      .describe('Most hits first'),
  }),
  ai_visits: z.object({
    total: z.number().int(),
    by_assistant: z
      .array(
        z.object({ ai_source: z.string().describe('`chatgpt`, `perplexity`, …'), visits: z.number().int() }),
      )
      .describe('Most visits first'),
  }),
  conversions: z
    .number()
    .int()
    .describe(
      'Conversions credited to an assistant whose visits entered here; each counts once, on the entry ' +
        'page carrying the largest part of that assistant’s share (its money is split over all of them)',
    ),
  revenue_net_cents: z
    .number()
    .int()
    .describe(
      'Net revenue credited likewise, minor units of `meta.currency`; negative when refunds outweigh',
    ),
});

export const aiVisibilityAnswerSchema = z
  .object({
    pages: z.array(pageSchema),
    meta: z.object({
      date_range: z.tuple([z.string(), z.string()]).describe('The resolved inclusive days, in `timezone`'),
      timezone: z.string(),
      attribution_model: z.enum(ATTRIBUTION_MODELS),
      currency: z.string().describe('The site currency, ISO 4217'),
      total_rows: z.number().int().describe('Pages before limit and offset'),
      unconverted: z
        .array(z.object({ currency: z.string(), revenue_net_cents: z.number().int() }))
        .describe(
          'AI-credited net revenue left out of the pages for want of an exchange rate, per currency, in its ' +
            'minor units',
        ),
      unplaced: z
        .object({ conversions: z.number().int(), revenue_net_cents: z.number().int() })
        .describe(
          'AI credit whose visits can no longer be found (erased visitors, say), so it has no page; in no row',
        ),
    }),
  })
  .meta({ description: 'One row per page, with what the figures cover', examples: [aiVisibilityExample] });
