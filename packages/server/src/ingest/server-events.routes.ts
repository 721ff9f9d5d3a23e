/** `POST /v1/server/events`: conversion events from the site's own server, with an API key. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../http/authenticate.js';
import { codedErrorSchema } from '../http/schemas.js';
import { INGEST_BODY_LIMIT_BYTES } from './collect.routes.js';
import { serverEventSchema } from './collect.schemas.js';
import { serverEventRecordedExample } from './ingest.examples.js';
import type { IngestService } from './ingest.service.js';
import { countRefusedRequests } from './refused-requests.js';

export function registerServerEventRoutes(app: FastifyInstance, { ingest }: { ingest: IngestService }) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/server/events',
    {
      bodyLimit: INGEST_BODY_LIMIT_BYTES,
      onError: countRefusedRequests(ingest),
      config: {
        area: 'ingest',
        auth: { accepts: ['key'], scope: 'ingest:write' },
        limits: { perCredential: 6000, credentialGroup: 'server-events' },
      },
      schema: {
        operationId: 'recordServerEvent',
        tags: ['ingest'],
        summary: 'Record a conversion event from your server',
        description:
          'Needs an API key with `ingest:write`. Links `visitor_id` (from the visitor cookie) to the person named by `user_id` or `email` ' +
          '(hashed with the server secret; never stored). `value` is in major units of `currency` ' +
          "(default: the site's currency). `event_id` makes retries count once; without it every post is new. " +
          'Answers 202 once committed: `recorded`, or `duplicate` for an `event_id` already held.',
        body: serverEventSchema,
        response: {
          202: z
            .object({
              status: z
                .enum(['recorded', 'duplicate'])
                .describe('`duplicate` when an event with this `event_id` was already held'),
              event_id: z.string().describe('The `event_id` sent, or the one generated'),
            })
            .meta({ description: 'Committed', examples: [serverEventRecordedExample] }),
          401: codedErrorSchema,
          403: codedErrorSchema,
          404: codedErrorSchema.describe('`not_found`: the site is unknown or out of the key’s reach'),
          413: codedErrorSchema.describe('`payload_too_large`: the body is over 64 KiB'),
          415: codedErrorSchema.describe('`unsupported_media_type`: the body is not `application/json`'),
          422: codedErrorSchema,
          429: codedErrorSchema.describe(
            '`quota_exceeded`: the site is scheduled for deletion and takes no data; or `rate_limited`',
          ),
          503: codedErrorSchema.describe(
            '`unavailable`: nothing was recorded; retry with the same `event_id`',
          ),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      if (principal.kind !== 'key') throw new Error('key-only route reached without a key');
      const result = await ingest.recordServerEvent(principal, request.body);
      return reply.code(202).send(result as { status: 'recorded' | 'duplicate'; event_id: string });
    },
  );
}
