/**
 * The steps of a funnel (DESIGN.md §7): a page path pattern, or an event name with at most one
 * property match. The rules live here once, for saved funnels and unsaved queries alike.
 */
import { z } from 'zod';
import { GOAL_NAME_MAX, GOAL_NAME_PATTERN } from '../goals/goal-names.js';

export const MIN_STEPS = 2;
export const MAX_STEPS = 8;
export const MIN_WINDOW_HOURS = 1;
/** 90 days. */
export const MAX_WINDOW_HOURS = 2160;
/** A week. */
export const DEFAULT_WINDOW_HOURS = 168;
/** As the stats filters' patterns: short enough that every LIKE stays cheap to scan. */
export const PAGE_VALUE_MAX_CHARS = 200;
const PROPERTY_KEY_MAX_CHARS = 200;
/** As ingest takes property values. */
const PROPERTY_VALUE_MAX_CHARS = 4096;
/** Stored with other types than `event`: a page step stands for pageviews. */
const NOT_EVENT_NAMES = ['pageview', 'engagement', 'identify'];

export const PAGE_MATCHES = ['is', 'contains', 'matches'] as const;
export type PageMatch = (typeof PAGE_MATCHES)[number];

export type PageStep = { type: 'page'; match: PageMatch; value: string };
export type EventStep = { type: 'event'; name: string; property?: { key: string; value: string } };
export type FunnelStep = PageStep | EventStep;

/** Why a page value can never match a path, or null when it can. */
export function pageValueProblem(match: PageMatch, value: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (/[\s\u0000-\u001f\u007f?#]/.test(value)) {
    return 'must be part of a path: no spaces, control characters, ? or # (query strings and fragments are not matched)';
  }
  if (match === 'is' && !value.startsWith('/')) return 'must be a path starting with /';
  if (match === 'matches' && !/^[/*]/.test(value)) {
    return 'must be a path pattern starting with / or * (* stands for any characters, nothing else is special)';
  }
  return null;
}

const pageStep = z
  .strictObject({
    type: z.literal('page'),
    match: z
      .enum(PAGE_MATCHES)
      .describe(
        '`is` the exact path; `contains` a part of it, any case; `matches` the whole path, case-sensitive, ' +
          'with `*` standing for any characters and nothing else special',
      ),
    value: z
      .string()
      .min(1)
      .max(PAGE_VALUE_MAX_CHARS)
      .describe(
        `The path, part or pattern, 1 to ${PAGE_VALUE_MAX_CHARS} characters (\`/pricing\`, \`/blog/*\`)`,
      ),
  })
  .superRefine((step, ctx) => {
    const problem = pageValueProblem(step.match, step.value);
    if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
  })
  .describe('A pageview whose path (without query string or fragment) matches');

const eventStep = z
  .strictObject({
    type: z.literal('event'),
    name: z
      .string()
      .min(1)
      .max(GOAL_NAME_MAX)
      .regex(GOAL_NAME_PATTERN, 'must match ^[a-z][a-z0-9_]*$')
      .refine((name) => !NOT_EVENT_NAMES.includes(name), 'names no event; use a page step for pageviews')
      .describe('A custom or server event (goal) name, `payment` and `trial` included'),
    property: z
      .strictObject({
        key: z.string().min(1).max(PROPERTY_KEY_MAX_CHARS),
        value: z.string().max(PROPERTY_VALUE_MAX_CHARS),
      })
      .optional()
      .describe(
        'Only events whose property `key` holds `value` (numbers and booleans as written: "42", "true")',
      ),
  })
  .describe('An event of this name, from the browser or a server');

export const funnelStepSchema = z.discriminatedUnion('type', [pageStep, eventStep]);

export const funnelStepsSchema = z
  .array(funnelStepSchema)
  .min(MIN_STEPS)
  .max(MAX_STEPS)
  .describe(
    `${MIN_STEPS} to ${MAX_STEPS} steps, in order: a person counts at a step once they reached it after the ` +
      'step before, within the window from the first',
  );

export const windowHoursSchema = z
  .number()
  .int()
  .min(MIN_WINDOW_HOURS)
  .max(MAX_WINDOW_HOURS)
  .describe(
    `Hours after step 1 within which the later steps count, ${MIN_WINDOW_HOURS} to ${MAX_WINDOW_HOURS}; ` +
      `default ${DEFAULT_WINDOW_HOURS} (a week)`,
  );

/** How a step reads in a report: `/pricing`, `contains blog`, `signup (plan = pro)`. */
export function stepLabel(step: FunnelStep): string {
  if (step.type === 'event') {
    return step.property ? `${step.name} (${step.property.key} = ${step.property.value})` : step.name;
  }
  return step.match === 'contains' ? `contains ${step.value}` : step.value;
}
