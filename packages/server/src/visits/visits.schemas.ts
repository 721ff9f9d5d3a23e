/**
 * Query strings and answers of `GET /v1/sessions` and `GET /v1/sessions/{id}`; the descriptions
 * are the endpoints' documentation. Query strings are strict: an unknown parameter is a 422.
 */
import { z } from 'zod';
import { queryInteger, siteRefSchema, uuidParam } from '../http/schemas.js';
import { daySchema } from '../lib/day-window.js';
import { SESSION_ID_EXAMPLE, sessionDetailExample, sessionsPageExample } from './visits.examples.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;
export const DEFAULT_WINDOW_DAYS = 30;
export const MAX_WINDOW_DAYS = 365;
/** Steps of a trail shown at most; `trail_truncated` says when a visit had more. */
export const TRAIL_LIMIT = 1000;

const siteId = siteRefSchema;

export const sessionsQuery = z.strictObject({
  site_id: siteId,
  from: daySchema
    .optional()
    .describe(
      `First day, YYYY-MM-DD in \`timezone\`, inclusive; default ${DEFAULT_WINDOW_DAYS - 1} days before \`to\``,
    ),
  to: daySchema
    .optional()
    .describe(
      `Last day, inclusive; default today in \`timezone\`. The window spans at most ${MAX_WINDOW_DAYS} days`,
    ),
  timezone: z
    .string()
    .max(64)
    .optional()
    .describe('IANA time zone the days are read in; default UTC. A session belongs to the day it started on'),
  filters: z
    .string()
    .max(20_000)
    .optional()
    .describe(
      'The JSON text of a filter list, as `filters` of POST /v1/stats/query takes it ' +
        '(`[["is","visit:channel",["ai"]]]`), applied to each session',
    ),
  converted: z
    .enum(['true', 'false'])
    .optional()
    .describe('`true`: only sessions with a conversion; `false`: only those without'),
  limit: queryInteger(1, MAX_LIMIT)
    .optional()
    .describe(`Sessions per page, 1 to ${MAX_LIMIT}; default ${DEFAULT_LIMIT}`),
  before: z
    .string()
    .max(200)
    .optional()
    .describe('Pass `next_before` of the previous page to read the next one; anything else is a 422'),
});

export type SessionsQuery = z.infer<typeof sessionsQuery>;

export const sessionParams = z.strictObject({
  id: uuidParam
    .describe('The session (visit) id, as listed or as a visitor row’s `latest_session_id`')
    .meta({ examples: [SESSION_ID_EXAMPLE] }),
});

export const sessionQuery = z.strictObject({ site_id: siteId });

const nullableText = (description: string) => z.string().nullable().describe(description);

export const sessionSchema = z.object({
  id: z.uuid().describe('The session id (the visit’s id)'),
  visitor: z
    .string()
    .describe(
      '`vh_` handle of the person (identities merged), as the visitor reports show it; opens GET /v1/visitors/{handle}',
    ),
  started_at: z.string().describe('First pageview or event, ISO-8601 UTC'),
  last_activity_at: z.string().describe('Latest pageview, event or engagement report, ISO-8601 UTC'),
  duration_sec: z.number().int().describe('Engaged seconds: time the pages were visible and focused'),
  pageviews: z.number().int().describe('Pages shown, single-page-app navigations included'),
  channel: z.string().describe('`ai`, `search`, `social`, `email`, `paid`, `referral` or `direct`'),
  ai_source: nullableText('The assistant (`chatgpt`, `perplexity`, …); null outside the AI channel'),
  source_kind: z.string().describe('`ai`, `non_ai`, or `unknown` (a direct arrival)'),
  referrer: nullableText('The referring host, else the campaign’s `utm_source`; null for a direct arrival'),
  campaign: nullableText('The `utm_campaign` of the entry page; null when none'),
  entry_page: nullableText('Path of the first page'),
  exit_page: nullableText('Path of the latest page'),
  country_code: nullableText('ISO 3166-1 alpha-2; null when unknown'),
  city: nullableText('Null when unknown'),
  device: z
    .object({
      device_type: nullableText('`desktop`, `mobile`, `tablet`; null when unknown'),
      os: nullableText('Null when unknown'),
      browser: nullableText('Null when unknown'),
    })
    .describe('The browser the session came from'),
  is_new: z.boolean().describe('The visitor id’s first session on the site'),
  conversions: z
    .number()
    .int()
    .describe(
      'Conversion events of the session (custom and server events, payments and trials), gross, as the conversion listing counts them',
    ),
  revenue: z
    .object({
      net_cents: z
        .number()
        .int()
        .describe(
          'Payments of the session net of every refund posted against them so far, in minor units of `currency`. ' +
            'A payment belongs to the session its visitor id had open when it was paid (from its start to 30 minutes ' +
            'after its last activity); one sent with only an email belongs to none. Other currencies convert at the ' +
            'ECB rate of the payment’s day (each refund at its own day’s); a payment with no rate on record is left out',
        ),
      currency: z.string().describe('The site’s currency, ISO 4217'),
    })
    .describe('Money the session brought in'),
});

export const sessionsPageSchema = z
  .object({
    sessions: z.array(sessionSchema).describe('Newest first by start, then id'),
    next_before: z
      .string()
      .nullable()
      .describe('Pass as `before` for the next page; null when the page was not full'),
  })
  .meta({ description: 'One page of sessions, newest first', examples: [sessionsPageExample] });

const trailStepSchema = z.object({
  type: z
    .enum(['pageview', 'custom', 'server', 'payment'])
    .describe('`custom`: from the browser; `server`: from /v1/server/events; `payment`: a payment or trial'),
  name: z.string().describe('The event name; `pageview` for a pageview; `payment` or `trial` for a payment'),
  timestamp: z.string().describe('ISO-8601 UTC'),
  page: nullableText('Path of the page it happened on; null for server events and payments'),
  time_on_page_sec: z
    .number()
    .int()
    .nullable()
    .describe(
      'Pageviews: seconds the page was open (visible or not): until the next pageview of the session, for the ' +
        'last page until the session’s last activity. Null for other steps',
    ),
  properties: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'As stored after personal-data removal; {} when none; null when the stored object exceeds 8,192 bytes',
    ),
  value_cents: z
    .number()
    .int()
    .nullable()
    .describe(
      'The value sent with the event (a payment: its amount), minor units of `currency`; null when none',
    ),
  currency: nullableText('ISO 4217 of `value_cents`; null when no value'),
  is_conversion: z.boolean().describe('Every step but a pageview is a conversion'),
});

export const sessionDetailSchema = sessionSchema
  .extend({
    entry: z
      .object({
        channel: z.string().describe('As the session’s `channel`'),
        ai_source: nullableText('The assistant; null outside the AI channel'),
        source_kind: z.string().describe('`ai`, `non_ai`, or `unknown` (a direct arrival)'),
        referrer: nullableText('The referring host, else the `utm_source`; null for a direct arrival'),
        campaign: nullableText('`utm_campaign`; null when none'),
        ref: nullableText('The `?ref=` parameter of the entry page; null when none'),
        url: z
          .string()
          .describe('The entry page’s URL as stored (personal data in its query string removed)'),
      })
      .describe('Where the session came from'),
    trail: z
      .array(trailStepSchema)
      .describe(`Pageviews and conversions in time order, at most ${TRAIL_LIMIT}`),
    trail_truncated: z.boolean().describe(`True when the session had more than ${TRAIL_LIMIT} steps`),
  })
  .meta({
    description: 'The session, where it came from, and its trail',
    examples: [sessionDetailExample],
  });
