/**
 * Query strings and answers of `GET /v1/events` and `GET /v1/events/names`; the descriptions
 * are the endpoints' documentation. Query strings are strict: an unknown parameter is a 422.
 */
import { z } from 'zod';
import { GOAL_NAME_MAX } from '../goals/goal-names.js';
import { queryInteger, siteRefSchema } from '../http/schemas.js';
import { daySchema } from '../lib/day-window.js';
import { UUID_PATTERN } from '../lib/ids.js';
import { CURSOR_MAX_CHARS } from './event-cursor.js';
import { MAX_NAMES } from './event-names.query.js';
import { EVENT_TYPES } from './event-types.js';
import { DEFAULT_WINDOW_DAYS, MAX_WINDOW_DAYS } from './event-window.js';
import { eventNamesExample, eventsAnswerExample, eventsQueryExample } from './events.examples.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;
/** The filter list's JSON text; a full stats filter tree fits well within it. */
const FILTERS_MAX_CHARS = 8192;
/** Visitor handles are 83 characters. */
const HANDLE_MAX_CHARS = 100;

/** The documented query, which the contract test also sends. */
export { eventsQueryExample };

export const CHANNELS = ['ai', 'search', 'social', 'email', 'paid', 'referral', 'direct'] as const;

const windowFields = {
  site_id: siteRefSchema,
  from: daySchema
    .optional()
    .describe(
      `First day, inclusive, in \`timezone\`. Default: ${DEFAULT_WINDOW_DAYS - 1} days before \`to\`. ` +
        `The window spans at most ${MAX_WINDOW_DAYS} days`,
    )
    .meta({ examples: [eventsQueryExample.from] }),
  to: daySchema
    .optional()
    .describe('Last day, inclusive, in `timezone`. Default: today there')
    .meta({ examples: [eventsQueryExample.to] }),
  timezone: z
    .string()
    .max(64)
    .optional()
    .describe('IANA time zone of `from` and `to`; default UTC')
    .meta({ examples: [eventsQueryExample.timezone] }),
};

export const eventsQuery = z.strictObject({
  ...windowFields,
  name: z
    .string()
    .min(1)
    .max(GOAL_NAME_MAX)
    .optional()
    .describe('Only events of this exact name; `pageview` lists pageviews'),
  type: z
    .enum(EVENT_TYPES)
    .optional()
    .describe(
      '`pageview`, `custom` (sent by the tracker), `server` (sent to /v1/server/events) or `payment` ' +
        '(a payment or trial posted to /v1/server/payments, named `payment` or `trial`)',
    )
    .meta({ examples: [eventsQueryExample.type] }),
  session: z
    .string()
    .regex(UUID_PATTERN, 'must be a session (visit) UUID')
    .optional()
    .describe('Only events of this session: a visit UUID (`session_id` of an event)'),
  visitor: z
    .string()
    .max(HANDLE_MAX_CHARS)
    .optional()
    .describe(
      'Only events of this person: a `vh_` handle (`visitor` of an event, or of the visitor reports). ' +
        'A handle of another site matches nothing; anything that is not a handle is a 422',
    ),
  source: z
    .string()
    .max(64)
    .optional()
    .describe(
      `Only events whose session came from this channel (${CHANNELS.join(', ')}) or AI assistant ` +
        '(`chatgpt`, `perplexity`, …). Events without a session never match',
    )
    .meta({ examples: [eventsQueryExample.source] }),
  filters: z
    .string()
    .max(FILTERS_MAX_CHARS)
    .optional()
    .describe(
      'The JSON text of a stats filter list on `visit:` dimensions (`[["is","visit:country",["DE"]]]`), as ' +
        '`filters` of POST /v1/stats/query; all must hold for the event’s session. Events without a session ' +
        'never match',
    ),
  limit: queryInteger(1, MAX_LIMIT)
    .optional()
    .describe(`Events per page, 1 to ${MAX_LIMIT}; default ${DEFAULT_LIMIT}`),
  before: z
    .string()
    .max(CURSOR_MAX_CHARS)
    .optional()
    .describe('Cursor: pass back `next_before` of the previous page'),
});

export type EventsQuery = z.infer<typeof eventsQuery>;

export const eventNamesQuery = z.strictObject({
  ...windowFields,
  type: z
    .enum(EVENT_TYPES)
    .exclude(['pageview'])
    .optional()
    .describe('Only names of this kind: `custom`, `server` or `payment`'),
});

export type EventNamesQuery = z.infer<typeof eventNamesQuery>;

export const eventSchema = z.object({
  event_id: z.string().describe('The id the event was sent with (`pay_…` for a payment)'),
  type: z
    .enum(EVENT_TYPES)
    .describe(
      '`pageview`, `custom` (tracker), `server` (/v1/server/events) or `payment` (/v1/server/payments)',
    ),
  name: z.string().describe('The event name; `pageview` for a pageview, `payment` or `trial` for a payment'),
  timestamp: z.string().describe('When it happened, ISO 8601 UTC'),
  session_id: z
    .string()
    .nullable()
    .describe(
      'The visit it belongs to (pass to GET /v1/sessions/{id}): a payment or trial belongs to the visit its visitor id had open when paid, as in the session trail; null for a server event or payment sent outside a visit',
    ),
  visitor: z
    .string()
    .nullable()
    .describe(
      'The person’s `vh_` handle (identities merged); null when the sender has no visit recorded, or sent neither a visitor id nor a user',
    ),
  page: z
    .string()
    .nullable()
    .describe('Path of the page it happened on, without query; null when none was sent'),
  properties: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      'Properties as stored, after personal data was removed at ingest; `{}` when none; null when the stored object is over 8,192 bytes',
    ),
  value_cents: z
    .number()
    .int()
    .nullable()
    .describe('The value sent, in minor units of `currency`; null when none (always for pageviews)'),
  currency: z.string().nullable().describe('ISO 4217 code of `value_cents`; null when there is no value'),
  source: z
    .object({
      channel: z.string().describe('`ai`, `search`, `social`, `email`, `paid`, `referral` or `direct`'),
      ai_source: z
        .string()
        .nullable()
        .describe('The assistant (`chatgpt`, …) in the `ai` channel, else null'),
    })
    .nullable()
    .describe('Where the event’s session came from; null without a session'),
});

export const eventsAnswer = z
  .object({
    events: z
      .array(eventSchema)
      .describe('Newest first; events at the same instant by `event_id`, descending'),
    next_before: z.string().nullable().describe('Cursor of the next page; null when this page was not full'),
  })
  .meta({ description: 'One page of events, newest first', examples: [eventsAnswerExample] });

export const eventNamesAnswer = z
  .object({
    names: z
      .array(
        z.object({
          name: z.string().describe('The event name (`payment` and `trial` for payments)'),
          type: z
            .enum(EVENT_TYPES)
            .exclude(['pageview'])
            .describe('`custom` (tracker), `server` (/v1/server/events) or `payment` (/v1/server/payments)'),
          events: z.number().int().describe('Events of this name and kind in the window'),
          visitors: z
            .number()
            .int()
            .describe(
              'Distinct senders: visitor ids, and the user or email of an event sent with no visitor id',
            ),
        }),
      )
      .describe(`Most events first, then by name; at most ${MAX_NAMES}`),
  })
  .meta({ description: 'The event names of the window, most events first', examples: [eventNamesExample] });
