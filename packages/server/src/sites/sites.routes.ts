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
import { registerSiteRefusalRoutes } from './site-refusals.routes.js';
import { SITE_EXAMPLE, UPDATED_SITE_EXAMPLE } from './sites.examples.js';
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
  422: codedErrorSchema,
};
const siteNotFound = codedErrorSchema.describe(
  'No such site, a site the key does not cover, or one scheduled for deletion',
);
const notAdmin = codedErrorSchema.describe(
  '`forbidden`: the person behind the credential is not an account-wide admin; `insufficient_scope`: the key lacks `config:write`',
);

export function registerSiteRoutes(app: FastifyInstance, { sites }: { sites: SitesService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  registerSiteRefusalRoutes(app, { sites });

  r.get(
    '/v1/sites',
    {
      config: routeConfig('stats:read', READS),
      schema: {
        tags: ['sites'],
        operationId: 'listSites',
        summary: 'List sites, newest first; a key restricted to one site sees only that site',
        description:
          'The sites of the account, newest first; a key restricted to one site gets only that site. ' +
          'Needs `stats:read`. Sites inside their deletion window are left out unless `include_deleted=true`.',
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
        operationId: 'getSite',
        summary: 'One site (not wrapped); 404 while its deletion is scheduled',
        description:
          'One site by its snippet key, not wrapped in an envelope. Needs `stats:read`. A site the key does ' +
          'not cover, or one scheduled for deletion, answers 404.',
        params: siteParams,
        response: {
          200: siteSchema.meta({ description: 'The site', examples: [SITE_EXAMPLE] }),
          ...errors,
          404: siteNotFound,
        },
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
        operationId: 'createSite',
        summary: 'Add a site with a new key for it (shown once)',
        description:
          'Adds a site and mints an API key for it alone (`stats:read` and `ingest:write`), shown only in this ' +
          'answer. Needs `credentials:write`, `stats:read` and `ingest:write`, a key not restricted to one site, ' +
          'and an account-wide admin behind the key. `domain` is a hostname only; it is stored lower-cased, an ' +
          'IDN as punycode. `currency` (optional, default USD) is the reporting currency; given here it counts ' +
          'as chosen by hand, so a later payment-processor connection does not override it.',
        body: createSiteBody,
        response: {
          201: createdSiteSchema,
          ...errors,
          403: codedErrorSchema.describe(
            "`site_limit_reached` (with `plan` and `site_limit`): the plan's site cap is reached; " +
              '`forbidden`: not an account-wide admin, or a key restricted to one site; ' +
              '`insufficient_scope`: a needed permission is missing (named in `required_scope`)',
          ),
          409: codedErrorSchema.describe(
            '`domain_taken`: the account already has an active site with this domain; ' +
              '`account_pending_deletion`: the account is scheduled for deletion',
          ),
        },
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
        operationId: 'updateSite',
        summary: "Change a site's settings (any member); returns the full updated site",
        description:
          'Changes any of `name`, `attribution_model`, `cookie_apex_domain`, `currency`, `events_retention_days` ' +
          'and `visits_retention_days`; send at least one. Needs `config:write`; any member may, not only admins, ' +
          'except for the two retention settings, which need an account-wide admin (403 `forbidden`): a shorter ' +
          'retention deletes raw events or visits for good at the next hourly run (daily totals stay). Setting ' +
          '`currency` by hand (even to `USD`) keeps a later payment-processor connection from overriding it. 404 ' +
          'while deletion is scheduled.',
        params: siteParams,
        body: updateSiteBody,
        response: {
          200: siteSchema.meta({
            description: 'The full site, as updated',
            examples: [UPDATED_SITE_EXAMPLE],
          }),
          ...errors,
          404: siteNotFound,
        },
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
        operationId: 'deleteSite',
        summary: 'Schedule deletion in 30 days (admins); asking again reports the same deadline',
        description:
          'Stops collection at once and schedules erasure 30 days out; until then the site can be restored. ' +
          'Needs `config:write` and an account-wide admin behind the key; `confirm_domain` must repeat the ' +
          "site's domain (case-insensitive). Asking again reports the deadline that stands.",
        params: siteParams,
        body: deleteSiteBody,
        response: {
          200: deletionSchema,
          ...errors,
          403: notAdmin,
          404: codedErrorSchema.describe('No such site, or a site the key does not cover'),
          409: codedErrorSchema.describe("`domain_mismatch`: `confirm_domain` is not the site's domain"),
          422: codedErrorSchema.describe(
            '`validation_failed`: `confirm_domain` is missing, or `siteId` is malformed',
          ),
        },
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
        operationId: 'restoreSite',
        summary: 'Cancel a scheduled deletion within its window (admins); a no-op on an active site',
        description:
          'Cancels a scheduled deletion while its window lasts, and collection resumes; on an active site it ' +
          'changes nothing. Needs `config:write` and an account-wide admin behind the key. Takes no body.',
        params: siteParams,
        body: restoreSiteBody,
        response: {
          200: restoredSchema,
          ...errors,
          403: notAdmin,
          404: codedErrorSchema.describe('No such site, or a site the key does not cover'),
          409: codedErrorSchema.describe(
            '`deletion_in_progress`: erasure has begun; `domain_taken`: the domain was added again meanwhile; ' +
              "`site_limit_reached`: restoring would exceed the plan's site cap; " +
              '`account_pending_deletion`: the account is scheduled for deletion',
          ),
        },
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
        operationId: 'listDashboardSites',
        summary:
          "The account's sites with their internal UUIDs, scheduled ones included (dashboard session only)",
        description:
          "The dashboard's site picker: every site of the account, those scheduled for deletion included, " +
          'with the internal UUID the dashboard uses in other calls. A dashboard session only; a key gets 401.',
        response: { 200: dashboardSitesSchema, 401: codedErrorSchema },
      },
    },
    async (request) => ({ sites: await sites.listForDashboard(principalOf(request)) }),
  );
}
