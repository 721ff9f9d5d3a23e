/**
 * Request and response schemas of `/v1/funnels`; the descriptions are the endpoints'
 * documentation. Step rules come from funnel-steps.ts, filters and dates from the stats query.
 */
import { z } from 'zod';
import { siteRefSchema } from '../http/schemas.js';
import { daySchema } from '../lib/day-window.js';
import { DATE_RANGE_KEYWORDS, MAX_RANGE_YEARS } from '../reporting/stats-vocabulary.js';
import { FUNNEL_BREAKDOWNS } from './funnel-report.query.js';
import { funnelStepSchema, funnelStepsSchema, windowHoursSchema } from './funnel-steps.js';
import {
  createFunnelExample,
  FUNNEL_ID_EXAMPLE,
  funnelExample,
  funnelQueryExample,
  funnelReportExample,
  updateFunnelExample,
} from './funnels.examples.js';

/** The documented unsaved funnel, which the contract test also sends. */
export const funnelQueryBodyExample = funnelQueryExample;

export const FUNNEL_NAME_MAX_CHARS = 100;

const siteId = siteRefSchema;

const funnelName = z
  .string()
  .trim()
  .min(1, `must be 1 to ${FUNNEL_NAME_MAX_CHARS} characters`)
  .max(FUNNEL_NAME_MAX_CHARS, `must be 1 to ${FUNNEL_NAME_MAX_CHARS} characters`)
  .describe(`1 to ${FUNNEL_NAME_MAX_CHARS} characters (trimmed)`);

const timezone = z.string().max(64).optional().describe('IANA time zone the dates are days in; default UTC');

const breakdown = z
  .enum(FUNNEL_BREAKDOWNS)
  .optional()
  .describe(
    'Split every figure by the channel (`ai`, `search`, `social`, …) or the AI assistant (null outside the AI ' +
      'channel) of the visit in which each person reached step 1',
  );

const filtersDescription =
  'The stats query’s filters (`[operator, visit dimension, values]`, `and`/`or`/`not` groups), applied to the ' +
  'visit in which a person reached step 1: a person enters at their earliest step 1 in a visit that passes. ' +
  'A step 1 sent by a server outside any visit passes no filter';

export const createFunnelBody = z
  .strictObject({
    site_id: siteId,
    name: funnelName,
    steps: funnelStepsSchema,
    window_hours: windowHoursSchema.optional(),
  })
  .meta({ examples: [createFunnelExample] });

export const updateFunnelBody = z
  .strictObject({
    site_id: siteId,
    name: funnelName.optional(),
    steps: funnelStepsSchema.optional(),
    window_hours: windowHoursSchema.optional(),
  })
  .meta({ examples: [updateFunnelExample] });

export const siteQuery = z.strictObject({ site_id: siteId });

export const funnelIdParams = z.strictObject({
  id: z
    .string()
    .max(64)
    .describe('The funnel’s id')
    .meta({ examples: [FUNNEL_ID_EXAMPLE] }),
});

export const reportQuery = z.strictObject({
  site_id: siteId,
  from: daySchema
    .optional()
    .describe('First day, inclusive, in `timezone`; with `to`. Default: 29 days before today'),
  to: daySchema.optional().describe('Last day, inclusive; with `from`. Default: today'),
  timezone,
  breakdown,
  filters: z
    .string()
    .max(20_000)
    .optional()
    .describe(`${filtersDescription}. The JSON text of the list, e.g. [["is","visit:channel",["ai"]]]`),
});

export const funnelQueryBody = z
  .strictObject({
    site_id: siteId,
    steps: funnelStepsSchema,
    window_hours: windowHoursSchema.optional(),
    date_range: z
      .union([z.enum(DATE_RANGE_KEYWORDS), z.tuple([daySchema, daySchema])], {
        error: `must be one of ${DATE_RANGE_KEYWORDS.join(', ')} or two dates [from, to]`,
      })
      .describe(
        'Days in which step 1 counts: a keyword ending today in `timezone` (`day`, `7d`, `30d`, `month`, `12mo`, ' +
          `\`year\`, \`all\`) or two inclusive dates \`[from, to]\` spanning at most ${MAX_RANGE_YEARS} years`,
      ),
    timezone,
    breakdown,
    filters: z.array(z.unknown()).max(50).optional().describe(filtersDescription),
  })
  .meta({ examples: [funnelQueryExample] });

export type FunnelQueryBody = z.infer<typeof funnelQueryBody>;
export type ReportQuery = z.infer<typeof reportQuery>;

export const funnelSchema = z
  .object({
    id: z.uuid(),
    site_id: z.string().describe('The site’s snippet key'),
    name: z.string(),
    steps: z.array(funnelStepSchema),
    window_hours: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ examples: [funnelExample] });

const stepFiguresSchema = z.object({
  index: z.number().int().describe('1 for the first step'),
  label: z.string().describe('The step in words: the path or pattern, `contains …`, or the event name'),
  visitors: z.number().int().describe('People who reached the step in order, identities merged'),
  conversion_from_previous: z.number().describe('Percent of the step before’s people, one decimal'),
  conversion_from_first: z.number().describe('Percent of step 1’s people, one decimal'),
  drop_off: z.number().int().describe('People at the step before who did not reach this one (0 at step 1)'),
  median_seconds_to_next: z
    .number()
    .int()
    .nullable()
    .describe(
      'Median whole seconds from this step to the next among those who reached it; null at the last step',
    ),
});

export const funnelReportSchema = z
  .object({
    steps: z.array(stepFiguresSchema),
    breakdown: z
      .array(z.object({ value: z.string().nullable(), steps: z.array(stepFiguresSchema) }))
      .nullable()
      .describe('With `breakdown`: one group per value, most people at step 1 first; else null'),
    meta: z.object({
      date_range: z.tuple([z.string(), z.string()]).describe('The resolved inclusive days of step 1'),
      window_hours: z.number().int(),
    }),
  })
  .meta({
    description: 'Each step’s people, conversion, drop-off and time to the next step',
    examples: [funnelReportExample],
  });
