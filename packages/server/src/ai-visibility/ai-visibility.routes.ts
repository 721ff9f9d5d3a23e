/**
 * `GET /v1/ai-visibility`: per page, AI crawling, assistant visits and what they earned.
 * `stats:read`; an API key names the site by snippet key, a dashboard session may use the
 * internal UUID. Errors answer in the sites area's coded shape.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../http/authenticate.js';
import { codedErrorSchema } from '../http/schemas.js';
import { STATS_READ_ROUTE, statsErrorSchemas } from '../reporting/report-routes.js';
import { aiVisibilityAnswerSchema, aiVisibilityQuery } from './ai-visibility.schemas.js';
import type { AiVisibilityService } from './ai-visibility.service.js';

export function registerAiVisibilityRoutes(
  app: FastifyInstance,
  { aiVisibility }: { aiVisibility: AiVisibilityService },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/ai-visibility',
    {
      config: STATS_READ_ROUTE,
      schema: {
        operationId: 'getAiVisibility',
        tags: ['stats'],
        summary:
          'Per page: AI crawler hits, visits from assistants, and the conversions and revenue they earned',
        description:
          'Needs `stats:read`. One row per page path (no query string) that AI crawlers fetched, assistants sent visits to, or ' +
          'that earned credit, ordered by AI visits plus crawler hits, most first, then by path. ' +
          '**Crawler hits** are those of crawlers with a known operator, spoofed ones left out, counted on ' +
          'their UTC day (the days the crawler totals are kept by), whatever `timezone` says. **AI visits** are ' +
          'visits from an assistant started in the range, by their entry page. **Conversions and revenue:** ' +
          'attribution stores each conversion’s credit per source; an assistant’s share is split over that ' +
          'assistant’s visits among the conversion’s touchpoints (the person’s visits of the 30 days before it) ' +
          'by the same model — first_touch and last_touch give it all to the first or last of them, linear ' +
          'evenly, time_decay by 2^(−age/7 days) — and each part goes to the entry page of its visit, so a ' +
          'conversion under last_touch goes wholly to the page the last AI visit entered on, if that visit was ' +
          'the last touch. Conversions count in the range by when they happened; revenue is that of payments ' +
          'paid in the range less refunds posted in it, as in the revenue report, in minor units of the site ' +
          'currency. Money without an exchange rate is never guessed: it is in `meta.unconverted`. A bad ' +
          'parameter is a 422 naming it; a site outside the credential’s reach is 404.',
        querystring: aiVisibilityQuery,
        response: {
          200: aiVisibilityAnswerSchema,
          ...statsErrorSchemas,
          404: codedErrorSchema.describe('`not_found`: the site is out of the credential’s reach'),
        },
      },
    },
    async (request) => aiVisibility.report(principalOf(request), request.query),
  );
}
