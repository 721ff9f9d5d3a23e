/**
 * `GET /v1/sites/{siteId}/export`: a site's raw data as a streamed file, `stats:read`, in the
 * sites area's error shape. Errors found before the first byte (bad input, a site out of reach,
 * a failed first query) answer with a normal error body; once the file has started, the status
 * is sent and a failure can only cut the connection (Fastify destroys the socket when the
 * stream errors), which is logged here.
 */
import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../http/authenticate.js';
import type { RouteLimits } from '../http/rate-limit.js';
import { documentExportFile } from './site-export.docs.js';
import type { ExportFormat } from './site-export.encode.js';
import { exportErrorSchemas, exportFileSchema, exportParams, exportQuery } from './site-export.schemas.js';
import { EXPORT_MAX_DAYS, type SiteExportService } from './site-export.service.js';

const EXPORTS: RouteLimits = { perCredential: 10, credentialGroup: 'site-export' };
const CONTENT_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson',
  csv: 'text/csv; charset=utf-8',
};
/** The stream asks for the next page once less than this much of the file waits unsent. */
const STREAM_BUFFER_BYTES = 64 * 1024;

/** Passes the chunks on; a failure after the first chunk is logged, as no error body can follow. */
async function* loggingMidStreamFailure(chunks: AsyncGenerator<string>, log: FastifyBaseLogger) {
  let hasStarted = false;
  try {
    for await (const chunk of chunks) {
      hasStarted = true;
      yield chunk;
    }
  } catch (error) {
    if (hasStarted) log.error({ err: error }, 'site export stopped mid-stream; the connection is cut');
    throw error;
  }
}

export function registerSiteExportRoutes(
  app: FastifyInstance,
  { siteExport }: { siteExport: SiteExportService },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/sites/:siteId/export',
    {
      config: {
        area: 'sites',
        auth: { accepts: ['key', 'session'], scope: 'stats:read' },
        limits: EXPORTS,
        swaggerTransform: documentExportFile,
      },
      schema: {
        operationId: 'exportSite',
        tags: ['sites'],
        summary:
          'Download the site’s raw visits, events, payments and imported days (ndjson or csv), streamed',
        description:
          'Needs `stats:read`. For moving a site’s data elsewhere: every visit, event (pageviews, custom events, ' +
          'identify and engagement signals), payment and imported daily count of the window of UTC days, as ' +
          'stored after any erasure. ' +
          `The default window is the last 30 days, at most ${EXPORT_MAX_DAYS} days. Any size streams without ` +
          'buffering. Ten exports a minute per credential. A site outside the credential’s reach, or inside its ' +
          'deletion window, is 404 `not_found`.',
        params: exportParams,
        querystring: exportQuery,
        response: { 200: exportFileSchema, ...exportErrorSchemas },
      },
    },
    async (request, reply) => {
      const file = await siteExport.open(principalOf(request), request.params.siteId, request.query);
      const body = Readable.from(loggingMidStreamFailure(file.chunks, request.log), {
        objectMode: false,
        highWaterMark: STREAM_BUFFER_BYTES,
      });
      reply
        .header('content-type', CONTENT_TYPES[file.format])
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store');
      // The 200 schema documents the file as text; Fastify pipes a stream without serialising it.
      return (reply as FastifyReply).send(body);
    },
  );
}
