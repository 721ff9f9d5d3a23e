/** `touchtrail goals`: the goal registry and its reports (goal reorder is left out on purpose). */
import { unwrap } from '@touchtrail/client';
import type { Command } from 'commander';
import { action } from '../context.js';
import { UsageError } from '../errors.js';
import { example, FROM_HELP, integerBetween, parseDay, reportDays, TO_HELP } from '../options.js';
import { formatDuration, formatMinorMoney, formatNumber, formatTime, orDash } from '../output/format.js';
import { renderDetails, renderTable } from '../output/table.js';

interface GoalView {
  id: string;
  name: string;
  display_name: string | null;
  emoji: string | null;
  sort_order: number;
  created_at: string;
  archived_at: string | null;
}

const goalTable = (goals: GoalView[]) =>
  renderTable(
    [
      { header: 'Id' },
      { header: 'Name' },
      { header: 'Display name' },
      { header: 'Order', align: 'right' },
      { header: 'Created' },
      { header: 'Archived' },
    ],
    goals.map((goal) => [
      goal.id,
      goal.name,
      `${goal.emoji ? `${goal.emoji} ` : ''}${orDash(goal.display_name)}`,
      String(goal.sort_order),
      formatTime(goal.created_at),
      goal.archived_at ? formatTime(goal.archived_at) : '',
    ]),
    'No goals: they register on the first event with a new name, or add one with touchtrail goals create <name>.',
  );

interface GoalFields {
  displayName?: string;
  emoji?: string;
  sortOrder?: number;
}

/** `""` clears a display name or emoji. */
const goalBody = (options: GoalFields) => ({
  ...(options.displayName !== undefined ? { display_name: options.displayName || null } : {}),
  ...(options.emoji !== undefined ? { emoji: options.emoji || null } : {}),
  ...(options.sortOrder !== undefined ? { sort_order: options.sortOrder } : {}),
});

function withGoalFields(command: Command) {
  return command
    .option('--display-name <text>', 'label shown instead of the name ("" clears)')
    .option('--emoji <emoji>', 'one emoji ("" clears)')
    .option('--sort-order <n>', 'position, 0 to 10000', integerBetween(0, 10_000));
}

const withWindow = (command: Command) =>
  command.option('--from <date>', FROM_HELP, parseDay).option('--to <date>', TO_HELP, parseDay);

