/**
 * `GET /v1/stats/realtime`: the live view of a site. `stats:read`; an API key names the site by
 * snippet key, a dashboard session may use the internal UUID. Its own budget per credential,
 * generous enough for a dashboard polling every few seconds in several tabs.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../http/authenticate.js';
import { codedErrorSchema } from '../http/schemas.js';
import { REALTIME_ROUTE, statsErrorSchemas } from '../reporting/report-routes.js';
import { realtimeAnswerSchema, realtimeQuery } from './realtime.schemas.js';
import type { RealtimeService } from './realtime.service.js';

export function registerRealtimeRoutes(app: FastifyInstance, { realtime }: { realtime: RealtimeService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/stats/realtime',
    {
      config: REALTIME_ROUTE,
      schema: {
        operationId: 'getRealtime',
        tags: ['stats'],
        summary:
          'Visitors on the site now, their pages and sources, and the last 30 minutes minute by minute',
        description:
          'Needs `stats:read` (an API key, a dashboard session, or a shared link’s token). A visitor is current with a pageview, or a custom event sent from their browser, in the last 5 ' +
          'minutes (exactly 5:00 ago still counts). `per_minute` always holds 30 clock minutes in UTC, zeros ' +
          'included, the last one being the minute now falls in. Exact and uncached: poll it (600 requests a ' +
          'minute per credential). A site outside the credential’s reach is 404.',
        querystring: realtimeQuery,
        response: {
          200: realtimeAnswerSchema,
          ...statsErrorSchemas,
          404: codedErrorSchema.describe('`not_found`: the site is out of the credential’s reach'),
        },
      },
    },
    async (request) => realtime.realtime(principalOf(request), request.query),
  );
}
