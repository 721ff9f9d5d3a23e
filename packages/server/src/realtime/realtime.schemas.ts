/** Query and answer of `GET /v1/stats/realtime`; the descriptions are the endpoint's documentation. */
import { z } from 'zod';
import { siteRefSchema } from '../http/schemas.js';

export const realtimeQuery = z.strictObject({
  site_id: siteRefSchema,
});

const EXAMPLE_NOW = '2026-11-25T14:12:31.204Z';
const EXAMPLE_COUNTS = [
  [3, 2],
  [0, 0],
  [1, 1],
  [5, 3],
];

/** The example's 30 minutes up to EXAMPLE_NOW, the last few busy. */
const examplePerMinute = Array.from({ length: 30 }, (_, i) => {
  const [pageviews, visitors] = EXAMPLE_COUNTS[i - 26] ?? [0, 0];
  return {
    minute: new Date(Date.parse('2026-11-25T13:43:00Z') + i * 60_000).toISOString(),
    pageviews,
    visitors,
  };
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
  .meta({
    examples: [
      {
        visitors: 4,
        pages: [
          { page: '/pricing', visitors: 2 },
          { page: '/', visitors: 1 },
        ],
        sources: [
          { channel: 'ai', ai_source: 'chatgpt', visitors: 2 },
          { channel: 'search', ai_source: null, visitors: 1 },
          { channel: 'direct', ai_source: null, visitors: 1 },
        ],
        per_minute: examplePerMinute,
        as_of: EXAMPLE_NOW,
      },
    ],
  });
