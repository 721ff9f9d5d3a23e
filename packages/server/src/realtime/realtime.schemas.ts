/** Query and answer of `GET /v1/stats/realtime`; the descriptions are the endpoint's documentation. */
import { z } from 'zod';
import { siteRefSchema } from '../http/schemas.js';
import { realtimeExample } from './realtime.examples.js';

export const realtimeQuery = z.strictObject({
  site_id: siteRefSchema,
});

export const realtimeAnswerSchema = z
  .object({
    visitors: z
      .number()
      .int()
      .describe(
        'Distinct visitors with activity (a pageview, or a custom event from their browser) in the last 5 minutes',
      ),
    pages: z
      .array(
        z.object({
          page: z.string().describe('Path, without query or fragment'),
          visitors: z.number().int(),
        }),
      )
      .describe('The 10 pages most of those visitors viewed in the last 5 minutes, most visitors first'),
    sources: z
      .array(
        z.object({
          channel: z.string().describe('`ai`, `search`, `social`, `email`, `paid`, `referral` or `direct`'),
          ai_source: z.string().nullable().describe('The assistant in the `ai` channel, else null'),
          visitors: z.number().int(),
        }),
      )
      .describe(
        'The 10 channels (assistants apart) of the visits those visitors were active in, most visitors first; ' +
          'a visitor whose activity spans two visits counts in both',
      ),
    per_minute: z
      .array(
        z.object({
          minute: z.string().describe('Start of the clock minute, ISO 8601 in UTC'),
          pageviews: z.number().int(),
          visitors: z.number().int().describe('Distinct visitors active in that minute'),
        }),
      )
      .describe(
        'Exactly 30 clock minutes, oldest first: the current one (counted up to now) and the 29 before it',
      ),
    as_of: z.string().describe('“Now” as the server counted it, ISO 8601'),
  })
  .meta({ description: 'Who is on the site now, and the last 30 minutes', examples: [realtimeExample] });
