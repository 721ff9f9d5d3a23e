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
  createGoalBody,
  goalIdParams,
  goalListSchema,
  goalSchema,
  listGoalsQuery,
  reorderGoalsBody,
  siteBody,
  siteQuery,
  updateGoalBody,
} from './goals.schemas.js';
import type { GoalsService } from './goals.service.js';
import { GOAL_ERRORS, GOAL_READ, GOAL_WRITE } from './goals-route-config.js';

export function registerGoalRoutes(app: FastifyInstance, { goals }: { goals: GoalsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/goals',
    {
      config: GOAL_READ,
      schema: {
        tags: ['goals'],
        summary: 'List goals by sort_order, then name',
        description:
          'Archived goals are omitted unless `include_archived` is "true" (accepted values: "true", ' +
          '"false"; anything else is 422); then they are listed too, with their `archived_at`.',
        querystring: listGoalsQuery,
        response: { 200: goalListSchema, ...GOAL_ERRORS },
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
        tags: ['goals'],
        summary: 'Declare a goal before its first event',
        description:
          '409 `goal_exists` when the name is on the site already, archived or not; 409 ' +
          '`goal_limit_reached` when the site holds 200 active goals.',
        body: createGoalBody,
        response: { 201: z.object({ goal: goalSchema }), ...GOAL_ERRORS },
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
        tags: ['goals'],
        summary: 'Update display_name, emoji or sort_order; omitted fields stay, null clears',
        params: goalIdParams,
        body: updateGoalBody,
        response: { 200: z.object({ goal: goalSchema }), ...GOAL_ERRORS },
      },
    },
    async (request) => ({ goal: await goals.update(principalOf(request), request.params.id, request.body) }),
  );

  r.delete(
    '/v1/goals/:id',
    {
      config: GOAL_WRITE,
      schema: {
        tags: ['goals'],
        summary: 'Archive a goal (never deletes; events with its name keep being recorded)',
        params: goalIdParams,
        querystring: siteQuery,
        response: { 204: z.null(), ...GOAL_ERRORS },
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
        tags: ['goals'],
        summary: 'Make an archived goal active again; `site_id` goes in the body',
        description: '409 `goal_limit_reached` when the site already holds 200 active goals.',
        params: goalIdParams,
        body: siteBody,
        response: { 200: z.object({ goal: goalSchema }), ...GOAL_ERRORS },
      },
    },
    async (request) => ({
      goal: await goals.unarchive(principalOf(request), request.params.id, request.body.site_id),
    }),
  );

  registerGoalReportRoutes(app, { goals });
}
