/**
 * `GET /v1/events` (a site's events, newest first, a page at a time) and `GET /v1/events/names`
 * (event names with counts). `stats:read`; an API key names the site by snippet key, a
 * dashboard session may use the internal UUID. Errors answer in the sites area's coded shape.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../http/authenticate.js';
import { codedErrorSchema } from '../http/schemas.js';
import { STATS_READ_ROUTE, statsErrorSchemas } from '../reporting/report-routes.js';
import { eventNamesAnswer, eventNamesQuery, eventsAnswer, eventsQuery } from './events.schemas.js';
import type { EventsService } from './events.service.js';

const SITE_NOT_FOUND = codedErrorSchema.describe('`not_found`: the site is out of the credential’s reach');

export function registerEventsRoutes(app: FastifyInstance, { events }: { events: EventsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/events',
    {
      config: STATS_READ_ROUTE,
      schema: {
        operationId: 'listEvents',
        tags: ['stats'],
        summary: 'A site’s events, newest first: pageviews, custom, server and payment events',
        description:
          'Needs `stats:read`. Every pageview, custom event (tracker), server event (/v1/server/events) and payment (as its ' +
          'conversion event) in a window of days in `timezone`, newest first, with the session it belongs to, ' +
          'the person’s `vh_` handle, the page path, properties and value, and where its session came from. ' +
          'Filter by name, kind, session, person, source or any stats filter on the session; page with ' +
          '`before` = `next_before`. Engagement and identify signals are not events and are never listed. ' +
          'A bad parameter is a 422 naming it; a site outside the credential’s reach is 404.',
        querystring: eventsQuery,
        response: { 200: eventsAnswer, ...statsErrorSchemas, 404: SITE_NOT_FOUND },
      },
    },
    async (request) => events.list(principalOf(request), request.query),
  );

  r.get(
    '/v1/events/names',
    {
      config: STATS_READ_ROUTE,
      schema: {
        operationId: 'listEventNames',
        tags: ['stats'],
        summary: 'Event names in a window, with events and senders each',
        description:
          'Needs `stats:read`. The names of custom, server and payment events (pageviews have none) in a window of days in ' +
          '`timezone`, most events first, at most 1000. A name sent by the tracker and by a server is listed ' +
          'once per kind. A bad parameter is a 422 naming it; a site outside the credential’s reach is 404.',
        querystring: eventNamesQuery,
        response: { 200: eventNamesAnswer, ...statsErrorSchemas, 404: SITE_NOT_FOUND },
      },
    },
    async (request) => events.names(principalOf(request), request.query),
  );
}
