/** `touchtrail visitors`: the people behind the visits (identities merged), and one person’s history. */
import { unwrap } from '@touchtrail/client';
import type { Command } from 'commander';
import { action } from '../context.js';
import { example, FROM_HELP, integerBetween, oneOf, parseDay, reportDays, TO_HELP } from '../options.js';
import { formatDuration, formatMinorMoney, formatNumber, formatTime, orDash } from '../output/format.js';
import { renderDetails, renderTable } from '../output/table.js';
import { nextPageHint } from './sessions.js';
import { filtersParam, parseFilter } from './stats-query.js';

const SORTS = ['last_seen', 'visits', 'revenue'] as const;

interface ListFlags {
  from?: string;
  to?: string;
  filter?: unknown[];
  sort?: (typeof SORTS)[number];
  limit?: number;
  before?: string;
}

const sourceOf = (entry: { ai_source: string; source_name: string }) =>
  orDash(entry.ai_source || entry.source_name);

export function registerVisitors(program: Command) {
  const visitors = program
    .command('visitors')
    .description('People (visitor ids of one person merged) and their history');

  visitors
    .command('list')
    .description('People with a visit in the range (default the last 30 days)')
    .option('--from <date>', FROM_HELP, parseDay)
    .option('--to <date>', TO_HELP, parseDay)
    .option('--filter <filter>', 'dimension=value on visit: dimensions (repeatable)', parseFilter)
    .option('--sort <order>', 'last_seen, visits or revenue', oneOf(SORTS))
    .option('--limit <n>', 'people per page, 1 to 100', integerBetween(1, 100))
    .option('--before <cursor>', 'the cursor printed under the previous page')
    .addHelpText(
      'after',
      example('touchtrail visitors list --site ttid_… --sort revenue --filter channel=ai'),
    )
    .action(
      action<ListFlags>(async (ctx, options) => {
        const { filter, ...rest } = options;
        const answer = await unwrap(
          ctx.client.GET('/v1/visitors', {
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
                { header: 'Visitor' },
                { header: 'Handle' },
                { header: 'Source' },
                { header: 'Visits', align: 'right' },
                { header: 'Active', align: 'right' },
                { header: 'Revenue', align: 'right' },
                { header: 'Last seen' },
              ],
              answer.visitors.map((v) => [
                v.label.name,
                `${v.handle.slice(0, 12)}…`,
                sourceOf(v.entry),
                formatNumber(v.session_count),
                formatDuration(v.active_time_sec),
                formatMinorMoney(v.revenue.total_cents, v.revenue.currency),
                formatTime(v.last_seen),
              ]),
              'Nobody visited in this range.',
            ) + nextPageHint(answer.next_before, 'touchtrail visitors list'),
        );
      }),
    );

  visitors
    .command('get')
    .argument('<handle>', 'visitor handle (vh_…, from visitors list --json)')
    .description('One person: visits and conversions')
    .option('--from <date>', FROM_HELP, parseDay)
    .option('--to <date>', TO_HELP, parseDay)
    .addHelpText('after', example('touchtrail visitors get vh_3TSqdA1O8qJu… --site ttid_…'))
    .action(
      action<{ from?: string; to?: string }>(async (ctx, options, args) => {
        const v = await unwrap(
          ctx.client.GET('/v1/visitors/{handle}', {
            params: {
              path: { handle: args[0] as string },
              query: { site_id: ctx.site(), ...options, ...reportDays(options) },
            },
          }),
        );
        ctx.print(v, () => {
          const details = renderDetails([
            ['Visitor', `${v.label.name} (${v.label.short_id})`],
            ['First seen', formatTime(v.first_seen)],
            ['Last seen', formatTime(v.last_seen)],
            ['Came from', sourceOf(v.entry)],
            ['Visits', formatNumber(v.session_count)],
            ['Revenue', formatMinorMoney(v.revenue.total_cents, v.revenue.currency)],
          ]);
          const visits = renderTable(
            [
              { header: 'Session' },
              { header: 'Started' },
              { header: 'Source' },
              { header: 'Pages', align: 'right' },
              { header: 'Active', align: 'right' },
            ],
            v.visits.map((visit) => [
              visit.id,
              formatTime(visit.started_at),
              sourceOf(visit.entry),
              formatNumber(visit.pageviews),
              formatDuration(visit.active_time_sec),
            ]),
            'No visits in this range.',
          );
          const conversions = v.conversions.length
            ? `\n${renderTable(
                [{ header: 'Conversion' }, { header: 'When' }, { header: 'Value', align: 'right' }],
                v.conversions.map((c) => [
                  c.name,
                  formatTime(c.occurred_at),
                  c.value_cents == null ? '' : formatMinorMoney(c.value_cents, c.currency),
                ]),
              )}`
            : '';
          return `${details}\n${visits}${conversions}`;
        });
      }),
    );
}
