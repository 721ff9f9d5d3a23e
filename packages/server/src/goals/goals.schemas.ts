/**
 * Request and response schemas of the goals routes (interface §2.2–§2.4, §4.1). Field rules come
 * from goal-names.ts, goal-fields.ts and lib/day-window.ts, which the service applies as well.
 */
import { z } from 'zod';
import { uuidParam } from '../http/schemas.js';
import { DAY_MESSAGE, isCalendarDay } from '../lib/day-window.js';
import { SITE_REF_PATTERN } from '../lib/ids.js';
import {
  DISPLAY_NAME_MAX_CHARS,
  displayNameProblem,
  emojiProblem,
  REORDER_MAX_IDS,
  SORT_ORDER_MAX,
} from './goal-fields.js';
import { goalNameProblem } from './goal-names.js';
import {
  createdGoalExample,
  createGoalExample,
  GOAL_ID_EXAMPLE,
  GOAL_NAME_EXAMPLE,
  goalListExample,
  propertiesExample,
  SITE_KEY_EXAMPLE,
  siteBodyExample,
  timeseriesExample,
  unarchivedGoalExample,
  updatedGoalExample,
  updateGoalExample,
} from './goals.examples.js';

/** Adds `problem(value)` as the issue message when it names one. */
const ruled =
  <T>(problem: (value: T) => string | null) =>
  (value: T, ctx: z.RefinementCtx) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  };

const siteId = z
  .string()
  .regex(SITE_REF_PATTERN, 'must be a ttid_ snippet key (a dashboard session may also pass the site UUID)')
  .describe('Snippet key of the site; a dashboard session may also pass the internal site UUID')
  .meta({ examples: [SITE_KEY_EXAMPLE] });

const goalName = z
  .string({ error: 'must be a string' })
  .superRefine(ruled(goalNameProblem))
  .describe('The event name: ^[a-z][a-z0-9_]*$, 1 to 64 characters, not a reserved name. Immutable')
  .meta({ examples: [GOAL_NAME_EXAMPLE] });

const displayName = z
  .string({ error: 'must be a string or null' })
  .trim()
  .superRefine(ruled(displayNameProblem))
  .nullable()
  .describe(`1 to ${DISPLAY_NAME_MAX_CHARS} characters (trimmed); null clears`);

const emoji = z
  .string({ error: 'must be a string or null' })
  .superRefine(ruled(emojiProblem))
  .nullable()
  .describe('Exactly one emoji (flags, keycaps, skin tones and joined sequences allowed); null clears');

const sortOrder = z
  .number({ error: 'must be an integer' })
  .int({ error: 'must be an integer' })
  .min(0, { error: `must be from 0 to ${SORT_ORDER_MAX}` })
  .max(SORT_ORDER_MAX, { error: `must be from 0 to ${SORT_ORDER_MAX}` })
  .describe(`0 to ${SORT_ORDER_MAX}, ascending; ties break on name`);

const reportDay = z.string().refine(isCalendarDay, { error: DAY_MESSAGE });

export const listGoalsQuery = z.strictObject({
  site_id: siteId,
  include_archived: z
    .enum(['true', 'false'], { error: 'must be "true" or "false"' })
    .optional()
    .describe('"true" also lists archived goals, with their `archived_at`; default "false"'),
});

export const siteQuery = z.strictObject({ site_id: siteId });

export const createGoalBody = z
  .strictObject({
    site_id: siteId,
    name: goalName,
    display_name: displayName.optional(),
    emoji: emoji.optional(),
    sort_order: sortOrder.optional().describe('Default 0'),
  })
  .meta({ examples: [createGoalExample] });

export const updateGoalBody = z
  .strictObject({
    site_id: siteId,
    display_name: displayName.optional(),
    emoji: emoji.optional(),
    sort_order: sortOrder.optional(),
  })
  .meta({ examples: [updateGoalExample] });

export const reorderGoalsBody = z.strictObject({
  site_id: siteId,
  goal_ids: z
    .array(uuidParam, { error: 'must be an array of goal ids' })
    .min(1, { error: `must hold 1 to ${REORDER_MAX_IDS} ids` })
    .max(REORDER_MAX_IDS, { error: `must hold 1 to ${REORDER_MAX_IDS} ids` }),
});

