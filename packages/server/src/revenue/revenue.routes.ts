/**
 * `GET /v1/revenue`: the revenue report. `stats:read`; an API key names the site by snippet key,
 * a dashboard session may use the internal UUID. Errors answer in the sites area's coded shape.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../http/authenticate.js';
import type { RouteLimits } from '../http/rate-limit.js';
import { revenueErrorSchemas, revenueQuery, revenueReportSchema } from './revenue.schemas.js';
import { REVENUE_MAX_DAYS, type RevenueService } from './revenue.service.js';

const READS: RouteLimits = { perCredential: 120, credentialGroup: 'revenue:read' };

export function registerRevenueRoutes(app: FastifyInstance, { revenue }: { revenue: RevenueService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/revenue',
    {
      config: { area: 'sites', auth: { accepts: ['key', 'session'], scope: 'stats:read' }, limits: READS },
      schema: {
        operationId: 'getRevenue',
        tags: ['revenue'],
        summary: 'Attributed revenue per day and per credited source, net of refunds',
        description:
          'Needs `stats:read`. Sums the credits the attribution worker stored for each payment under `attribution_model` ' +
          '(payments appear once attributed, usually within seconds). `gross` is what was paid, `refunded` ' +
          'what was refunded on that day (subtracted from the source the payment was credited to), `net` the ' +
          'difference: attributed revenue is net of refunds, conversion counts are gross. Payments no visit ' +
          'could be matched with are under source "". ' +
          `At most ${REVENUE_MAX_DAYS} days per request. A site outside the credential's reach is 404.`,
        querystring: revenueQuery,
        response: { 200: revenueReportSchema, ...revenueErrorSchemas },
      },
    },
    async (request) => revenue.report(principalOf(request), request.query),
  );
}
