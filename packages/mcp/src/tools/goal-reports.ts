/** Goal reports: `goal_timeseries`, `goal_properties`, `goal_visitors`. */
import { unwrap } from '@touchtrail/client';
import { z } from 'zod';
import { answer, minorUnits, READS, type ToolSet } from '../tool-kit.js';
import { day, type QueryOf, siteId } from './inputs.js';

const goalName = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/)
  .max(64)
  .describe('The goal’s event name (e.g. signup), as list_goals shows it');
const from = day.optional().describe('First day (UTC), inclusive; default six days before `to`');
const to = day.optional().describe('Last day (UTC), inclusive; default today. At most 365 days after `from`');

export function addGoalReportTools(tools: ToolSet): void {
  const { client } = tools;

  tools.add('goal_timeseries', {
    title: 'Goal completions per day',
    description:
      'Completions per UTC day of every goal that fired in the window (days without any are left out) and ' +
      'each goal’s total; optionally its conversion rate and summed value. Counts completions, not people ' +
      '(goal_visitors counts people).',
    scope: 'stats:read',
    annotations: READS,
    input: {
      site_id: siteId,
      from,
      to,
      with_conversion_rate: z
        .boolean()
        .optional()
        .describe('Add each goal’s conversion rate: percent of people with a visit who completed it'),
      with_value: z.boolean().optional().describe('Add the summed `value` sent with each goal’s completions'),
    },
    run: async ({ site_id, from, to, with_conversion_rate, with_value }) => {
      const extras = [...(with_conversion_rate ? ['conversion_rate'] : []), ...(with_value ? ['value'] : [])];
      const series = await unwrap(
        client.GET('/v1/goals/timeseries', {
          params: {
            query: {
              site_id,
              from,
              to,
              include: extras.length > 0 ? extras.join(',') : undefined,
            } satisfies QueryOf<'/v1/goals/timeseries', 'get'>,
          },
        }),
      );
      return answer(series, {
        completions: 'count of goal events',
        ...(with_conversion_rate ? { conversion_rate: 'percent, one decimal' } : {}),
        ...(series.currency ? { value: minorUnits(series.currency) } : {}),
        dates: 'UTC days, YYYY-MM-DD',
      });
    },
  });

  tools.add('goal_properties', {
    title: 'Goal property breakdown',
    description:
      'For one goal, the properties its events were sent with and their 10 most common values, with how many ' +
      'events carried each (e.g. which plan people signed up for).',
    scope: 'stats:read',
    annotations: READS,
    input: { site_id: siteId, goal_name: goalName, from, to },
    run: async ({ site_id, goal_name, from, to }) => {
      const breakdown = await unwrap(
        client.GET('/v1/goals/{name}/properties', {
          params: {
            path: { name: goal_name },
            query: { site_id, from, to } satisfies QueryOf<'/v1/goals/{name}/properties', 'get'>,
          },
        }),
      );
      return answer(breakdown, { count: 'distinct events' });
    },
  });

  tools.add('goal_visitors', {
    title: 'People who completed a goal',
    description:
      'The people (identities merged) who completed a goal in the window, latest completion first, a page at a ' +
      'time: generated label, first entry source (AI assistant or channel), device, country, visits, pageviews, ' +
      'engaged time and revenue over the window. Counts people, not completions. Pass `latest_session_id` to ' +
      'get_session for one person’s trail.',
    scope: 'stats:read',
    annotations: READS,
    input: {
      site_id: siteId,
      goal_name: goalName,
      from,
      to,
      page: z.number().int().min(1).optional().describe('1-based page; default 1'),
      page_size: z
        .number()
        .int()
        .min(1)
        .max(100)
        .optional()
        .describe('People per page, 1 to 100; default 50'),
    },
    run: async ({ site_id, goal_name, from, to, page, page_size }) => {
      const people = await unwrap(
        client.GET('/v1/goals/{name}/visitors', {
          params: {
            path: { name: goal_name },
            query: { site_id, from, to, page, page_size } satisfies QueryOf<
              '/v1/goals/{name}/visitors',
              'get'
            >,
          },
        }),
      );
      const currency = people.visitors[0]?.revenue.currency;
      return answer(people, {
        active_time_sec: 'seconds of engaged time (page visible and focused)',
        ...(currency ? { 'revenue.total_cents': minorUnits(currency) } : {}),
        total_count: 'people, not completions',
      });
    },
  });
}
