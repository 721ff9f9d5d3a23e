/**
 * `touchtrail funnels`: saved funnels and their reports, or a one-off funnel from `--step` flags.
 * A step is `page:/pricing` (is), `page~blog` (contains), `page:/blog/*` (a `*` pattern) or
 * `event:signup` (optionally `event:signup:plan=pro`).
 */
import { type paths, unwrap } from '@touchtrail/client';
import { type Command, InvalidArgumentError } from 'commander';
import { action } from '../context.js';
import { UsageError } from '../errors.js';
import { example, FROM_HELP, integerBetween, oneOf, parseDay, reportDays, TO_HELP } from '../options.js';
import { formatDuration, formatNumber, formatPercent, formatTime } from '../output/format.js';
import { dim } from '../output/style.js';
import { renderTable } from '../output/table.js';
import { parseRange } from './stats-query.js';

type Step = NonNullable<
  paths['/v1/funnels']['post']['requestBody']
>['content']['application/json']['steps'][number];
type ReportStep =
  paths['/v1/funnels/query']['post']['responses']['200']['content']['application/json']['steps'][number];
interface Report {
  steps: ReportStep[];
  breakdown: { value: string | null; steps: ReportStep[] }[] | null;
  meta: { date_range: string[]; window_hours: number };
}

export function parseStep(value: string): Step {
  const contains = /^page~(.+)$/.exec(value);
  if (contains?.[1]) return { type: 'page', match: 'contains', value: contains[1] };
  const page = /^page:(.+)$/.exec(value);
  if (page?.[1]) return { type: 'page', match: page[1].includes('*') ? 'matches' : 'is', value: page[1] };
  const event = /^event:([^:]+)(?::([^=]+)=(.*))?$/.exec(value);
  if (event?.[1]) {
    const [, name, key, propertyValue] = event;
    return { type: 'event', name, ...(key ? { property: { key, value: propertyValue ?? '' } } : {}) };
  }
  throw new InvalidArgumentError('expected page:/path, page~text, page:/blog/* or event:name[:key=value].');
}

const stepLabel = (step: Step) =>
  step.type === 'page'
    ? `page ${step.match === 'is' ? '' : `${step.match} `}${step.value}`
    : `event ${step.name}${step.property ? ` (${step.property.key}=${step.property.value})` : ''}`;

function renderSteps(steps: Report['steps']): string {
  return renderTable(
    [
      { header: '#', align: 'right' },
      { header: 'Step' },
      { header: 'Visitors', align: 'right' },
      { header: 'From previous', align: 'right' },
      { header: 'From first', align: 'right' },
      { header: 'Dropped', align: 'right' },
      { header: 'Median to next', align: 'right' },
    ],
    steps.map((step) => [
      String(step.index),
      step.label,
      formatNumber(step.visitors),
      formatPercent(step.conversion_from_previous),
      formatPercent(step.conversion_from_first),
      formatNumber(step.drop_off),
      formatDuration(step.median_seconds_to_next),
    ]),
  );
}

export function renderReport(report: Report): string {
  const head = dim(
    `${report.meta.date_range[0]} – ${report.meta.date_range[1]} · within ${report.meta.window_hours} h\n`,
  );
  const groups = (report.breakdown ?? []).map(
    (group) => `\n${group.value ?? '(none)'}\n${renderSteps(group.steps)}`,
  );
  return head + renderSteps(report.steps) + groups.join('');
}

const withStepFlags = (command: Command) =>
  command
    .option(
      '--step <step>',
      'page:/path, page~text, page:/blog/* or event:name[:key=value] (repeatable, in order)',
      (v: string, p: Step[] = []) => [...p, parseStep(v)],
    )
    .option('--window <hours>', 'hours allowed from the first step to the last', integerBetween(1, 8760));

const breakdownOption = oneOf(['visit:channel', 'visit:ai_source', 'channel', 'ai_source'] as const);
const breakdownOf = (value?: string) =>
  value
    ? ((value.startsWith('visit:') ? value : `visit:${value}`) as 'visit:channel' | 'visit:ai_source')
    : undefined;

