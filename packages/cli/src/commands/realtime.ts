/** `touchtrail realtime`: who is on the site now; `--watch` redraws until Ctrl-C. */
import { setTimeout as delay } from 'node:timers/promises';
import { unwrap } from '@touchtrail/client';
import type { Command } from 'commander';
import { action, type Context } from '../context.js';
import { example, integerBetween } from '../options.js';
import { formatNumber, formatTime } from '../output/format.js';
import { bold, dim } from '../output/style.js';
import { renderTable } from '../output/table.js';

const CLEAR_SCREEN = '\u001b[2J\u001b[H';
const TOP_ROWS = 10;

async function fetchRealtime(ctx: Context) {
  return unwrap(ctx.client.GET('/v1/stats/realtime', { params: { query: { site_id: ctx.site() } } }));
}

type Realtime = Awaited<ReturnType<typeof fetchRealtime>>;

function renderRealtime(now: Realtime): string {
  const head = `${bold(formatNumber(now.visitors))} visitor${now.visitors === 1 ? '' : 's'} on the site ${dim(`(as of ${formatTime(now.as_of)})`)}\n\n`;
  const pages = renderTable(
    [{ header: 'Page' }, { header: 'Visitors', align: 'right' }],
    now.pages.slice(0, TOP_ROWS).map((row) => [row.page, formatNumber(row.visitors)]),
    'No pages viewed just now.',
  );
  const sources = renderTable(
    [{ header: 'Channel' }, { header: 'Assistant' }, { header: 'Visitors', align: 'right' }],
    now.sources
      .slice(0, TOP_ROWS)
      .map((row) => [row.channel, row.ai_source ?? '', formatNumber(row.visitors)]),
    'No sources just now.',
  );
  return `${head}${pages}\n${sources}`;
}

export function registerRealtime(program: Command) {
  program
    .command('realtime')
    .description('Visitors on the site right now, their pages and sources')
    .option('--watch', 'redraw every few seconds until Ctrl-C')
    .option(
      '--interval <seconds>',
      'seconds between redraws with --watch (default 5)',
      integerBetween(1, 3600),
      5,
    )
    .addHelpText(
      'after',
      example('touchtrail realtime --site ttid_…', 'touchtrail realtime --watch --interval 10'),
    )
    .action(
      action<{ watch?: boolean; interval: number }>(async (ctx, options) => {
        if (!options.watch) {
          const now = await fetchRealtime(ctx);
          ctx.print(now, () => renderRealtime(now));
          return;
        }
        const stop = new AbortController();
        process.once('SIGINT', () => stop.abort());
        const redraw = Boolean(process.stdout.isTTY) && !ctx.json;
        while (!stop.signal.aborted) {
          const now = await fetchRealtime(ctx);
          // Under --json each refresh is one line, so a script can read them as they come.
          if (ctx.json) ctx.out(`${JSON.stringify(now)}\n`);
          else ctx.out(`${redraw ? CLEAR_SCREEN : ''}${renderRealtime(now)}${dim('Ctrl-C to stop.')}\n`);
          await delay(options.interval * 1000, undefined, { signal: stop.signal }).catch(() => undefined);
        }
      }),
    );
}
