/** `touchtrail sessions`: visits, newest first, and one visit with its trail of pages and events. */
import { unwrap } from '@touchtrail/client';
import type { Command } from 'commander';
import { action } from '../context.js';
import { example, FROM_HELP, integerBetween, parseDay, reportDays, TO_HELP } from '../options.js';
import { formatDuration, formatMinorMoney, formatNumber, formatTime, orDash } from '../output/format.js';
import { dim } from '../output/style.js';
import { renderDetails, renderTable } from '../output/table.js';
import { filtersParam, parseFilter } from './stats-query.js';

const sourceOf = (row: { channel: string; ai_source: string | null; referrer: string | null }) =>
  row.ai_source ?? (row.referrer ? `${row.channel} (${row.referrer})` : row.channel);

/** Where the next page starts, for a listing that pages with `before`. */
export const nextPageHint = (cursor: string | null, command: string) =>
  cursor ? dim(`More: ${command} --before ${cursor}\n`) : '';

export function registerSessions(program: Command) {
  const sessions = program.command('sessions').description('Visits (sessions) and their trails');

  sessions
    .command('list')
    .description('Sessions, newest first (default the last 30 days)')
    .option('--from <date>', FROM_HELP, parseDay)
    .option('--to <date>', TO_HELP, parseDay)
    .option('--timezone <iana>', 'time zone of the days (default UTC)')
    .option('--filter <filter>', 'dimension=value, as for stats (repeatable)', parseFilter)
    .option('--converted', 'only sessions with a conversion')
    .option('--limit <n>', 'sessions per page, 1 to 100', integerBetween(1, 100))
    .option('--before <cursor>', 'the cursor printed under the previous page')
    .addHelpText('after', example('touchtrail sessions list --site ttid_… --filter channel=ai --converted'))
    .action(
      action<{
        from?: string;
        to?: string;
        timezone?: string;
        filter?: unknown[];
        converted?: boolean;
        limit?: number;
        before?: string;
      }>(async (ctx, options) => {
        const answer = await unwrap(
          ctx.client.GET('/v1/sessions', {
            params: {
              query: {
                site_id: ctx.site(),
                ...reportDays(options),
                ...(options.timezone ? { timezone: options.timezone } : {}),
                ...filtersParam(options.filter),
                ...(options.converted ? { converted: 'true' as const } : {}),
                ...(options.limit ? { limit: options.limit } : {}),
                ...(options.before ? { before: options.before } : {}),
              },
            },
          }),
        );
        ctx.print(
          answer,
          () =>
            renderTable(
              [
                { header: 'Session' },
                { header: 'Started' },
                { header: 'Source' },
                { header: 'Entry page' },
                { header: 'Pages', align: 'right' },
                { header: 'Engaged', align: 'right' },
                { header: 'Conv.', align: 'right' },
                { header: 'Revenue', align: 'right' },
              ],
              answer.sessions.map((s) => [
                s.id,
                formatTime(s.started_at),
                sourceOf(s),
                orDash(s.entry_page),
                formatNumber(s.pageviews),
                formatDuration(s.duration_sec),
                formatNumber(s.conversions),
                formatMinorMoney(s.revenue.net_cents, s.revenue.currency),
              ]),
              'No sessions in this range.',
            ) + nextPageHint(answer.next_before, 'touchtrail sessions list'),
        );
      }),
    );

  sessions
    .command('get')
    .argument('<id>', 'session id (sessions list)')
    .description('One session: where it came from and its trail of pages and events')
    .addHelpText(
      'after',
      example('touchtrail sessions get 0b7d4f5e-3c1a-4e8b-9f2d-6a5c4b3e2d1f --site ttid_…'),
    )
    .action(
      action(async (ctx, _options, args) => {
        const s = await unwrap(
          ctx.client.GET('/v1/sessions/{id}', {
            params: { path: { id: args[0] as string }, query: { site_id: ctx.site() } },
          }),
        );
        ctx.print(s, () => {
          const details = renderDetails([
            ['Session', s.id],
            ['Visitor', s.visitor],
            ['Started', formatTime(s.started_at)],
            ['Source', sourceOf(s)],
            ['Landing', s.entry.url],
            [
              'Device',
              [s.device.device_type, s.device.os, s.device.browser].filter(Boolean).join(' · ') || '—',
            ],
            ['Place', [s.city, s.country_code].filter(Boolean).join(', ') || '—'],
            ['Engaged', formatDuration(s.duration_sec)],
            ['Revenue', formatMinorMoney(s.revenue.net_cents, s.revenue.currency)],
          ]);
          const trail = renderTable(
            [
              { header: 'Time' },
              { header: 'Type' },
              { header: 'Name' },
              { header: 'Page' },
              { header: 'On page', align: 'right' },
              { header: 'Value', align: 'right' },
            ],
            s.trail.map((step) => [
              formatTime(step.timestamp).slice(11),
              step.type,
              `${step.name}${step.is_conversion ? ' ★' : ''}`,
              orDash(step.page),
              formatDuration(step.time_on_page_sec),
              step.value_cents == null ? '' : formatMinorMoney(step.value_cents, step.currency),
            ]),
          );
          return `${details}\n${trail}${s.trail_truncated ? dim('(trail cut short)\n') : ''}`;
        });
      }),
    );
}
