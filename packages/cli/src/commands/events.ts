/** `touchtrail events`: the event log, event names, and `events send` for a server event. */
import { unwrap } from '@touchtrail/client';
import type { Command } from 'commander';
import { action } from '../context.js';
import {
  collectPair,
  example,
  FROM_HELP,
  integerBetween,
  oneOf,
  parseAmount,
  parseDay,
  reportDays,
  TO_HELP,
} from '../options.js';
import { formatMinorMoney, formatNumber, formatTime, orDash } from '../output/format.js';
import { renderTable } from '../output/table.js';
import { nextPageHint } from './sessions.js';
import { filtersParam, parseFilter } from './stats-query.js';

const EVENT_TYPES = ['pageview', 'custom', 'server', 'payment'] as const;

/** Property values from the command line: numbers and booleans as such, the rest as text. */
function propertyValue(text: string): string | number | boolean {
  if (text === 'true' || text === 'false') return text === 'true';
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

interface ListFlags {
  from?: string;
  to?: string;
  timezone?: string;
  name?: string;
  type?: (typeof EVENT_TYPES)[number];
  session?: string;
  visitor?: string;
  source?: string;
  filter?: unknown[];
  limit?: number;
  before?: string;
}

interface SendFlags {
  visitorId?: string;
  userId?: string;
  email?: string;
  prop?: Record<string, string>;
  value?: number;
  currency?: string;
  eventId?: string;
  timestamp?: string;
}

export function registerEvents(program: Command) {
  const events = program.command('events').description('The event log; send a server event');

  events
    .command('list')
    .description('Events, newest first (default the last 30 days)')
    .option('--from <date>', FROM_HELP, parseDay)
    .option('--to <date>', TO_HELP, parseDay)
    .option('--timezone <iana>', 'time zone of the days (default UTC)')
    .option('--name <name>', 'only this event name (pageview lists pageviews)')
    .option('--type <type>', 'pageview, custom, server or payment', oneOf(EVENT_TYPES))
    .option('--session <id>', 'only events of this session')
    .option('--visitor <handle>', 'only events of this person (vh_…)')
    .option('--source <source>', 'only events whose session came from this channel or assistant')
    .option('--filter <filter>', 'dimension=value on visit: dimensions (repeatable)', parseFilter)
    .option('--limit <n>', 'events per page, 1 to 100', integerBetween(1, 100))
    .option('--before <cursor>', 'the cursor printed under the previous page')
    .addHelpText('after', example('touchtrail events list --site ttid_… --type custom --source chatgpt'))
    .action(
      action<ListFlags>(async (ctx, options) => {
        const { filter, ...rest } = options;
        const answer = await unwrap(
          ctx.client.GET('/v1/events', {
            params: {
              query: { site_id: ctx.site(), ...rest, ...reportDays(rest), ...filtersParam(filter) },
            },
          }),
        );
        ctx.print(
          answer,
          () =>
            renderTable(
              [
                { header: 'Time' },
                { header: 'Type' },
                { header: 'Name' },
                { header: 'Page' },
                { header: 'Source' },
                { header: 'Value', align: 'right' },
              ],
              answer.events.map((event) => [
                formatTime(event.timestamp),
                event.type,
                event.name,
                orDash(event.page),
                event.source ? (event.source.ai_source ?? event.source.channel) : '—',
                event.value_cents == null ? '' : formatMinorMoney(event.value_cents, event.currency),
              ]),
              'No events in this range.',
            ) + nextPageHint(answer.next_before, 'touchtrail events list'),
        );
      }),
    );

  events
    .command('names')
    .description('Event names seen in the range, with counts')
    .option('--from <date>', FROM_HELP, parseDay)
    .option('--to <date>', TO_HELP, parseDay)
    .option('--type <type>', 'custom, server or payment', oneOf(['custom', 'server', 'payment'] as const))
    .addHelpText('after', example('touchtrail events names --site ttid_…'))
    .action(
      action<{ from?: string; to?: string; type?: 'custom' | 'server' | 'payment' }>(async (ctx, options) => {
        const answer = await unwrap(
          ctx.client.GET('/v1/events/names', {
            params: { query: { site_id: ctx.site(), ...options, ...reportDays(options) } },
          }),
        );
        ctx.print(answer, () =>
          renderTable(
            [
              { header: 'Name' },
              { header: 'Type' },
              { header: 'Events', align: 'right' },
              { header: 'Visitors', align: 'right' },
            ],
            answer.names.map((n) => [n.name, n.type, formatNumber(n.events), formatNumber(n.visitors)]),
            'No events in this range.',
          ),
        );
      }),
    );

  events
    .command('send')
    .argument('<name>', 'event (goal) name, like signup')
    .description('Record a server event (needs ingest:write)')
    .option('--visitor-id <id>', 'visitor id from the visitor cookie')
    .option('--user-id <id>', 'your id for the person')
    .option('--email <email>', 'the person’s email (only its keyed hash is kept)')
    .option('--prop <key=value>', 'a property (repeatable)', collectPair)
    .option('--value <amount>', 'conversion value in major units', parseAmount)
    .option('--currency <code>', 'ISO 4217 code of --value (default the site’s)')
    .option('--event-id <id>', 'idempotency id: the same id counts once')
    .option('--timestamp <iso>', 'when it happened (default now)')
    .addHelpText(
      'after',
      example(
        'touchtrail events send signup --site ttid_… --user-id u_42 --prop plan=pro --value 49 --currency EUR',
      ),
    )
    .action(
      action<SendFlags>(async (ctx, options, args) => {
        const properties = options.prop
          ? Object.fromEntries(
              Object.entries(options.prop).map(([key, value]) => [key, propertyValue(value)]),
            )
          : undefined;
        const answer = await unwrap(
          ctx.client.POST('/v1/server/events', {
            body: {
              site_id: ctx.site(),
              name: args[0] as string,
              ...(options.visitorId ? { visitor_id: options.visitorId } : {}),
              ...(options.userId ? { user_id: options.userId } : {}),
              ...(options.email ? { email: options.email } : {}),
              ...(properties ? { properties } : {}),
              ...(options.value !== undefined ? { value: options.value } : {}),
              ...(options.currency ? { currency: options.currency } : {}),
              ...(options.eventId ? { event_id: options.eventId } : {}),
              ...(options.timestamp ? { timestamp: options.timestamp } : {}),
            },
          }),
        );
        ctx.print(
          answer,
          () =>
            `${answer.status === 'duplicate' ? 'Already recorded' : 'Recorded'}: ${args[0]} (event ${answer.event_id})\n`,
        );
      }),
    );
}
