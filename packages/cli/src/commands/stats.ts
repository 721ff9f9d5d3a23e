/**
 * `touchtrail stats` (the query API), and its shortcuts `sources` (by channel, assistant or
 * referrer) and `pages` (by page, entry or exit page).
 */
import { type paths, unwrap } from '@touchtrail/client';
import { type Command, Option } from 'commander';
import { action, type Context } from '../context.js';
import { collect, example, integerBetween, oneOf, parseModel } from '../options.js';
import { formatChange } from '../output/format.js';
import { formatMetric, headerOf } from '../output/metrics.js';
import { dim } from '../output/style.js';
import { type Column, renderTable } from '../output/table.js';
import {
  parseFilter,
  parseMetrics,
  parseOrder,
  parseRange,
  queryBody,
  type StatsFlags,
} from './stats-query.js';

type QueryBody = NonNullable<paths['/v1/stats/query']['post']['requestBody']>['content']['application/json'];
type Answer = Awaited<ReturnType<typeof runQuery>>;

async function runQuery(ctx: Context, flags: StatsFlags) {
  // Built from checked flags; the server validates it again and names any problem it finds.
  const body = queryBody(ctx.site(), flags) as QueryBody;
  return unwrap(ctx.client.POST('/v1/stats/query', { body }));
}

export function renderStats(answer: Answer): string {
  const { query, meta } = answer;
  const compared = Boolean(meta.comparison_range);
  const columns: Column[] = [
    ...query.dimensions.map((name) => ({ header: headerOf(name) })),
    ...query.metrics.flatMap((name): Column[] => [
      { header: headerOf(name), align: 'right' },
      ...(compared ? [{ header: 'Change', align: 'right' as const }] : []),
    ]),
  ];
  const rows = answer.results.map((row) => [
    ...row.dimensions.map((value) => value ?? '(none)'),
    ...query.metrics.flatMap((name, i) => [
      formatMetric(name, row.metrics[i], meta.currency),
      ...(compared ? [formatChange(row.comparison?.change[i])] : []),
    ]),
  ]);
  const by = query.dimensions.length ? ` by ${query.dimensions.join(', ')}` : '';
  const range = `${meta.date_range[0]} – ${meta.date_range[1]} (${query.timezone})`;
  const against = meta.comparison_range
    ? `, compared with ${meta.comparison_range[0]} – ${meta.comparison_range[1]}`
    : '';
  const notes = [
    meta.total_rows !== undefined ? `${meta.total_rows} rows in all` : '',
    meta.approximate.length ? `approximate: ${meta.approximate.join(', ')}` : '',
  ].filter(Boolean);
  const footer = notes.length ? dim(`${notes.join(' · ')}\n`) : '';
  return `${dim(`${query.metrics.join(', ')}${by} · ${range}${against}`)}\n${renderTable(columns, rows, 'No data in this range.')}${footer}`;
}

/** The flags every stats-backed command shares. */
function withQueryFlags(command: Command, defaultMetrics: string) {
  return command
    .option('--range <range>', 'day, 7d, 30d, month, 12mo, year, all, or FROM..TO', parseRange, '30d')
    .addOption(
      new Option('--metrics <list>', 'comma-separated metrics')
        .argParser(parseMetrics)
        .default(parseMetrics(defaultMetrics), defaultMetrics),
    )
    .option(
      '--filter <filter>',
      'dimension=value[,value], dimension!=value, dimension~text (repeatable)',
      parseFilter,
    )
    .option('--order <name[:asc|desc]>', 'sort by a metric or dimension (repeatable)', parseOrder)
    .option('--limit <n>', 'rows, 1 to 1000', integerBetween(1, 1000))
    .option('--timezone <iana>', 'time zone of the range and time buckets (default UTC)')
    .option('--model <model>', 'attribution model for revenue metrics', parseModel)
    .option(
      '--compare <period>',
      'previous_period or year_over_year',
      oneOf(['previous_period', 'year_over_year'] as const),
    )
    .option('--total', 'count the rows before --limit');
}

export function registerStats(program: Command) {
  withQueryFlags(
    program.command('stats').description('Query traffic, conversions and revenue (POST /v1/stats/query)'),
    'visitors,visits,pageviews,bounce_rate,visit_duration',
  )
    .option(
      '--by <dimension>',
      'group by: channel, ai_source, referrer, country, page, goal, day, props:<key>, … (repeatable)',
      collect,
    )
    .addHelpText(
      'after',
      example(
        'touchtrail stats --site ttid_… --range 30d --by channel --filter channel=ai --metrics visitors,revenue_net',
        'touchtrail stats --by day --range 7d --compare previous_period',
      ),
    )
    .action(
      action<StatsFlags>(async (ctx, options) => {
        const answer = await runQuery(ctx, options);
        ctx.print(answer, () => renderStats(answer));
      }),
    );

  withQueryFlags(
    program
      .command('sources')
      .description('Where visitors came from: channels, AI assistants or referring sites'),
    'visitors,visits,bounce_rate,visit_duration',
  )
    .option('--ai', 'AI assistants only, one row each')
    .option('--referrers', 'referring hosts instead of channels')
    .addHelpText(
      'after',
      example(
        'touchtrail sources --site ttid_… --range 7d',
        'touchtrail sources --ai --metrics visitors,conversions,revenue_net',
      ),
    )
    .action(
      action<StatsFlags & { ai?: boolean; referrers?: boolean }>(async (ctx, options) => {
        const by = options.ai ? 'visit:ai_source' : options.referrers ? 'visit:referrer' : 'visit:channel';
        const filter = options.ai ? parseFilter('channel=ai', options.filter) : options.filter;
        const answer = await runQuery(ctx, { ...options, by: [by], filter });
        ctx.print(answer, () => renderStats(answer));
      }),
    );

  withQueryFlags(
    program.command('pages').description('Top pages, or entry and exit pages'),
    'visitors,pageviews',
  )
    .option('--entry', 'entry pages (the first page of each visit)')
    .option('--exit', 'exit pages (the last page of each visit)')
    .addHelpText(
      'after',
      example(
        'touchtrail pages --site ttid_… --range 30d --limit 10',
        'touchtrail pages --entry --filter channel=ai',
      ),
    )
    .action(
      action<StatsFlags & { entry?: boolean; exit?: boolean }>(async (ctx, options) => {
        const by = options.entry ? 'visit:entry_page' : options.exit ? 'visit:exit_page' : 'event:page';
        const answer = await runQuery(ctx, { ...options, by: [by] });
        ctx.print(answer, () => renderStats(answer));
      }),
    );
}
