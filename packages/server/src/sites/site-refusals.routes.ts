/**
 * `GET /v1/sites/:siteId/refusals`: what the ingest refused for a site in the last hour, so the
 * install card can say why a site that is sent hits still waits for its first event.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../http/authenticate.js';
import { codedErrorSchema } from '../http/schemas.js';
import { siteParams } from './sites.schemas.js';
import type { SitesService } from './sites.service.js';

const EXAMPLE = { since: '2026-03-02T09:00:00.000Z', refusals: [{ reason: 'bot', hits: 3 }] };

const refusalsSchema = z
  .object({
    since: z.string().describe('Start of the window (an hour ago)'),
    refusals: z.array(
      z.object({
        reason: z
          .enum(['bot'])
          .describe("`bot`: the user agent is missing or a known bot's (a headless browser, curl)"),
        hits: z.number().int(),
      }),
    ),
  })
  .meta({ description: 'Refused hits by reason; an empty list when none', examples: [EXAMPLE] });

export function registerSiteRefusalRoutes(app: FastifyInstance, { sites }: { sites: SitesService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/sites/:siteId/refusals',
    {
      config: {
        area: 'sites',
        auth: { accepts: ['key', 'session'], scope: 'stats:read' },
        limits: { perCredential: 120, credentialGroup: 'sites:read' },
      },
      schema: {
        tags: ['sites'],
        operationId: 'getSiteRefusals',
        summary: 'Hits the ingest refused for a site in the last hour, by reason',
        description:
          'Counts of the last hour (to five minutes) of hits acknowledged with `{"accepted": false}` and not ' +
          'stored: `bot` for a missing or known bot user agent, headless browsers and curl included. Needs ' +
          '`stats:read`. 404 for a site the credential does not cover or one scheduled for deletion.',
        params: siteParams,
        response: {
          200: refusalsSchema,
          404: codedErrorSchema.describe(
            'No such site, a site the key does not cover, or one scheduled for deletion',
          ),
        },
      },
    },
    async (request) => sites.recentRefusals(principalOf(request), request.params.siteId),
  );
}
