/** `GET /v1/crawlers`: the crawler report (see crawler-report.ts). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '../db/types.js';
import { principalOf } from '../http/authenticate.js';
import { codedErrorSchema } from '../http/schemas.js';
import type { Clock } from '../lib/clock.js';
import { daySchema, resolveDayWindow } from '../lib/day-window.js';
import { SITE_REF_PATTERN } from '../lib/ids.js';
import type { SitesService } from '../sites/sites.service.js';
import { buildCrawlerReport, type Convert } from './crawler-report.js';
import { crawlerReportExample } from './crawlers.examples.js';

const reportSchema = z
  .object({
    site_id: z.string(),
    from: z.string(),
    to: z.string(),
    attribution_model: z.string(),
    currency: z.string(),
    crawlers: z.array(
      z.object({
        crawler: z.string(),
        operator: z.string(),
        purpose: z.string().describe('training, search, user (fetching for a person right now) or other'),
        hits: z.number().int().describe('Hits not known to be spoofed'),
        verified_hits: z
          .number()
          .int()
          .describe('The part of `hits` whose address is inside the ranges the operator publishes'),
        spoofed_hits: z
          .number()
          .int()
          .describe(
            'Hits with this crawler’s name from an address outside its operator’s published ranges; not in `hits`, `purposes`, `top_paths` or `operators`',
          ),
        days: z.array(z.object({ date: z.string(), hits: z.number().int() })),
      }),
    ),
    purposes: z.array(z.object({ purpose: z.string(), hits: z.number().int() })),
    top_paths: z.array(
      z.object({
        path: z.string(),
        hits: z.number().int(),
        non_2xx_hits: z
          .number()
          .int()
          .describe(
            'The part of `hits` the site answered with a status outside 200–299 (redirects, 404s, errors)',
          ),
      }),
    ),
    operators: z
      .array(
        z.object({
          operator: z.string(),
          assistants: z.array(z.string()).describe('The visit labels of this operator’s assistants'),
          hits: z.number().int(),
          pages_fetched: z
            .number()
            .int()
            .describe(
              'Distinct paths its crawlers fetched that the site answered 2xx (or whose status was not reported)',
            ),
          non_2xx_hits: z
            .number()
            .int()
            .describe(
              'The part of `hits` the site answered with a status outside 200–299: redirects, 404s, errors',
            ),
          non_2xx_paths: z
            .number()
            .int()
            .describe(
              'Distinct paths answered with a status outside 200–299 at least once; a path answered 2xx too is also in `pages_fetched`',
            ),
          assistant_visits: z.number().int(),
          conversions: z
            .number()
            .describe(
              'Conversions credited to those visits, each counted once, for the source with the largest share of it',
            ),
          payments: z
            .number()
            .describe(
              'Payments (and trials) credited to those visits, whatever their currency, counted as `conversions` are',
            ),
          gross: z.number(),
          refunded: z.number(),
          net: z.number().describe('Gross minus refunds, in `currency`'),
          unconverted_revenue_days: z
            .number()
            .int()
            .describe('Days of revenue left out for want of an exchange rate'),
          unconverted: z
            .array(
              z.object({
                currency: z.string().describe('ISO 4217 code of the money set aside'),
                gross: z.number().describe('Payments in `currency`, major units'),
                refunded: z.number().describe('Refunds in `currency`, major units'),
                net: z.number().describe('`gross` − `refunded`'),
              }),
            )
            .describe(
              'The money of those days, per currency and in that currency: left out of `gross`, `refunded` and ' +
                '`net` (its payments are counted), as GET /v1/revenue’s `unconverted`; empty when all converted',
            ),
        }),
      )
      .describe('Per AI operator: crawled pages → assistant visits → conversions → net revenue'),
    address_checks: z
      .array(
        z.object({
          crawler: z.string(),
          ranges: z.number().int().describe('Address ranges in the operator’s list as last downloaded'),
          fetched_at: z.string().nullable().describe('When the list was downloaded; null if never'),
          in_use: z
            .boolean()
            .describe('Whether hits are checked against it now (downloaded within the last 7 days)'),
        }),
      )
      .describe(
        'The crawlers whose operators publish address ranges, and whether their hits can be verified; other crawlers are never checked',
      ),
  })
  .meta({
    description: 'Crawling per crawler, purpose, path and operator, with what it led to',
    examples: [crawlerReportExample],
  });

export function registerCrawlerReportRoute(
  app: FastifyInstance,
  deps: { db: Kysely<DB>; clock: Clock; sites: Pick<SitesService, 'resolveSite'>; convert: Convert },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/crawlers',
    {
      config: {
        area: 'sites',
        auth: { accepts: ['key', 'session'], scope: 'stats:read' },
        limits: { perCredential: 120 },
      },
      schema: {
        operationId: 'getCrawlerReport',
        tags: ['crawlers'],
        summary: 'AI crawler activity, and the loop from crawling to visits, conversions and revenue',
        description:
          'Hits per crawler, purpose and path, and per AI operator the pages fetched, the visits its assistants ' +
          'sent and the conversions and revenue those earned; needs `stats:read`. `from`/`to` default to the last ' +
          '7 days (UTC), at most 365 days apart; `attribution_model` defaults to last_touch. A site outside the ' +
          'credential’s reach is 404; a site scheduled for deletion still reports.',
        querystring: z.strictObject({
          site_id: z
            .string()
            .regex(
              SITE_REF_PATTERN,
              'must be a ttid_ snippet key (a dashboard session may also pass the site UUID)',
            )
            .meta({
              examples: [crawlerReportExample.site_id],
              description: 'The site’s snippet key; a dashboard session may also pass the internal site UUID',
            }),
          from: daySchema.optional().describe('First day (UTC), inclusive; default six days before `to`'),
          to: daySchema.optional().describe('Last day (UTC), inclusive; default today'),
          attribution_model: z
            .enum(['first_touch', 'last_touch', 'linear', 'time_decay'])
            .default('last_touch')
            .describe('How conversions and revenue are credited to the assistants’ visits'),
        }),
        response: {
          200: reportSchema,
          401: codedErrorSchema,
          403: codedErrorSchema,
          404: codedErrorSchema.describe('`not_found`: the site is out of the credential’s reach'),
          422: codedErrorSchema,
        },
      },
    },
    async (request) => {
      const query = request.query;
      const { from, to } = resolveDayWindow(query, deps.clock.now(), { defaultDays: 7, maxDays: 365 });
      // A read of existing data: it keeps working while the site's deletion is scheduled (§3.1).
      const site = await deps.sites.resolveSite(principalOf(request), query.site_id, {
        includeScheduled: true,
      });
      return buildCrawlerReport(
        deps.db,
        {
          siteId: site.id,
          snippetKey: site.snippet_key,
          currency: site.currency,
          from,
          to,
          model: query.attribution_model,
          now: deps.clock.now(),
        },
        deps.convert,
      );
    },
  );
}
