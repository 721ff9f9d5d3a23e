/**
 * `GET /v1/conversions` (interface §4.5): dashboard session only — an API key gets 401 whatever
 * its scopes. Errors answer in the conversions shape of §7.5 (http/error-bodies.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../http/authenticate.js';
import type { RouteLimits } from '../http/rate-limit.js';
import { conversionErrorSchemas, conversionsPageSchema, conversionsQuery } from './conversions.schemas.js';
import type { ConversionsService } from './conversions.service.js';

const READS: RouteLimits = { perCredential: 120, credentialGroup: 'conversions:read' };

export function registerConversionRoutes(
  app: FastifyInstance,
  { conversions }: { conversions: ConversionsService },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/conversions',
    {
      config: { area: 'conversions', auth: { accepts: ['session'] }, limits: READS },
      schema: {
        operationId: 'listConversions',
        tags: ['conversions'],
        summary: 'One page of a site’s conversions, newest first (dashboard session only)',
        description:
          'For the dashboard: only a session cookie is accepted, and an API key gets 401 whatever its scopes; ' +
          '`site_id` is the internal site UUID. Goal events and payments of the site in the window, one row per conversion under every model. ' +
          'The credited source comes from the attribution worker, which runs shortly after a conversion ' +
          'is recorded; until then `ai_source` is null. Counts come from the daily totals.',
        querystring: conversionsQuery,
        response: { 200: conversionsPageSchema, ...conversionErrorSchemas },
      },
    },
    async (request) => conversions.list(principalOf(request), request.query),
  );
}
