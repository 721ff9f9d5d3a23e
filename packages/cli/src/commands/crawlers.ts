/** `touchtrail crawlers`: AI crawler activity and what it led to (visits, conversions, revenue). */
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

export function registerCrawlers(program: Command) {
  program
    .command('crawlers')
    .description('AI crawler hits by crawler, and by operator with the visits and revenue that followed')
    .option('--from <date>', FROM_HELP, parseDay)
    .option('--to <date>', TO_HELP, parseDay)
    .option('--model <model>', 'attribution model for revenue (default last_touch)', parseModel)
    .addHelpText('after', example('touchtrail crawlers --site ttid_… --from 2026-11-01'))
    .action(
      action<{ from?: string; to?: string; model?: AttributionModel }>(async (ctx, options) => {
        const answer = await unwrap(
          ctx.client.GET('/v1/crawlers', {
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
          const crawlers = renderTable(
            [
              { header: 'Crawler' },
              { header: 'Operator' },
              { header: 'Purpose' },
              { header: 'Hits', align: 'right' },
              { header: 'Verified', align: 'right' },
              { header: 'Spoofed', align: 'right' },
            ],
            answer.crawlers.map((c) => [
              c.crawler,
              c.operator,
              c.purpose,
              formatNumber(c.hits),
              formatNumber(c.verified_hits),
              formatNumber(c.spoofed_hits),
            ]),
            'No AI crawler hits in this range (report them with a bot token: touchtrail bot-tokens create).',
          );
          const operators = answer.operators.length
            ? `\n${renderTable(
                [
                  { header: 'Operator' },
                  { header: 'Hits', align: 'right' },
                  { header: 'Pages', align: 'right' },
                  { header: 'Assistant visits', align: 'right' },
                  { header: 'Conversions', align: 'right' },
                  { header: 'Net revenue', align: 'right' },
                ],
                answer.operators.map((o) => [
                  o.operator,
                  formatNumber(o.hits),
                  formatNumber(o.pages_fetched),
                  formatNumber(o.assistant_visits),
                  formatNumber(o.conversions),
                  formatMoney(o.net, answer.currency),
                ]),
              )}`
            : '';
          return `${dim(`${answer.from} – ${answer.to} · ${answer.attribution_model}`)}\n${crawlers}${operators}`;
        });
      }),
    );
}
