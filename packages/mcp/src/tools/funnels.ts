/**
 * `funnel_report`: a saved funnel by id, or steps given on the spot; with neither, the site's
 * saved funnels, so an agent can find an id first.
 */
import { unwrap } from '@touchtrail/client';
import { z } from 'zod';
import { answer, argumentError, READS, type ToolSet } from '../tool-kit.js';
import {
  type BodyOf,
  day,
  FUNNEL_BREAKDOWNS,
  filters,
  filterText,
  type QueryOf,
  siteId,
  timezone,
} from './inputs.js';

const step = z.union([
  z.strictObject({
    type: z.literal('page'),
    match: z.enum(['is', 'contains', 'matches']).describe('`matches` takes `*` wildcards, e.g. /blog/*'),
    value: z.string().min(1).max(200).describe('A path, e.g. /pricing'),
  }),
  z.strictObject({
    type: z.literal('event'),
    name: z.string().min(1).max(64).describe('A goal or event name, e.g. signup; `payment` for payments'),
    property: z.strictObject({ key: z.string().min(1).max(200), value: z.string().max(4096) }).optional(),
  }),
]);

const UNITS = {
  visitors: 'people who reached the step in order',
  conversion_from_previous: 'percent, one decimal',
  conversion_from_first: 'percent, one decimal',
  drop_off: 'people lost since the step before',
  median_seconds_to_next: 'seconds',
};

export function addFunnelTools(tools: ToolSet): void {
  const { client } = tools;

  tools.add('funnel_report', {
    title: 'Funnel report',
    description:
      'How many people went through a sequence of steps (pages or events) in order: people per step, ' +
      'conversion from the previous and the first step, drop-off, median time to the next step; optionally ' +
      'split by channel or AI assistant. Pass `funnel_id` for a saved funnel or `steps` for an ad-hoc one; ' +
      'with neither, lists the saved funnels.',
    scope: 'stats:read',
    annotations: READS,
    input: {
      site_id: siteId,
      funnel_id: z.string().max(64).optional().describe('A saved funnel’s id'),
      steps: z.array(step).min(2).max(8).optional().describe('2 to 8 steps, in order (instead of funnel_id)'),
      window_hours: z
        .number()
        .int()
        .min(1)
        .max(2160)
        .optional()
        .describe('With `steps`: hours after step 1 in which later steps count; default 168'),
      from: day.optional().describe('First day step 1 may fall on, inclusive; default 29 days ago'),
      to: day.optional().describe('Last day, inclusive; default today'),
      timezone,
      breakdown: z
        .enum(FUNNEL_BREAKDOWNS)
        .optional()
        .describe('Split every figure by channel or AI assistant'),
      filters,
    },
    run: async (input) => {
      const { site_id, funnel_id, steps, from, to, timezone, breakdown } = input;
      if (funnel_id !== undefined && steps !== undefined)
        return argumentError('Pass funnel_id or steps, not both');
      if ((from === undefined) !== (to === undefined))
        return argumentError('Pass both from and to, or neither');
      if (funnel_id !== undefined) {
        const report = await unwrap(
          client.GET('/v1/funnels/{id}/report', {
            params: {
              path: { id: funnel_id },
              query: {
                site_id,
                from,
                to,
                timezone,
                breakdown,
                filters: filterText(input.filters),
              } satisfies QueryOf<'/v1/funnels/{id}/report', 'get'>,
            },
          }),
        );
        return answer(report, UNITS);
      }
      if (steps !== undefined) {
        const report = await unwrap(
          client.POST('/v1/funnels/query', {
            body: {
              site_id,
              steps,
              window_hours: input.window_hours,
              date_range: from !== undefined && to !== undefined ? [from, to] : '30d',
              timezone,
              breakdown,
              filters: input.filters,
            } satisfies BodyOf<'/v1/funnels/query', 'post'>,
          }),
        );
        return answer(report, UNITS);
      }
      return answer(
        await unwrap(
          client.GET('/v1/funnels', {
            params: { query: { site_id } satisfies QueryOf<'/v1/funnels', 'get'> },
          }),
        ),
      );
    },
  });
}
