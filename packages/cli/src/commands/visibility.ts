/** `touchtrail visibility`: per page, AI crawler fetches beside the assistant visits and revenue they led to. */
import { unwrap } from '@touchtrail/client';
import type { Command } from 'commander';
import { action } from '../context.js';
import {
  type AttributionModel,
  example,
  FROM_HELP,
  integerBetween,
  parseDay,
  parseModel,
  reportDays,
  TO_HELP,
} from '../options.js';
import { formatMinorMoney, formatNumber } from '../output/format.js';
import { dim } from '../output/style.js';
import { renderTable } from '../output/table.js';

interface Flags {
  from?: string;
  to?: string;
  timezone?: string;
  model?: AttributionModel;
  notVisited?: boolean;
  limit?: number;
}

export function registerVisibility(program: Command) {
  program
    .command('visibility')
    .description('AI visibility per page: crawler fetches, assistant visits, conversions and revenue')
    .option('--from <date>', FROM_HELP, parseDay)
    .option('--to <date>', TO_HELP, parseDay)
    .option('--timezone <iana>', 'time zone of the days (default UTC)')
    .option('--model <model>', 'attribution model (default the site’s)', parseModel)
    .option('--not-visited', 'only pages crawled that no assistant sent a visit to')
    .option('--limit <n>', 'pages, 1 to 500', integerBetween(1, 500))
    .addHelpText('after', example('touchtrail visibility --site ttid_… --not-visited'))
    .action(
      action<Flags>(async (ctx, o) => {
        const answer = await unwrap(
          ctx.client.GET('/v1/ai-visibility', {
            params: {
              query: {
                site_id: ctx.site(),
                ...reportDays(o),
                ...(o.timezone ? { timezone: o.timezone } : {}),
                ...(o.model ? { attribution_model: o.model } : {}),
                ...(o.notVisited ? { not_visited: 'true' as const } : {}),
                ...(o.limit ? { limit: o.limit } : {}),
              },
            },
          }),
        );
        ctx.print(answer, () => {
          const { meta } = answer;
          const table = renderTable(
            [
              { header: 'Page' },
              { header: 'Crawler hits', align: 'right' },
              { header: 'AI visits', align: 'right' },
              { header: 'Conversions', align: 'right' },
              { header: 'Net revenue', align: 'right' },
            ],
            answer.pages.map((p) => [
              p.page,
              formatNumber(p.crawler_hits.total),
              formatNumber(p.ai_visits.total),
              formatNumber(p.conversions),
              formatMinorMoney(p.revenue_net_cents, meta.currency),
            ]),
            'No AI crawler fetches or assistant visits in this range.',
          );
          return `${dim(`${meta.date_range[0]} – ${meta.date_range[1]} · ${meta.attribution_model}`)}\n${table}`;
        });
      }),
    );
}
