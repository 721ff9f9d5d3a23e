/**
 * `POST /v1/collect` (path configurable as COLLECT_PATH) takes the tracker's payloads. CORS is
 * open and bodies may be `text/plain` (what the tracker sends, so browsers skip the preflight)
 * or JSON, up to 64 KiB. The answer comes after the payload's batch is committed.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../http/errors.js';
import { codedErrorSchema } from '../http/schemas.js';
import { collectPayloadSchema } from './collect.schemas.js';
import type { GeoLookup } from './geo.js';
import { collectAcceptedExample } from './ingest.examples.js';
import type { IngestService } from './ingest.service.js';
import { countRefusedRequests } from './refused-requests.js';

export const INGEST_BODY_LIMIT_BYTES = 64 * 1024;

const OPEN_CORS = {
  'access-control-allow-origin': '*',
  // Other sites' pages read the answer, so it is not same-origin only.
  'cross-origin-resource-policy': 'cross-origin',
  'x-content-type-options': 'nosniff',
};
/** Read by browsers from the preflight's answer only. */
const PREFLIGHT = {
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '86400',
};

export function registerCollectRoutes(
  app: FastifyInstance,
  deps: { ingest: IngestService; geo: GeoLookup; collectPath: string; ratePerMinute: number },
) {
  return app.register(async (scope) => {
    scope.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(new AppError(400, 'invalid_json', 'Body is not valid JSON'), undefined);
      }
    });
    scope.addHook('onSend', (_request, reply, payload, done) => {
      reply.headers(OPEN_CORS);
      done(null, payload);
    });

    scope.options(
      deps.collectPath,
      { config: { area: 'ingest', pageHeaders: false }, schema: { hide: true } },
      async (_request, reply) => reply.code(204).headers(PREFLIGHT).send(),
    );

    scope.withTypeProvider<ZodTypeProvider>().post(
      deps.collectPath,
      {
        bodyLimit: INGEST_BODY_LIMIT_BYTES,
        onError: countRefusedRequests(deps.ingest),
        // The answers are the few fixed objects below and the error handler's bodies; checking
        // each against its schema (the app's zod serializer) cost more than writing it.
        serializerCompiler: () => (data) => JSON.stringify(data),
        config: {
          area: 'ingest',
          // A beacon's small JSON answer is never rendered: helmet's page headers cost more
          // CPU than the rest of its headers, for nothing.
          pageHeaders: false,
          limits: deps.ratePerMinute > 0 ? { perIp: deps.ratePerMinute, ipGroup: 'collect' } : false,
        },
        schema: {
          operationId: 'collectTrackerPayload',
          tags: ['ingest'],
          summary: "The tracker's endpoint: pageviews, events, identify and engagement",
          description:
            'Public: the snippet key in `site` names the site, and no credential is needed. ' +
            'Send as `text/plain` (no CORS preflight) or `application/json`, at most 64 KiB. ' +
            '`eid` makes a retried request count once. Known bots are acknowledged and not stored. ' +
            'An unknown site key answers 404; a site scheduled for deletion answers 429 `quota_exceeded`; ' +
            'a database failure answers 503 and records nothing.',
          consumes: ['text/plain', 'application/json'],
          body: collectPayloadSchema,
          response: {
            202: z
              .object({
                accepted: z.boolean().describe('Whether the payload was stored'),
                reason: z
                  .enum(['bot'])
                  .optional()
                  .describe(
                    "Why it was not stored: `bot`, the user agent is missing or a known bot's (a headless browser's included)",
                  ),
              })
              .meta({
                description: 'Committed, or acknowledged and dropped',
                examples: [collectAcceptedExample],
              }),
            404: codedErrorSchema.describe('`not_found`: no site has this snippet key'),
            413: codedErrorSchema.describe('`payload_too_large`: the body is over 64 KiB'),
            415: codedErrorSchema.describe(
              '`unsupported_media_type`: the body is neither `text/plain` nor `application/json`',
            ),
            422: codedErrorSchema,
            429: codedErrorSchema.describe(
              '`quota_exceeded`: the site is scheduled for deletion and takes no data; or `rate_limited`',
            ),
            503: codedErrorSchema.describe('`unavailable`: nothing was recorded; retry with the same `eid`'),
          },
        },
      },
      async (request, reply) => {
        const result = await deps.ingest.collect(request.body, {
          userAgent: request.headers['user-agent'],
          location: deps.geo(request.ip, request.headers),
        });
        return reply
          .code(202)
          .send(result === 'bot' ? { accepted: false, reason: 'bot' } : { accepted: true });
      },
    );
  });
}