export const siteBody = z.strictObject({ site_id: siteId }).meta({ examples: [siteBodyExample] });

export const goalIdParams = z.strictObject({
  id: uuidParam.meta({ examples: [GOAL_ID_EXAMPLE], description: 'The goal’s registry id (`id` of a goal)' }),
});

export const goalNameParams = z.strictObject({ name: goalName });

export const reportQuery = z.strictObject({
  site_id: siteId,
  from: reportDay.optional().describe('First day (UTC), inclusive. Default: six days before `to`'),
  to: reportDay.optional().describe('Last day (UTC), inclusive. Default: today'),
});

/** What the time series may add beside completions: `conversion_rate`, `value`. */
export const TIMESERIES_EXTRAS = ['conversion_rate', 'value'] as const;
export type TimeseriesExtra = (typeof TIMESERIES_EXTRAS)[number];

export const timeseriesQuery = reportQuery.extend({
  include: z
    .string()
    .max(100)
    .transform((text) => text.split(','))
    .pipe(
      z.array(z.enum(TIMESERIES_EXTRAS, { error: `each must be one of ${TIMESERIES_EXTRAS.join(', ')}` })),
    )
    .optional()
    .describe(
      'Comma-separated: `conversion_rate` adds each goal’s conversion rate over the window (percent, one decimal: ' +
        'people who completed it during a visit over people with a visit), `value` the summed `value` of its ' +
        'completions in minor units of `currency`, with `currency` and `unconverted` (amounts without an exchange ' +
        'rate for their day, per currency in its minor units) beside `series`',
    ),
});

export const goalSchema = z.object({
  id: z.uuid(),
  site_id: z.string().describe('Snippet key of the site'),
  name: z.string(),
  display_name: z.string().nullable(),
  emoji: z.string().nullable(),
  sort_order: z.number().int(),
  created_at: z.string(),
  archived_at: z.string().nullable().describe('Null unless archived goals were asked for'),
});

export const goalListSchema = z.object({ goals: z.array(goalSchema) });

/** `{goal}`, the answer of create, update and unarchive; each route adds its own example. */
export const goalAnswerSchema = z.object({ goal: goalSchema });

export const goalListAnswer = goalListSchema.meta({
  description: 'The goals, by `sort_order` then `name`',
  examples: [goalListExample],
});

export const createdGoalAnswer = goalAnswerSchema.meta({
  description: 'The new goal',
  examples: [createdGoalExample],
});

export const updatedGoalAnswer = goalAnswerSchema.meta({
  description: 'The goal as updated',
  examples: [updatedGoalExample],
});

export const unarchivedGoalAnswer = goalAnswerSchema.meta({
  description: 'The goal, active again (`archived_at` null)',
  examples: [unarchivedGoalExample],
});

export const timeseriesSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    series: z.array(
      z.object({
        goal_name: z.string(),
        points: z.array(z.object({ date: z.string(), completions: z.number().int() })),
        total: z.number().int(),
        conversion_rate: z.number().optional().describe('With `include=conversion_rate`'),
        value: z.number().int().optional().describe('With `include=value`'),
      }),
    ),
    currency: z.string().optional().describe('With `include=value`: the site currency'),
    unconverted: z
      .array(z.object({ currency: z.string(), amount: z.number().int() }))
      .optional()
      .describe('With `include=value`'),
  })
  .meta({ description: 'Completions per day of each goal that fired', examples: [timeseriesExample] });

export const propertiesSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    goal_name: z.string(),
    properties: z.array(
      z.object({
        key: z.string(),
        values: z.array(z.object({ value: z.string(), count: z.number().int() })),
      }),
    ),
  })
  .meta({ description: 'The most common values of each property key', examples: [propertiesExample] });

/** Every body the goals area answers with on failure (interface §7.1). */
export const goalsErrorSchema = z
  .object({
    error: z.string(),
    statusCode: z.number().int().optional(),
    code: z.string().optional(),
    message: z.string().optional(),
    field: z.string().optional(),
  })
  .loose();
