/**
 * `/v1/goals` (interface §4.1): the registry here, the reports in goal-reports.routes.ts. Errors
 * answer in the goals shape (§7.1). Per credential 120 reads and 60 writes a minute; per client
 * address 600 a minute across every goals endpoint (§8).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../http/authenticate.js';
import { registerGoalReportRoutes } from './goal-reports.routes.js';
import {
  createdGoalAnswer,
  createGoalBody,
  goalIdParams,
  goalListAnswer,
  goalListSchema,
  goalsErrorSchema,
  listGoalsQuery,
  reorderGoalsBody,
  siteBody,
  siteQuery,
  unarchivedGoalAnswer,
  updatedGoalAnswer,
  updateGoalBody,
} from './goals.schemas.js';
import type { GoalsService } from './goals.service.js';
import { GOAL_ERRORS, GOAL_READ, GOAL_WRITE } from './goals-route-config.js';

const GOAL_NOT_FOUND = goalsErrorSchema.describe(
  '`{error: "Not found", statusCode: 404}`: the site is out of the credential’s reach, or the goal id is not on it',
);

export function registerGoalRoutes(app: FastifyInstance, { goals }: { goals: GoalsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/goals',
    {
      config: GOAL_READ,
      schema: {
        operationId: 'listGoals',
        tags: ['goals'],
        summary: 'List goals by sort_order, then name',
        description:
          'The goal registry of a site, by `sort_order` then `name`; needs `stats:read`. Archived goals are ' +
          'omitted unless `include_archived` is "true" (accepted values: "true", "false"; anything else is ' +
          '422); then they are listed too, with their `archived_at`. A site out of reach is 404.',
        querystring: listGoalsQuery,
        response: {
          200: goalListAnswer,
          ...GOAL_ERRORS,
          404: goalsErrorSchema.describe('`{error: "Not found", statusCode: 404}`: the site is out of reach'),
        },
      },
    },
    async (request) => {
      const { site_id, include_archived } = request.query;
      const includeArchived = include_archived === 'true';
      return { goals: await goals.list(principalOf(request), site_id, { includeArchived }) };
    },
  );

  r.post(
    '/v1/goals',
    {
      config: GOAL_WRITE,
      schema: {
        operationId: 'createGoal',
        tags: ['goals'],
        summary: 'Declare a goal before its first event',
        description:
          'Registers a goal by its event name, before any event carries it (events with a new name also ' +
          'register one); needs `config:write`. A bad field is 400 naming it; 409 `goal_exists` when the name ' +
          'is on the site already, archived or not; 409 `goal_limit_reached` when the site holds 200 active goals.',
        body: createGoalBody,
        response: {
          201: createdGoalAnswer,
          ...GOAL_ERRORS,
          404: goalsErrorSchema.describe('`{error: "Not found", statusCode: 404}`: the site is out of reach'),
          409: goalsErrorSchema.describe(
            '`{error: "conflict", code, message}`: `goal_exists` (the name is taken, archived or not) or ' +
              '`goal_limit_reached` (200 active goals)',
          ),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ goal: await goals.create(principalOf(request), request.body) }),
  );

  // Registered before `/v1/goals/:id`; the router prefers the static segment either way.
  r.patch(
    '/v1/goals/reorder',
    {
      config: GOAL_WRITE,
      schema: {
        // Callable with a key, but absent from the published document (interface §4.1).
        hide: true,
        body: reorderGoalsBody,
        response: { 200: goalListSchema, ...GOAL_ERRORS },
      },
    },
    async (request) => ({ goals: await goals.reorder(principalOf(request), request.body) }),
  );

  r.patch(
    '/v1/goals/:id',
    {
      config: GOAL_WRITE,
      schema: {
        operationId: 'updateGoal',
        tags: ['goals'],
        summary: 'Update display_name, emoji or sort_order; omitted fields stay, null clears',
        description:
          'Changes how a goal is shown; its `name` never changes. Needs `config:write`; `site_id` goes in the ' +
          'body. A bad field is 400 naming it; an id of another site is 404.',
        params: goalIdParams,
        body: updateGoalBody,
        response: { 200: updatedGoalAnswer, ...GOAL_ERRORS, 404: GOAL_NOT_FOUND },
      },
    },
    async (request) => ({ goal: await goals.update(principalOf(request), request.params.id, request.body) }),
  );

  r.delete(
    '/v1/goals/:id',
    {
      config: GOAL_WRITE,
      schema: {
        operationId: 'archiveGoal',
        tags: ['goals'],
        summary: 'Archive a goal (never deletes; events with its name keep being recorded)',
        description:
          'Takes the goal out of the lists; events with its name keep being recorded and it can be unarchived. ' +
          'Needs `config:write`; `site_id` goes in the query string here. An id not on the site is 404.',
        params: goalIdParams,
        querystring: siteQuery,
        response: {
          204: z.null().describe('Archived; no body'),
          ...GOAL_ERRORS,
          404: GOAL_NOT_FOUND,
        },
      },
    },
    async (request, reply) => {
      await goals.archive(principalOf(request), request.params.id, request.query.site_id);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/v1/goals/:id/unarchive',
    {
      config: GOAL_WRITE,
      schema: {
        operationId: 'unarchiveGoal',
        tags: ['goals'],
        summary: 'Make an archived goal active again; `site_id` goes in the body',
        description:
          'Puts an archived goal back in the lists; needs `config:write`. Unarchiving an active goal changes ' +
          'nothing. An id not on the site is 404; 409 `goal_limit_reached` when the site already holds 200 ' +
          'active goals.',
        params: goalIdParams,
        body: siteBody,
        response: {
          200: unarchivedGoalAnswer,
          ...GOAL_ERRORS,
          404: GOAL_NOT_FOUND,
          409: goalsErrorSchema.describe(
            '`{error: "conflict", code: "goal_limit_reached", message}`: the site already holds 200 active goals',
          ),
        },
      },
    },
    async (request) => ({
      goal: await goals.unarchive(principalOf(request), request.params.id, request.body.site_id),
    }),
  );

  registerGoalReportRoutes(app, { goals });
}
