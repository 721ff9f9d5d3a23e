/** `POST /v1/crawler/hits`: batches from the crawler middleware, authenticated by a bot token. */

import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken } from '../http/authenticate.js';
import { unauthorized } from '../http/errors.js';
import { codedErrorSchema, timestampSchema } from '../http/schemas.js';
import { SNIPPET_KEY_PATTERN } from '../lib/ids.js';
import type { BotIdentity, BotTokensService } from './bot-tokens.service.js';
import type { CrawlerHitsService } from './crawler-hits.service.js';
import { crawlerHitsAcceptedExample, crawlerHitsExample } from './crawlers.examples.js';

export const MAX_HITS_PER_BATCH = 1000;

const hitSchema = z.strictObject({
  user_agent: z.string().min(1).max(1000).describe('The crawler’s User-Agent header, as received'),
  path: z
    .string()
    .min(1)
    .max(4096)
    .describe(
      'The path and query string, or a full URL (only its path and query are kept); stored up to 2,048 characters',
    ),
  status: z.number().int().min(100).max(599).optional().describe('The HTTP status the site answered with'),
  timestamp: timestampSchema.optional().describe('When the hit happened; default when received'),
  ip: z
    .string()
    .refine((value) => isIP(value) !== 0, 'must be an IPv4 or IPv6 address')
    .optional()
    .describe(
      "Checked against the address ranges the crawler's operator publishes, to flag spoofed crawlers; never stored",
    ),
});

declare module 'fastify' {
  interface FastifyRequest {
    bot?: BotIdentity;
  }
}

export function registerCrawlerHitRoutes(
  app: FastifyInstance,
  deps: { botTokens: BotTokensService; crawlerHits: CrawlerHitsService },
) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/crawler/hits',
    {
      bodyLimit: 1024 * 1024,
      config: { area: 'ingest', limits: { perCredential: 600, credentialGroup: 'crawler-hits' } },
      // Bot tokens authenticate this route alone; every other route answers them 401.
      onRequest: async (request) => {
        const token = bearerToken(request);
        const identity = token ? await deps.botTokens.verify(token) : null;
        if (!identity) throw unauthorized('A valid bot token (tt_bot_…) is required');
        request.bot = identity;
      },
      schema: {
        operationId: 'recordCrawlerHits',
        tags: ['crawlers'],
        summary: 'Report AI crawler hits (Authorization: Bearer tt_bot_…)',
        description:
          'For the crawler middleware at the site’s edge: takes a bot token (`tt_bot_…`) only, never an API key. ' +
          'At most 1,000 hits per batch and 1 MiB of body (413 beyond). A hit may be dated at most 24 hours ahead. ' +
          'Email addresses and phone numbers in query strings are stored as `[REDACTED]`. Each user agent is classified against the crawler table (unknown agents are stored as `other`). ' +
          'Answers 202 once the batch is committed. A revoked token stops working within 60 seconds.',
        body: z
          .strictObject({
            site_id: z
              .string()
              .regex(SNIPPET_KEY_PATTERN, 'must be a ttid_ snippet key')
              .optional()
              .describe('The site the sender reports for; when sent, it must be the token’s site (else 401)'),
            hits: z.array(hitSchema).min(1).max(MAX_HITS_PER_BATCH).describe('1 to 1,000 hits'),
          })
          .meta({ examples: [crawlerHitsExample] }),
        response: {
          202: z
            .object({ accepted: z.number().int().describe('Hits stored') })
            .meta({ description: 'The batch is committed', examples: [crawlerHitsAcceptedExample] }),
          401: codedErrorSchema.describe(
            '`unauthorized`: no valid bot token (missing, unknown or revoked), or `site_id` is not the token’s site',
          ),
          413: codedErrorSchema.describe('`payload_too_large`: the body is over 1 MiB'),
          415: codedErrorSchema.describe('`unsupported_media_type`: the body is not `application/json`'),
          422: codedErrorSchema,
          429: codedErrorSchema,
          503: codedErrorSchema.describe('`unavailable`: the batch could not be stored; nothing was; retry'),
        },
      },
    },
    async (request, reply) => {
      const bot = request.bot as BotIdentity;
      const accepted = await deps.crawlerHits.record(bot.siteId, request.body.hits, request.body.site_id);
      return reply.code(202).send({ accepted });
    },
  );
}
