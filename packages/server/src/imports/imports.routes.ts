/**
 * `/v1/sites/{siteId}/imports` (DESIGN.md §14): upload an export file (`config:write`), list the
 * site's imports and read one (`stats:read`), cancel or remove one (`config:write`). The upload's
 * body is the file itself, of any media type, streamed to storage without being held whole.
 */
import type { Readable } from 'node:stream';
import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../http/authenticate.js';
import type { RouteLimits } from '../http/rate-limit.js';
import { codedErrorSchema } from '../http/schemas.js';
import { STATS_READ_ROUTE, statsErrorSchemas } from '../reporting/report-routes.js';
import { importAnswer, importList, importParams, importsParams, uploadQuery } from './imports.schemas.js';
import { IMPORT_MAX_BYTES, type ImportsService } from './imports.service.js';

const UPLOADS: RouteLimits = { perCredential: 30, credentialGroup: 'imports:upload' };
const WRITES: RouteLimits = { perCredential: 60, credentialGroup: 'imports:write' };
const WRITE = (limits: RouteLimits) =>
  ({ area: 'sites', auth: { accepts: ['key', 'session'], scope: 'config:write' }, limits }) as const;

const errors = {
  ...statsErrorSchemas,
  404: codedErrorSchema.describe('`not_found`: no such import, or the site is out of the credential’s reach'),
};

/** The upload's request body in the OpenAPI document: the file under the media types it may have. */
const documentUploadBody: SwaggerTransform = (args) => {
  const transformed = jsonSchemaTransform(args) as { schema: Record<string, unknown>; url: string };
  const file = { schema: { type: 'string', format: 'binary' } };
  transformed.schema.body = undefined;
  (transformed.schema as { requestBody?: unknown }).requestBody = {
    required: true,
    description: 'The export file as the tool wrote it, at most 2 GiB',
    content: { 'application/zip': file, 'text/csv': file, 'application/octet-stream': file },
  };
  return transformed;
};

export function registerImportsRoutes(app: FastifyInstance, { imports }: { imports: ImportsService }) {
  app.register(async (scope) => {
    // The file is the body: handed over as the request stream, whatever its media type.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { bodyLimit: IMPORT_MAX_BYTES }, (_request, payload, done) =>
      done(null, payload),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/v1/sites/:siteId/imports',
      {
        bodyLimit: IMPORT_MAX_BYTES,
        config: { ...WRITE(UPLOADS), longUpload: true, swaggerTransform: documentUploadBody },
        schema: {
          operationId: 'createImport',
          tags: ['imports'],
          summary: 'Import a site’s history from another tool’s export file',
          description:
            'Needs `config:write`. The body is the file (up to 2 GiB), streamed; the answer comes once it is ' +
            'stored, and a worker then reads it (follow `status` and `progress`). Referrers and campaign tags go ' +
            'through the same classification as live traffic, so imported AI assistants are named. Only days ' +
            'before the site’s first day of its own traffic are kept. The same file uploaded again for the same ' +
            'site and source answers the import it already has. Thirty uploads a minute per credential.',
          params: importsParams,
          querystring: uploadQuery,
          response: {
            202: importAnswer.describe('The stored, queued import'),
            ...errors,
            413: codedErrorSchema,
          },
        },
      },
      async (request, reply) => {
        const body = request.body as unknown as Readable;
        const { import: view } = await imports.upload(
          principalOf(request),
          request.params.siteId,
          request.query.source,
          body,
        );
        return reply.code(202).send({ import: view });
      },
    );
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/v1/sites/:siteId/imports',
    {
      config: STATS_READ_ROUTE,
      schema: {
        operationId: 'listImports',
        tags: ['imports'],
        summary: 'List a site’s imports, newest first',
        description: 'Needs `stats:read`.',
        params: importsParams,
        response: { 200: importList, ...errors },
      },
    },
    async (request) => ({ imports: await imports.list(principalOf(request), request.params.siteId) }),
  );

  r.get(
    '/v1/sites/:siteId/imports/:importId',
    {
      config: STATS_READ_ROUTE,
      schema: {
        operationId: 'getImport',
        tags: ['imports'],
        summary: 'One import’s status, progress and days',
        description: 'Needs `stats:read`.',
        params: importParams,
        response: { 200: importAnswer, ...errors },
      },
    },
    async (request) => ({
      import: await imports.get(principalOf(request), request.params.siteId, request.params.importId),
    }),
  );

  r.delete(
    '/v1/sites/:siteId/imports/:importId',
    {
      config: WRITE(WRITES),
      schema: {
        operationId: 'deleteImport',
        tags: ['imports'],
        summary: 'Cancel an import in progress, or remove an ended one with all it wrote',
        description:
          'Needs `config:write`. A `pending` or `running` import becomes `cancelled` and nothing of it is kept; ' +
          'an ended one is removed, and reports no longer include its days. 204 either way.',
        params: importParams,
        response: { 204: z.null().describe('Cancelled or removed; no body'), ...errors },
      },
    },
    async (request, reply) => {
      await imports.remove(principalOf(request), request.params.siteId, request.params.importId);
      return reply.code(204).send(null);
    },
  );
}
