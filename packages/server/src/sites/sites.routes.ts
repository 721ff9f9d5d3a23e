/**
 * `/v1/sites` (interface §4.2) and the dashboard's `/v1/dashboard/sites`. Errors answer in the
 * sites area's shape `{error: code, message, field?, ...}`. Per credential: 120 reads and 60
 * writes a minute.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Scope } from '../access/principal.js';
import { type CredentialKind, principalOf } from '../http/authenticate.js';
import { badInput } from '../http/errors.js';
import type { RouteLimits } from '../http/rate-limit.js';
import { codedErrorSchema } from '../http/schemas.js';
import {
  createdSiteSchema,
  createSiteBody,
  dashboardSitesSchema,
  deleteSiteBody,
  deletionSchema,
  listQuery,
  restoredSchema,
  restoreSiteBody,
  siteListSchema,
  siteParams,
  siteSchema,
  updateSiteBody,
} from './sites.schemas.js';
import type { SitesService } from './sites.service.js';

const READS: RouteLimits = { perCredential: 120, credentialGroup: 'sites:read' };
const WRITES: RouteLimits = { perCredential: 60, credentialGroup: 'sites:write' };
const BOTH: readonly CredentialKind[] = ['key', 'session'];

const routeConfig = (scope: Scope | undefined, limits: RouteLimits, accepts = BOTH) =>
  ({ area: 'sites', auth: { accepts, scope }, limits }) as const;

const errors = {
  401: codedErrorSchema,
  403: codedErrorSchema,
  404: codedErrorSchema,
  409: codedErrorSchema,
  422: codedErrorSchema,
};

export function registerSiteRoutes(app: FastifyInstance, { sites }: { sites: SitesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/sites',
    {
      config: routeConfig('stats:read', READS),
      schema: {
        tags: ['sites'],
        summary: 'List sites, newest first; a key restricted to one site sees only that site',
        querystring: listQuery,
        response: { 200: siteListSchema, ...errors },
      },
    },
    async (request) => {
      const includeDeleted = request.query.include_deleted === 'true';
      return { sites: await sites.list(principalOf(request), { includeDeleted }) };
    },
  );

  r.get(
    '/v1/sites/:siteId',
    {
      config: routeConfig('stats:read', READS),
      schema: {
        tags: ['sites'],
        summary: 'One site (not wrapped); 404 while its deletion is scheduled',
        params: siteParams,
        response: { 200: siteSchema, ...errors },
      },
    },
    async (request) => sites.get(principalOf(request), request.params.siteId),
  );

  r.post(
    '/v1/sites',
    {
      config: routeConfig('credentials:write', WRITES),
      schema: {
        tags: ['sites'],
        summary:
          'Add a site with a new key for it (shown once). Needs credentials:write, stats:read and ingest:write, ' +
          'a key not restricted to one site, and an account-wide admin behind the key',
        body: createSiteBody,
        response: { 201: createdSiteSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await sites.create(principalOf(request), request.body)),
  );

  r.patch(
    '/v1/sites/:siteId',
    {
      config: routeConfig('config:write', WRITES),
      schema: {
        tags: ['sites'],
        summary: "Change a site's settings (any member); returns the full updated site",
        params: siteParams,
        body: updateSiteBody,
        response: { 200: siteSchema, ...errors },
      },
    },
    async (request) => sites.update(principalOf(request), request.params.siteId, request.body),
  );

  r.delete(
    '/v1/sites/:siteId',
    {
      config: routeConfig('config:write', WRITES),
      schema: {
        tags: ['sites'],
        summary: 'Schedule deletion in 30 days (admins); asking again reports the same deadline',
        params: siteParams,
        body: deleteSiteBody,
        response: { 200: deletionSchema, ...errors },
      },
    },
    async (request) => {
      const confirmDomain = request.body?.confirm_domain;
      if (confirmDomain === undefined) throw badInput('confirm_domain', 'confirm_domain is required');
      return sites.scheduleDeletion(principalOf(request), request.params.siteId, confirmDomain);
    },
  );

  r.post(
    '/v1/sites/:siteId/restore',
    {
      config: routeConfig('config:write', WRITES),
      schema: {
        tags: ['sites'],
        summary: 'Cancel a scheduled deletion within its window (admins); a no-op on an active site',
        params: siteParams,
        body: restoreSiteBody,
        response: { 200: restoredSchema, ...errors },
      },
    },
    async (request) => sites.restore(principalOf(request), request.params.siteId),
  );

  r.get(
    '/v1/dashboard/sites',
    {
      config: routeConfig(undefined, READS, ['session']),
      schema: {
        tags: ['sites'],
        summary:
          "The account's sites with their internal UUIDs, scheduled ones included (dashboard session only)",
        response: { 200: dashboardSitesSchema, 401: codedErrorSchema },
      },
    },
    async (request) => ({ sites: await sites.listForDashboard(principalOf(request)) }),
  );
}
