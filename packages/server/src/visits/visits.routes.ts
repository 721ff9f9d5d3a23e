/**
 * `GET /v1/sessions` and `GET /v1/sessions/{id}`: a site's sessions (visits) and one session's
 * trail (DESIGN.md §7). `stats:read`; an API key names the site by snippet key, a dashboard
 * session may use the internal UUID. Errors answer in the sites area's coded shape.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../http/authenticate.js';
import { codedErrorSchema } from '../http/schemas.js';
import { STATS_READ_ROUTE, statsErrorSchemas } from '../reporting/report-routes.js';
import {
  sessionDetailSchema,
  sessionParams,
  sessionQuery,
  sessionsPageSchema,
  sessionsQuery,
} from './visits.schemas.js';
import type { VisitsService } from './visits.service.js';

export function registerVisitsRoutes(app: FastifyInstance, { visits }: { visits: VisitsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/sessions',
    {
      config: STATS_READ_ROUTE,
      schema: {
        operationId: 'listSessions',
        tags: ['stats'],
        summary: 'Sessions (visits), newest first, filtered as the stats query filters',
        description:
          'Needs `stats:read`. A session is a visit: it ends after 30 minutes without activity or when the visitor comes back from ' +
          'another source. Sessions belong to the window by the day they started on in `timezone`, as the stats ' +
          'query counts visits. Page with `before` = `next_before`; sessions that started at the same moment are ' +
          'neither repeated nor skipped. A bad parameter, filter, zone, window (over 365 days) or cursor is a 422 ' +
          'naming it; a site outside the credential’s reach is 404.',
        querystring: sessionsQuery,
        response: {
          200: sessionsPageSchema,
          ...statsErrorSchemas,
          404: codedErrorSchema.describe('`not_found`: the site is out of the credential’s reach'),
        },
      },
    },
    async (request) => visits.list(principalOf(request), request.query),
  );

  r.get(
    '/v1/sessions/:id',
    {
      config: STATS_READ_ROUTE,
      schema: {
        operationId: 'getSession',
        tags: ['stats'],
        summary: 'One session with its entry source and its trail of pageviews and events',
        description:
          'Needs `stats:read`. The session row, where it came from (`entry`), and every pageview and conversion in time order with ' +
          'the time spent on each page. A visitor row’s `latest_session_id` opens here. An unknown id, or a ' +
          'session of another site, is 404; an id that is not a UUID is a 422.',
        params: sessionParams,
        querystring: sessionQuery,
        response: {
          200: sessionDetailSchema,
          ...statsErrorSchemas,
          404: codedErrorSchema.describe(
            '`not_found`: no such session on the site, or the site is out of the credential’s reach',
          ),
        },
      },
    },
    async (request) => visits.get(principalOf(request), request.params.id, request.query.site_id),
  );
}
