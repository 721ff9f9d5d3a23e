/**
 * `GET /v1/goals/:name/visitors` (interface §4.1) and `GET /v1/visitors/{handle}`. Both take the
 * goals routes' options (goals-route-config.ts): the goals error area (§7.1), `stats:read`, and
 * the goals read budget (§8), 120 a minute per credential and 600 per address across goals.
 * `GET /v1/visitors`, the people listing, is a traffic report: it answers like the stats routes.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { goalNameParams, goalsErrorSchema } from '../goals/goals.schemas.js';
import { GOAL_READ } from '../goals/goals-route-config.js';
import { principalOf } from '../http/authenticate.js';
import { codedErrorSchema } from '../http/schemas.js';
import { STATS_READ_ROUTE, statsErrorSchemas } from '../reporting/report-routes.js';
import {
  goalVisitorsQuery,
  goalVisitorsSchema,
  peopleListingQuery,
  peopleListingSchema,
  visitorHandleParams,
  visitorProfileQuery,
  visitorProfileSchema,
} from './visitors.schemas.js';
import type { VisitorsService } from './visitors.service.js';

const errors = {
  401: goalsErrorSchema,
  403: goalsErrorSchema,
  404: goalsErrorSchema,
  422: goalsErrorSchema,
  429: goalsErrorSchema,
};

export function registerVisitorRoutes(app: FastifyInstance, { visitors }: { visitors: VisitorsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/goals/:name/visitors',
    {
      config: GOAL_READ,
      schema: {
        operationId: 'listGoalVisitors',
        tags: ['goals'],
        summary: 'The people behind a goal’s completions in a window, a page at a time',
        description:
          'Needs `stats:read`; path `name` is the goal’s event name, not its id. People, not completions: the visitor ids of one signed-in person are merged before the page ' +
          'is cut, and only people with a visit in the window are listed and counted. Ordered by latest ' +
          'completion, newest first. Figures are whole-window, not limited to the goal. ' +
          '`identity_merge_complete` is false when someone on the page has more than 50 visitor ids; ' +
          'their figures are then lower bounds. A goal nobody completed gives an empty list; a window over 365 ' +
          'days is 422.',
        params: goalNameParams,
        querystring: goalVisitorsQuery,
        response: {
          200: goalVisitorsSchema,
          ...errors,
          404: goalsErrorSchema.describe('`{error: "Not found", statusCode: 404}`: the site is out of reach'),
        },
      },
    },
    async (request) => {
      const { site_id, from, to, page, page_size } = request.query;
      return visitors.listGoalVisitors(principalOf(request), {
        siteId: site_id,
        goalName: request.params.name,
        from,
        to,
        page,
        pageSize: page_size,
      });
    },
  );

  r.get(
    '/v1/visitors',
    {
      config: STATS_READ_ROUTE,
      schema: {
        operationId: 'listVisitors',
        tags: ['stats'],
        summary: 'People with a visit in the window: the visitor rows, filtered and sorted, a page at a time',
        description:
          'Needs `stats:read`. Everyone with a visit in the window (default the last 30 days, at most 365) that matches `filters`, ' +
          'as the rows of the goal visitors list: the visitor ids of one signed-in person are merged before ' +
          'the page is cut, and figures cover the whole window. Sorted largest first by `last_seen`, `visits` ' +
          'or `revenue`; page on with `before` = `next_before`, which is null on the last page. ' +
          '`identity_merge_complete` is false when someone on the page has more than 50 visitor ids; their ' +
          'figures are then lower bounds. A bad parameter is a 422 naming it; a site outside the ' +
          'credential’s reach is 404.',
        querystring: peopleListingQuery,
        response: {
          200: peopleListingSchema,
          ...statsErrorSchemas,
          404: codedErrorSchema.describe('`not_found`: the site is out of the credential’s reach'),
        },
      },
    },
    async (request) => {
      const { site_id, from, to, filters, sort, limit, before } = request.query;
      return visitors.listPeople(principalOf(request), {
        siteId: site_id,
        from,
        to,
        filters,
        sort,
        limit,
        before,
      });
    },
  );

  r.get(
    '/v1/visitors/:handle',
    {
      config: GOAL_READ,
      schema: {
        operationId: 'getVisitor',
        tags: ['goals'],
        summary: 'The person behind a visitor handle: the row fields, their visits and conversions',
        description:
          'Needs `stats:read`; the handle comes from a visitor row, a session or an event. Figures, visits and conversions cover the window (default the last 7 days, as in the list). ' +
          'A handle that was altered, or belongs to a site the caller cannot see, answers 404.',
        params: visitorHandleParams,
        querystring: visitorProfileQuery,
        response: {
          200: visitorProfileSchema,
          ...errors,
          404: goalsErrorSchema.describe(
            '`{error: "Not found", statusCode: 404}`: the handle was altered, or its site is out of reach',
          ),
        },
      },
    },
    async (request) => {
      const { site_id, from, to } = request.query;
      return visitors.getProfile(principalOf(request), request.params.handle, { siteId: site_id, from, to });
    },
  );
}
