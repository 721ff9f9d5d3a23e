/** `touchtrail revenue`: payments, refunds and net revenue per credited source under a model. */
import { unwrap } from '@touchtrail/client';
import type { Command } from 'commander';
import { action } from '../context.js';
import {
  type AttributionModel,
  example,
  FROM_HELP,
  parseDay,
  parseModel,
  reportDays,
  TO_HELP,
} from '../options.js';
import { formatMoney, formatNumber } from '../output/format.js';
import { dim } from '../output/style.js';
import { renderTable } from '../output/table.js';

export function registerRevenue(program: Command) {
  program
    .command('revenue')
    .description('Revenue by credited source (major units of the site currency)')
    .option('--from <date>', FROM_HELP, parseDay)
    .option('--to <date>', TO_HELP, parseDay)
    .option(
      '--model <model>',
      'first_touch, last_touch, linear or time_decay (default the site’s)',
      parseModel,
    )
    .option('--days', 'one row per day instead of per source')
    .addHelpText(
      'after',
      example(
        'touchtrail revenue --site ttid_… --model linear',
        'touchtrail revenue --days --from 2026-11-01',
      ),
    )
    .action(
      action<{ from?: string; to?: string; model?: AttributionModel; days?: boolean }>(
        async (ctx, options) => {
          const answer = await unwrap(
            ctx.client.GET('/v1/revenue', {
              params: {
                query: {
                  site_id: ctx.site(),
                  ...reportDays(options),
                  ...(options.model ? { attribution_model: options.model } : {}),
                },
              },
            }),
          );
          ctx.print(answer, () => {
            const money = (amount: number) => formatMoney(amount, answer.currency);
            const figures = (row: {
              gross: number;
              refunded: number;
              net: number;
              conversions: number;
              trials: number;
            }) => [
              money(row.gross),
              money(row.refunded),
              money(row.net),
              formatNumber(row.conversions),
              formatNumber(row.trials),
            ];
            const columns = ['Gross', 'Refunded', 'Net', 'Conversions', 'Trials'].map((header) => ({
              header,
              align: 'right' as const,
            }));
            const rows = options.days
              ? answer.days.map((day) => [day.date, ...figures(day)])
              : answer.sources.map((source) => [source.source || '(unattributed)', ...figures(source)]);
            const table = renderTable(
              [{ header: options.days ? 'Day' : 'Source' }, ...columns],
              [...rows, ...(rows.length ? [['Total', ...figures(answer.totals)]] : [])],
              'No payments or refunds in this range.',
            );
            const unconverted = answer.unconverted.length
              ? dim(
                  `Left out (no exchange rate): ${answer.unconverted.map((u) => formatMoney(u.net, u.currency)).join(', ')}\n`,
                )
              : '';
            return `${dim(`${answer.from} – ${answer.to} · ${answer.attribution_model} · ${answer.currency}`)}\n${table}${unconverted}`;
          });
        },
      ),
    );
}
