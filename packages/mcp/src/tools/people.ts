/** Sessions and events: `list_sessions`, `get_session`, `list_events`. */
import { unwrap } from '@touchtrail/client';
import { z } from 'zod';
import { answer, READS, type ToolSet } from '../tool-kit.js';
import { day, filters, filterText, type QueryOf, queryFlag, siteId, timezone } from './inputs.js';

const limit = z.number().int().min(1).max(100).optional().describe('Rows per page, 1 to 100; default 50');
const before = z
  .string()
  .max(400)
  .optional()
  .describe('`next_before` of the previous page, to read the next one');
const MONEY_NOTE =
  'integer minor units of the `currency` beside it (cents: 1234 = 12.34 for most currencies)';

export function addPeopleTools(tools: ToolSet): void {
  const { client } = tools;

  tools.add('list_sessions', {
    title: 'List sessions',
    description:
      'Visits, newest first: source (channel, AI assistant, referrer, campaign), entry and exit page, country, ' +
      'device, engaged seconds, pageviews, conversions and net revenue. Filter like query_stats, or to ' +
      'sessions with or without a conversion. Open one with get_session.',
    scope: 'stats:read',
    annotations: READS,
    input: {
      site_id: siteId,
      from: day.optional().describe('First day, inclusive; default 29 days before `to`'),
      to: day.optional().describe('Last day, inclusive; default today. At most 365 days'),
      timezone,
      filters,
      converted: z
        .boolean()
        .optional()
        .describe('true: only sessions with a conversion; false: only without'),
      limit,
      before,
    },
    run: async ({ site_id, from, to, timezone, filters, converted, limit, before }) => {
      const sessions = await unwrap(
        client.GET('/v1/sessions', {
          params: {
            query: {
              site_id,
              from,
              to,
              timezone,
              filters: filterText(filters),
              converted: queryFlag(converted),
              limit,
              before,
            } satisfies QueryOf<'/v1/sessions', 'get'>,
          },
        }),
      );
      return answer(sessions, { duration_sec: 'seconds of engaged time', 'revenue.net_cents': MONEY_NOTE });
    },
  });

  tools.add('get_session', {
    title: 'Get a session',
    description:
      'One visit in full: where it came from, and its trail of pageviews (with seconds on each page) and ' +
      'conversions (events and payments with their values) in time order.',
    scope: 'stats:read',
    annotations: READS,
    input: {
      site_id: siteId,
      session_id: z.uuid().describe('`id` from list_sessions, or `latest_session_id` from goal_visitors'),
    },
    run: async ({ site_id, session_id }) => {
      const session = await unwrap(
        client.GET('/v1/sessions/{id}', {
          params: {
            path: { id: session_id },
            query: { site_id } satisfies QueryOf<'/v1/sessions/{id}', 'get'>,
          },
        }),
      );
      return answer(session, {
        duration_sec: 'seconds of engaged time',
        time_on_page_sec: 'seconds the page was open',
        'revenue.net_cents': MONEY_NOTE,
        value_cents: MONEY_NOTE,
      });
    },
  });

  tools.add('list_events', {
    title: 'List events',
    description:
      'Raw events, newest first: pageviews, custom events from the browser, server events and payments, with ' +
      'page, properties, value and the source of their session. Filter by event name, type, session, person ' +
      '(`vh_` handle), source (a channel or an assistant such as chatgpt) or stats filters.',
    scope: 'stats:read',
    annotations: READS,
    input: {
      site_id: siteId,
      from: day.optional().describe('First day, inclusive; default 6 days before `to`'),
      to: day.optional().describe('Last day, inclusive; default today. At most 365 days'),
      timezone,
      name: z
        .string()
        .min(1)
        .max(64)
        .optional()
        .describe('Only events of this name; `pageview` for pageviews'),
      type: z.enum(['pageview', 'custom', 'server', 'payment']).optional(),
      session: z.uuid().optional().describe('Only events of this session id'),
      visitor: z.string().max(100).optional().describe('Only events of this person: a `vh_` handle'),
      source: z
        .string()
        .max(64)
        .optional()
        .describe('A channel (ai, search, …) or an assistant (chatgpt, …)'),
      filters,
      limit,
      before,
    },
    run: async (input) => {
      const events = await unwrap(
        client.GET('/v1/events', {
          params: {
            query: {
              site_id: input.site_id,
              from: input.from,
              to: input.to,
              timezone: input.timezone,
              name: input.name,
              type: input.type,
              session: input.session,
              visitor: input.visitor,
              source: input.source,
              filters: filterText(input.filters),
              limit: input.limit,
              before: input.before,
            } satisfies QueryOf<'/v1/events', 'get'>,
          },
        }),
      );
      return answer(events, { value_cents: MONEY_NOTE });
    },
  });
}
