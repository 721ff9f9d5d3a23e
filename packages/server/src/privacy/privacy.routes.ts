/**
 * `/v1/privacy/requests` (DESIGN.md §12): data-subject access and erasure requests,
 * for account-wide admins, in the sites area's error shape. The export is streamed as it is
 * read from the database.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type CredentialKind, principalOf } from '../http/authenticate.js';
import type { RouteLimits } from '../http/rate-limit.js';
import { codedErrorSchema } from '../http/schemas.js';
import {
  accessExportSchema,
  createRequestBody,
  listQuery,
  requestListSchema,
  requestParams,
  requestSchema,
} from './privacy.schemas.js';
import type { PrivacyService } from './privacy.service.js';

const READS: RouteLimits = { perCredential: 120, credentialGroup: 'privacy:read' };
const WRITES: RouteLimits = { perCredential: 30, credentialGroup: 'privacy:write' };
const BOTH: readonly CredentialKind[] = ['key', 'session'];
const routeConfig = (limits: RouteLimits) =>
  ({ area: 'sites', auth: { accepts: BOTH, scope: 'config:write' }, limits }) as const;
const tags = ['privacy'];
const WHO =
  'Account-wide admins only: a dashboard session of an admin, or a key with `config:write` whose creator is ' +
  'still an admin (else 403 `forbidden`, or `insufficient_scope` for a key without the scope).';
const notAdmin = codedErrorSchema.describe('`forbidden` (not an admin) or `insufficient_scope`');
const requestNotFound = codedErrorSchema.describe('`not_found`: no such request on this account');

export function registerPrivacyRoutes(app: FastifyInstance, { privacy }: { privacy: PrivacyService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/v1/privacy/requests';

  r.post(
    base,
    {
      config: routeConfig(WRITES),
      schema: {
        operationId: 'createPrivacyRequest',
        tags,
        summary: 'Ask for a person’s data (access) or delete it (erasure)',
        description:
          `${WHO} The subject is found at once and kept only as a keyed hash; \`matched\` counts what was found. ` +
          'The request then runs in the background: poll `GET /v1/privacy/requests/{id}` until `status` is ' +
          '`completed`. An access request’s export can then be downloaded for 7 days. An erasure deletes the ' +
          'person’s visits, events, identity links and visitor ids, clears them from their payments (amounts stay ' +
          'for the books) and drops queued webhook deliveries about them; daily totals stay, so reports over past ' +
          'days do not change. The site is named by its internal UUID or its snippet key; a site the credential ' +
          'cannot reach is 404.',
        body: createRequestBody,
        response: {
          202: requestSchema,
          403: notAdmin,
          404: codedErrorSchema.describe('`not_found`: no such site'),
        },
      },
    },
    async (request, reply) => reply.code(202).send(await privacy.create(principalOf(request), request.body)),
  );

  r.get(
    base,
    {
      config: routeConfig(READS),
      schema: {
        operationId: 'listPrivacyRequests',
        tags,
        summary: 'The audit trail: every request, newest first',
        description: `${WHO} Who asked, when, what type and what matched; never the subject’s value.`,
        querystring: listQuery,
        response: { 200: requestListSchema, 403: notAdmin },
      },
    },
    async (request) => privacy.list(principalOf(request), request.query),
  );

  r.get(
    `${base}/:id`,
    {
      config: routeConfig(READS),
      schema: {
        operationId: 'getPrivacyRequest',
        tags,
        summary: 'A request’s status and what it matched',
        description: WHO,
        params: requestParams,
        response: { 200: requestSchema, 403: notAdmin, 404: requestNotFound },
      },
    },
    async (request) => privacy.get(principalOf(request), request.params.id),
  );

  r.get(
    `${base}/:id/export`,
    {
      config: routeConfig(READS),
      schema: {
        operationId: 'downloadPrivacyExport',
        tags,
        summary: 'Download an access request’s export (JSON, streamed)',
        description:
          `${WHO} Everything stored about the person on the site: visitor ids, identity links, visits with ` +
          'sources and pages, events with properties, payments with refunds, and attribution credits. Crawler ' +
          'data is not about people and is left out. 404 for an erasure request, 409 `export_not_ready` before ' +
          'the request completes, 410 `export_expired` 7 days after.',
        params: requestParams,
        response: {
          200: accessExportSchema,
          403: notAdmin,
          404: requestNotFound,
          409: codedErrorSchema.describe('`export_not_ready`'),
          410: codedErrorSchema.describe('`export_expired`'),
        },
      },
    },
    async (request, reply) => {
      const { fileName, body } = await privacy.export(principalOf(request), request.params.id);
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(body));
    },
  );
}
