/** `/v1/account/bot-tokens`: tokens for the crawler middleware (interface §4.6). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../http/authenticate.js';
import { codedErrorSchema, uuidParam } from '../http/schemas.js';
import { SITE_REF_PATTERN } from '../lib/ids.js';
import type { BotTokensService } from './bot-tokens.service.js';
import {
  BOT_TOKEN_ID_EXAMPLE,
  botTokenListExample,
  createBotTokenExample,
  createdBotTokenExample,
  revokedBotTokenExample,
} from './crawlers.examples.js';

const siteRef = z
  .string()
  .regex(SITE_REF_PATTERN, 'must be a ttid_ snippet key (a dashboard session may also pass the site UUID)');
const tokenSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string().describe('The first characters of the token, for recognising it'),
  snippet_key: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable().describe('Updated at most once a minute'),
  revoked_at: z.string().nullable(),
});
const errors = {
  401: codedErrorSchema,
  403: codedErrorSchema.describe(
    '`insufficient_scope` (naming `required_scope`), or `forbidden`: the person behind the credential is not an account-wide admin',
  ),
  404: codedErrorSchema,
  409: codedErrorSchema,
  422: codedErrorSchema,
};

export function registerBotTokenRoutes(app: FastifyInstance, { botTokens }: { botTokens: BotTokensService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limits = { perCredential: 60, credentialGroup: 'bot-tokens' };

  r.get(
    '/v1/account/bot-tokens',
    {
      config: { area: 'account', auth: { accepts: ['key', 'session'], scope: 'config:write' }, limits },
      schema: {
        operationId: 'listBotTokens',
        tags: ['crawlers'],
        summary: 'List bot tokens (metadata only; the token and its hash are never shown)',
        description:
          'The account’s bot tokens, revoked ones included; needs `config:write`, and a dashboard session must be ' +
          'an account-wide admin. `site_id` narrows to one site; a site out of reach gives an empty list.',
        querystring: z.strictObject({
          site_id: siteRef
            .optional()
            .describe(
              'Only the tokens of this site (snippet key; a dashboard session may pass the site UUID)',
            ),
        }),
        response: {
          200: z
            .object({ bot_tokens: z.array(tokenSchema) })
            .meta({ description: 'The tokens, without secrets', examples: [botTokenListExample] }),
          ...errors,
        },
      },
    },
    async (request) => ({ bot_tokens: await botTokens.list(principalOf(request), request.query.site_id) }),
  );

  r.post(
    '/v1/account/bot-tokens',
    {
      config: { area: 'account', auth: { accepts: ['key', 'session'], scope: 'credentials:write' }, limits },
      schema: {
        operationId: 'createBotToken',
        tags: ['crawlers'],
        summary: 'Mint a bot token for crawler-hit reports; the plaintext is returned only here',
        description:
          'Needs `credentials:write` and `ingest:write`; the key’s creator must still be an account-wide admin. ' +
          'At most 5 active tokens per site and 30 per account (409 `bot_token_limit_reached`). ' +
          'Give the crawler middleware `snippet_key` and `plaintext_token`. Rotation: mint the replacement, deploy it, then revoke the old one.',
        body: z
          .strictObject({
            site_id: siteRef.describe('The site whose crawler hits the token reports'),
            name: z
              .string()
              .trim()
              .min(1)
              .max(100)
              .optional()
              .describe('A label, 1 to 100 characters; default "Crawler reporting"'),
          })
          .meta({ examples: [createBotTokenExample] }),
        response: {
          201: z
            .object({
              id: z.uuid(),
              snippet_key: z.string().describe('Give this to the crawler middleware as its site, not `id`'),
              name: z.string(),
              plaintext_token: z.string().describe('`tt_bot_…`: shown only here; only its hash is stored'),
              created_at: z.string(),
            })
            .meta({
              description: 'The new token, in plain text this once',
              examples: [createdBotTokenExample],
            }),
          ...errors,
          404: codedErrorSchema.describe('`not_found`: the site is out of the credential’s reach'),
          409: codedErrorSchema.describe(
            '`bot_token_limit_reached`: 5 active tokens on the site or 30 on the account; `limit` and `per` say which',
          ),
        },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await botTokens.create(principalOf(request), request.body)),
  );

  r.delete(
    '/v1/account/bot-tokens/:tokenId',
    {
      config: { area: 'account', auth: { accepts: ['key', 'session'], scope: 'config:write' }, limits },
      schema: {
        operationId: 'revokeBotToken',
        tags: ['crawlers'],
        summary: 'Revoke a bot token; the edge stops accepting it within 60 seconds',
        description:
          'Needs `config:write`; the key’s creator must still be an account-wide admin. Revoking twice keeps ' +
          'the first `revoked_at`. A token of another account, or of a site the key does not cover, is 404.',
        params: z.strictObject({
          tokenId: uuidParam.meta({ examples: [BOT_TOKEN_ID_EXAMPLE], description: 'The bot token’s `id`' }),
        }),
        response: {
          200: z
            .object({ id: z.uuid(), revoked_at: z.string() })
            .meta({ description: 'The token, revoked', examples: [revokedBotTokenExample] }),
          ...errors,
          404: codedErrorSchema.describe('`not_found`: no such bot token within the credential’s reach'),
        },
      },
    },
    async (request) => botTokens.revoke(principalOf(request), request.params.tokenId),
  );
}
