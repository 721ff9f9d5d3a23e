/**
 * `/v1/funnels` (DESIGN.md §7): saved funnels (`config:write` to change, `stats:read` to read),
 * their reports, and the report of an unsaved funnel. An API key names the site by snippet key,
 * a dashboard session may use the internal UUID. Errors answer in the sites area's coded shape.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../http/authenticate.js';
import type { RouteLimits } from '../http/rate-limit.js';
import { codedErrorSchema } from '../http/schemas.js';
import { STATS_READ_ROUTE, statsErrorSchemas } from '../reporting/report-routes.js';
import { funnelAnswerExample, funnelListExample, updatedFunnelAnswerExample } from './funnels.examples.js';
import {
  createFunnelBody,
  funnelIdParams,
  funnelQueryBody,
  funnelReportSchema,
  funnelSchema,
  reportQuery,
  siteQuery,
  updateFunnelBody,
} from './funnels.schemas.js';
import type { FunnelsService } from './funnels.service.js';

const WRITES: RouteLimits = { perCredential: 60, credentialGroup: 'funnels:write' };

const READ = STATS_READ_ROUTE;
const WRITE = {
  area: 'sites',
  auth: { accepts: ['key', 'session'], scope: 'config:write' },
  limits: WRITES,
} as const;

const REPORT_DESCRIPTION =
  'People (identities merged) who reached each step in order: a person enters at their earliest step 1 inside ' +
  'the date range (in a visit that passes `filters`), and each later step counts at its first occurrence after ' +
  'the step before, up to `window_hours` after step 1, even past the range end. Rates are percentages with one ' +
  'decimal; `drop_off` is the people lost since the step before. A site or funnel outside the credential’s reach ' +
  'is 404; a bad filter, zone or date is a 422 naming the field.';

const SITE_NOT_FOUND = codedErrorSchema.describe('`not_found`: the site is out of the credential’s reach');
const FUNNEL_NOT_FOUND = codedErrorSchema.describe(
  '`not_found`: no such funnel on the site, or the site is out of the credential’s reach',
);

export function registerFunnelsRoutes(app: FastifyInstance, { funnels }: { funnels: FunnelsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const funnelAnswer = z.object({ funnel: funnelSchema });
  const funnelList = z
    .object({ funnels: z.array(funnelSchema) })
    .meta({ description: 'The saved funnels, oldest first', examples: [funnelListExample] });

  r.get(
    '/v1/funnels',
    {
      config: READ,
      schema: {
        operationId: 'listFunnels',
        tags: ['funnels'],
        summary: 'List a site’s saved funnels, oldest first',
        description:
          'Every saved funnel of the site with its steps and conversion window; needs `stats:read`. A site ' +
          'outside the credential’s reach is 404.',
        querystring: siteQuery,
        response: { 200: funnelList, ...statsErrorSchemas, 404: SITE_NOT_FOUND },
      },
    },
    async (request) => ({ funnels: await funnels.list(principalOf(request), request.query.site_id) }),
  );

  r.post(
    '/v1/funnels',
    {
      config: WRITE,
      schema: {
        operationId: 'createFunnel',
        tags: ['funnels'],
        summary: 'Save a funnel: 2 to 8 steps and a conversion window',
        description:
          'A step is a page (`{type: "page", match: "is"|"contains"|"matches", value}`, matched against the path ' +
          'without query string) or an event (`{type: "event", name, property?: {key, value}}`). At most 100 ' +
          'funnels per site (422 on `site_id` beyond). Needs `config:write`; a site outside the credential’s reach is 404.',
        body: createFunnelBody,
        response: {
          201: funnelAnswer.meta({ description: 'The saved funnel', examples: [funnelAnswerExample] }),
          ...statsErrorSchemas,
          404: SITE_NOT_FOUND,
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ funnel: await funnels.create(principalOf(request), request.body) }),
  );

  // Registered before `/v1/funnels/:id` routes; no other POST shares the path.
  r.post(
    '/v1/funnels/query',
    {
      config: READ,
      schema: {
        operationId: 'queryFunnel',
        tags: ['funnels'],
        summary: 'Report on a funnel without saving it',
        description: `Needs \`stats:read\`; the body holds the steps as a saved funnel would. ${REPORT_DESCRIPTION}`,
        body: funnelQueryBody,
        response: { 200: funnelReportSchema, ...statsErrorSchemas, 404: SITE_NOT_FOUND },
      },
    },
    async (request) => funnels.query(principalOf(request), request.body),
  );

  r.get(
    '/v1/funnels/:id',
    {
      config: READ,
      schema: {
        operationId: 'getFunnel',
        tags: ['funnels'],
        summary: 'One saved funnel',
        description:
          'The funnel’s name, steps and conversion window; needs `stats:read`. An unknown id, or a funnel of ' +
          'another site, is 404.',
        params: funnelIdParams,
        querystring: siteQuery,
        response: {
          200: funnelAnswer.meta({ description: 'The funnel', examples: [funnelAnswerExample] }),
          ...statsErrorSchemas,
          404: FUNNEL_NOT_FOUND,
        },
      },
    },
    async (request) => ({
      funnel: await funnels.get(principalOf(request), request.params.id, request.query.site_id),
    }),
  );

  r.patch(
    '/v1/funnels/:id',
    {
      config: WRITE,
      schema: {
        operationId: 'updateFunnel',
        tags: ['funnels'],
        summary: 'Rename a funnel or change its steps or window; omitted fields stay',
        description:
          'Needs `config:write`; `site_id` goes in the body. New steps follow the rules of creation; the ' +
          'report reads the traffic anew, so nothing is lost. An unknown id is 404.',
        params: funnelIdParams,
        body: updateFunnelBody,
        response: {
          200: funnelAnswer.meta({
            description: 'The funnel as updated',
            examples: [updatedFunnelAnswerExample],
          }),
          ...statsErrorSchemas,
          404: FUNNEL_NOT_FOUND,
        },
      },
    },
    async (request) => ({
      funnel: await funnels.update(principalOf(request), request.params.id, request.body),
    }),
  );

  r.delete(
    '/v1/funnels/:id',
    {
      config: WRITE,
      schema: {
        operationId: 'deleteFunnel',
        tags: ['funnels'],
        summary: 'Delete a saved funnel (the traffic it reported on stays)',
        description:
          'Removes the saved definition at once, with no restore; needs `config:write`. An unknown id is 404.',
        params: funnelIdParams,
        querystring: siteQuery,
        response: { 204: z.null().describe('Deleted; no body'), ...statsErrorSchemas, 404: FUNNEL_NOT_FOUND },
      },
    },
    async (request, reply) => {
      await funnels.remove(principalOf(request), request.params.id, request.query.site_id);
      return reply.code(204).send(null);
    },
  );

  r.get(
    '/v1/funnels/:id/report',
    {
      config: READ,
      schema: {
        operationId: 'getFunnelReport',
        tags: ['funnels'],
        summary: 'A saved funnel’s steps: people, conversion, drop-off and time to the next step',
        description: `Needs \`stats:read\`. ${REPORT_DESCRIPTION}`,
        params: funnelIdParams,
        querystring: reportQuery,
        response: { 200: funnelReportSchema, ...statsErrorSchemas, 404: FUNNEL_NOT_FOUND },
      },
    },
    async (request) => funnels.savedReport(principalOf(request), request.params.id, request.query),
  );
}
