/** `GET /v1/goals/timeseries` and `GET /v1/goals/:name/properties` (interface §2.3, §2.4, §4.1). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../http/authenticate.js';
import {
  goalNameParams,
  goalsErrorSchema,
  propertiesSchema,
  reportQuery,
  timeseriesQuery,
  timeseriesSchema,
} from './goals.schemas.js';
import type { GoalsService } from './goals.service.js';
import { GOAL_ERRORS, GOAL_READ } from './goals-route-config.js';

const WINDOW_RULES =
  '`from` and `to` are inclusive UTC days (YYYY-MM-DD); `to` defaults to today and `from` to six ' +
  'days before `to`. A malformed day, `from` after `to` or a window over 365 days is 422.';

const SITE_NOT_FOUND = goalsErrorSchema.describe(
  '`{error: "Not found", statusCode: 404}`: the site is out of the credential’s reach',
);

export function registerGoalReportRoutes(app: FastifyInstance, { goals }: { goals: GoalsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/goals/timeseries',
    {
      config: GOAL_READ,
      schema: {
        operationId: 'getGoalTimeseries',
        tags: ['goals'],
        summary: 'Completions per day of every goal that fired in the window',
        description:
          'Needs `stats:read`. Days with no completions are absent, not zero; `total` sums the window. ' +
          `\`include\` adds each goal's conversion rate and summed value. ${WINDOW_RULES}`,
        querystring: timeseriesQuery,
        response: { 200: timeseriesSchema, ...GOAL_ERRORS, 404: SITE_NOT_FOUND },
      },
    },
    async (request) => goals.timeseries(principalOf(request), request.query),
  );

  r.get(
    '/v1/goals/:name/properties',
    {
      config: GOAL_READ,
      schema: {
        operationId: 'getGoalProperties',
        tags: ['goals'],
        summary: 'Most common property values of a goal’s events',
        description:
          'Needs `stats:read`. At most 10 values per key, most common first; `count` counts distinct events. One pass ' +
          'reads at most 200 key/value pairs ordered by key name then count, shared across keys: a ' +
          'key with 200 or more values uses the whole budget, and the alphabetically earliest keys ' +
          `survive when it runs out. Keys and values are returned as stored. ${WINDOW_RULES}`,
        params: goalNameParams,
        querystring: reportQuery,
        response: { 200: propertiesSchema, ...GOAL_ERRORS, 404: SITE_NOT_FOUND },
      },
    },
    async (request) => goals.properties(principalOf(request), request.params.name, request.query),
  );
}