export function registerGoals(program: Command) {
  const goals = program.command('goals').description('List, add, change and archive goals; goal reports');

  goals
    .command('list')
    .description('List the site’s goals')
    .option('--include-archived', 'list archived goals too')
    .addHelpText('after', example('touchtrail goals list --site ttid_…'))
    .action(
      action<{ includeArchived?: boolean }>(async (ctx, options) => {
        const answer = await unwrap(
          ctx.client.GET('/v1/goals', {
            params: {
              query: {
                site_id: ctx.site(),
                ...(options.includeArchived ? { include_archived: 'true' } : {}),
              },
            },
          }),
        );
        ctx.print(answer, () => goalTable(answer.goals));
      }),
    );

  withGoalFields(
    goals
      .command('create')
      .argument('<name>', 'event name: lowercase letters, digits and _')
      .description('Add a goal'),
  )
    .addHelpText('after', example('touchtrail goals create signup --display-name "Sign-up" --emoji 🎉'))
    .action(
      action<GoalFields>(async (ctx, options, args) => {
        const answer = await unwrap(
          ctx.client.POST('/v1/goals', {
            body: { site_id: ctx.site(), name: args[0] as string, ...goalBody(options) },
          }),
        );
        ctx.print(answer, () => goalTable([answer.goal]));
      }),
    );

  withGoalFields(
    goals.command('update').argument('<id>', 'goal id (goals list)').description('Change a goal'),
  )
    .addHelpText('after', example('touchtrail goals update 3f0c…-uuid --display-name "Trial started"'))
    .action(
      action<GoalFields>(async (ctx, options, args) => {
        const body = goalBody(options);
        if (Object.keys(body).length === 0)
          throw new UsageError(
            'nothing to change',
            'Pass at least one of --display-name, --emoji, --sort-order.',
          );
        const answer = await unwrap(
          ctx.client.PATCH('/v1/goals/{id}', {
            params: { path: { id: args[0] as string } },
            body: { site_id: ctx.site(), ...body },
          }),
        );
        ctx.print(answer, () => goalTable([answer.goal]));
      }),
    );

  goals
    .command('archive')
    .argument('<id>', 'goal id')
    .description('Archive a goal (its events keep being recorded)')
    .addHelpText('after', example('touchtrail goals archive 3f0c…-uuid --site ttid_…'))
    .action(
      action(async (ctx, _options, args) => {
        const id = args[0] as string;
        await unwrap(
          ctx.client.DELETE('/v1/goals/{id}', { params: { path: { id }, query: { site_id: ctx.site() } } }),
        );
        ctx.print(undefined, () => `Archived goal ${id}. Undo with: touchtrail goals unarchive ${id}\n`);
      }),
    );

  goals
    .command('unarchive')
    .argument('<id>', 'goal id')
    .description('Bring an archived goal back')
    .addHelpText('after', example('touchtrail goals unarchive 3f0c…-uuid --site ttid_…'))
    .action(
      action(async (ctx, _options, args) => {
        const answer = await unwrap(
          ctx.client.POST('/v1/goals/{id}/unarchive', {
            params: { path: { id: args[0] as string } },
            body: { site_id: ctx.site() },
          }),
        );
        ctx.print(answer, () => goalTable([answer.goal]));
      }),
    );

  withWindow(
    goals.command('timeseries').description('Completions per goal and day (default the last 30 days)'),
  )
    .addHelpText(
      'after',
      example('touchtrail goals timeseries --site ttid_… --from 2026-11-01 --to 2026-11-28'),
    )
    .action(
      action<{ from?: string; to?: string }>(async (ctx, options) => {
        const answer = await unwrap(
          ctx.client.GET('/v1/goals/timeseries', {
            params: { query: { site_id: ctx.site(), ...reportDays(options) } },
          }),
        );
        ctx.print(answer, () => {
          const head = `Goal completions ${answer.from} – ${answer.to}\n`;
          const totals = renderTable(
            [{ header: 'Goal' }, { header: 'Completions', align: 'right' }, { header: 'Busiest day' }],
            answer.series.map((series) => {
              const busiest = [...series.points].sort((a, b) => b.completions - a.completions)[0];
              return [
                series.goal_name,
                formatNumber(series.total),
                busiest ? `${busiest.date} (${formatNumber(busiest.completions)})` : '—',
              ];
            }),
            'No completions in this range.',
          );
          return head + totals;
        });
      }),
    );

  withWindow(
    goals
      .command('properties')
      .argument('<name>', 'goal event name')
      .description('Most common property values of a goal'),
  )
    .addHelpText('after', example('touchtrail goals properties signup --site ttid_…'))
    .action(
      action<{ from?: string; to?: string }>(async (ctx, options, args) => {
        const answer = await unwrap(
          ctx.client.GET('/v1/goals/{name}/properties', {
            params: {
              path: { name: args[0] as string },
              query: { site_id: ctx.site(), ...reportDays(options) },
            },
          }),
        );
        ctx.print(answer, () =>
          renderTable(
            [{ header: 'Property' }, { header: 'Value' }, { header: 'Events', align: 'right' }],
            answer.properties.flatMap((property) =>
              property.values.map((value, i) => [
                i === 0 ? property.key : '',
                value.value,
                formatNumber(value.count),
              ]),
            ),
            `No properties on ${answer.goal_name} between ${answer.from} and ${answer.to}.`,
          ),
        );
      }),
    );

  withWindow(
    goals
      .command('visitors')
      .argument('<name>', 'goal event name')
      .description('The people who completed a goal'),
  )
    .option('--page <n>', 'page, from 1', integerBetween(1, 1_000_000))
    .option('--page-size <n>', 'rows per page, 1 to 100', integerBetween(1, 100))
    .addHelpText('after', example('touchtrail goals visitors signup --site ttid_… --page-size 20'))
    .action(
      action<{ from?: string; to?: string; page?: number; pageSize?: number }>(async (ctx, options, args) => {
        const answer = await unwrap(
          ctx.client.GET('/v1/goals/{name}/visitors', {
            params: {
              path: { name: args[0] as string },
              query: {
                site_id: ctx.site(),
                ...reportDays(options),
                ...(options.page ? { page: options.page } : {}),
                ...(options.pageSize ? { page_size: options.pageSize } : {}),
              },
            },
          }),
        );
        ctx.print(answer, () => {
          const table = renderTable(
            [
              { header: 'Visitor' },
              { header: 'Source' },
              { header: 'Visits', align: 'right' },
              { header: 'Active', align: 'right' },
              { header: 'Revenue', align: 'right' },
              { header: 'Last seen' },
            ],
            answer.visitors.map((v) => [
              v.label.name,
              orDash(v.entry.ai_source || v.entry.source_name),
              formatNumber(v.session_count),
              formatDuration(v.active_time_sec),
              formatMinorMoney(v.revenue.total_cents, v.revenue.currency),
              formatTime(v.last_seen),
            ]),
            `Nobody completed ${answer.goal_name} between ${answer.from} and ${answer.to}.`,
          );
          const more = answer.has_more ? `; next page: --page ${answer.page + 1}` : '';
          return `${table}${renderDetails([['People', `${formatNumber(answer.total_count)} (page ${answer.page}${more})`]])}`;
        });
      }),
    );
}