export function registerFunnels(program: Command) {
  const funnels = program.command('funnels').description('Saved funnels and funnel reports');

  funnels
    .command('list')
    .description('List saved funnels')
    .addHelpText('after', example('touchtrail funnels list --site ttid_…'))
    .action(
      action(async (ctx) => {
        const answer = await unwrap(
          ctx.client.GET('/v1/funnels', { params: { query: { site_id: ctx.site() } } }),
        );
        ctx.print(answer, () =>
          renderTable(
            [
              { header: 'Id' },
              { header: 'Name' },
              { header: 'Steps' },
              { header: 'Window', align: 'right' },
              { header: 'Updated' },
            ],
            answer.funnels.map((f) => [
              f.id,
              f.name,
              f.steps.map(stepLabel).join(' → '),
              `${f.window_hours} h`,
              formatTime(f.updated_at),
            ]),
            'No saved funnels: add one with touchtrail funnels create --name … --step … --step …',
          ),
        );
      }),
    );

  withStepFlags(
    funnels.command('create').description('Save a funnel').requiredOption('--name <name>', 'funnel name'),
  )
    .addHelpText(
      'after',
      example(
        'touchtrail funnels create --name Checkout --step page:/pricing --step event:signup --step event:payment',
      ),
    )
    .action(
      action<{ name: string; step?: Step[]; window?: number }>(async (ctx, options) => {
        if (!options.step || options.step.length < 2)
          throw new UsageError('a funnel needs at least two --step flags');
        const answer = await unwrap(
          ctx.client.POST('/v1/funnels', {
            body: {
              site_id: ctx.site(),
              name: options.name,
              steps: options.step,
              ...(options.window ? { window_hours: options.window } : {}),
            },
          }),
        );
        ctx.print(
          answer,
          () =>
            `Saved funnel ${answer.funnel.name} (${answer.funnel.id}): ${answer.funnel.steps.map(stepLabel).join(' → ')}\n`,
        );
      }),
    );

  withStepFlags(
    funnels
      .command('update')
      .argument('<id>', 'funnel id')
      .description('Rename a funnel or replace its steps')
      .option('--name <name>', 'new name'),
  )
    .addHelpText('after', example('touchtrail funnels update 6b1e…-uuid --window 48'))
    .action(
      action<{ name?: string; step?: Step[]; window?: number }>(async (ctx, options, args) => {
        const body = {
          ...(options.name ? { name: options.name } : {}),
          ...(options.step ? { steps: options.step } : {}),
          ...(options.window ? { window_hours: options.window } : {}),
        };
        if (Object.keys(body).length === 0)
          throw new UsageError('nothing to change', 'Pass --name, --step or --window.');
        const answer = await unwrap(
          ctx.client.PATCH('/v1/funnels/{id}', {
            params: { path: { id: args[0] as string } },
            body: { site_id: ctx.site(), ...body },
          }),
        );
        ctx.print(
          answer,
          () => `Updated funnel ${answer.funnel.name}: ${answer.funnel.steps.map(stepLabel).join(' → ')}\n`,
        );
      }),
    );

  funnels
    .command('delete')
    .argument('<id>', 'funnel id')
    .description('Delete a saved funnel')
    .addHelpText('after', example('touchtrail funnels delete 6b1e…-uuid --site ttid_…'))
    .action(
      action(async (ctx, _options, args) => {
        await unwrap(
          ctx.client.DELETE('/v1/funnels/{id}', {
            params: { path: { id: args[0] as string }, query: { site_id: ctx.site() } },
          }),
        );
        ctx.print(undefined, () => `Deleted funnel ${args[0]}.\n`);
      }),
    );

  funnels
    .command('report')
    .argument('<id>', 'funnel id')
    .description('How many people went through each step of a saved funnel')
    .option('--from <date>', FROM_HELP, parseDay)
    .option('--to <date>', TO_HELP, parseDay)
    .option('--timezone <iana>', 'time zone of the days (default UTC)')
    .option('--breakdown <dimension>', 'channel or ai_source', breakdownOption)
    .addHelpText('after', example('touchtrail funnels report 6b1e…-uuid --site ttid_… --breakdown channel'))
    .action(
      action<{ from?: string; to?: string; timezone?: string; breakdown?: string }>(
        async (ctx, options, args) => {
          const breakdown = breakdownOf(options.breakdown);
          const report = await unwrap(
            ctx.client.GET('/v1/funnels/{id}/report', {
              params: {
                path: { id: args[0] as string },
                query: {
                  site_id: ctx.site(),
                  ...reportDays(options),
                  ...(options.timezone ? { timezone: options.timezone } : {}),
                  ...(breakdown ? { breakdown } : {}),
                },
              },
            }),
          );
          ctx.print(report, () => renderReport(report));
        },
      ),
    );

  withStepFlags(
    funnels.command('query').description('Report on a funnel given by --step flags, without saving it'),
  )
    .option('--range <range>', 'day, 7d, 30d, month, 12mo, year, all, or FROM..TO', parseRange, '30d')
    .option('--timezone <iana>', 'time zone of the range (default UTC)')
    .option('--breakdown <dimension>', 'channel or ai_source', breakdownOption)
    .addHelpText(
      'after',
      example(
        'touchtrail funnels query --site ttid_… --step page:/ --step page:/pricing --step event:signup',
      ),
    )
    .action(
      action<{
        step?: Step[];
        window?: number;
        range: string | [string, string];
        timezone?: string;
        breakdown?: string;
      }>(async (ctx, options) => {
        if (!options.step || options.step.length < 2)
          throw new UsageError('a funnel needs at least two --step flags');
        const breakdown = breakdownOf(options.breakdown);
        type Body = NonNullable<
          paths['/v1/funnels/query']['post']['requestBody']
        >['content']['application/json'];
        const body = {
          site_id: ctx.site(),
          steps: options.step,
          date_range: options.range,
          ...(options.window ? { window_hours: options.window } : {}),
          ...(options.timezone ? { timezone: options.timezone } : {}),
          ...(breakdown ? { breakdown } : {}),
        } as Body;
        const report = await unwrap(ctx.client.POST('/v1/funnels/query', { body }));
        ctx.print(report, () => renderReport(report));
      }),
    );
}
