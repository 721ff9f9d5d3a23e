/**
 * `POST /v1/stats/query`: aggregates, time series and breakdowns of a site's traffic in one
 * endpoint (DESIGN.md §7). `stats:read`; an API key names the site by snippet key, a dashboard
 * session may use the internal UUID. Errors answer in the sites area's coded shape.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../http/authenticate.js';
import { codedErrorSchema } from '../http/schemas.js';
import { STATS_QUERY_ROUTE, statsErrorSchemas } from '../reporting/report-routes.js';
import { statsAnswerSchema, statsQueryBody } from './stats.schemas.js';
import type { StatsService } from './stats.service.js';

export function registerStatsRoutes(app: FastifyInstance, { stats }: { stats: StatsService }) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/stats/query',
    {
      config: STATS_QUERY_ROUTE,
      schema: {
        operationId: 'queryStats',
        tags: ['stats'],
        summary: 'Visitors, visits, pageviews, bounce rate and duration: totals, time series and breakdowns',
        description:
          'One query for every traffic report, in the shape of Plausible’s Stats API v2; needs `stats:read` (an ' +
          'API key, a dashboard session, or a shared link’s token). Build it from: `metrics` (what to count: ' +
          '`visitors`, `visits`, `conversions`, `revenue_net`, …); a `date_range` (a keyword such as `30d` or two ' +
          'dates, read in `timezone`); optional `dimensions` to group by (a time bucket such as `time:day`, the ' +
          'channel `visit:channel` with AI assistants first-class, the assistant `visit:ai_source`, referrer, entry ' +
          'page, country, device, browser, OS, `event:goal`); and optional `filters` such as ' +
          '`[["is", "visit:channel", ["ai"]]]`. One row comes back per group, its `metrics` in the order asked; ' +
          '`include.comparison` sets each row beside an earlier period. A visit counts on the day it started, ' +
          'with all its pageviews and engaged time. A bad name, filter, zone or range is a 422 naming the field; ' +
          'a site outside the credential’s reach is 404.',
        body: statsQueryBody,
        response: {
          200: statsAnswerSchema,
          ...statsErrorSchemas,
          404: codedErrorSchema.describe('`not_found`: the site is out of the credential’s reach'),
        },
      },
    },
    async (request) => stats.query(principalOf(request), request.body),
  );
}
