/** `/v1/account/keys`: list (metadata only), create (plaintext shown once), revoke. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf, type RouteAuth } from '../http/authenticate.js';
import { codedErrorSchema, scopeSchema, timestampSchema, uuidParam } from '../http/schemas.js';
import { SITE_REF_PATTERN } from '../lib/ids.js';
import type { SitesService } from '../sites/sites.service.js';
import {
  CREATE_KEY_EXAMPLE,
  CREATED_KEY_EXAMPLE,
  KEY_ID_EXAMPLE,
  KEY_LIST_EXAMPLE,
} from './keys.examples.js';
import { type KeysService, requireGrantableScopes } from './keys.service.js';

const AUTH: RouteAuth = { accepts: ['key', 'session'], scope: 'credentials:write' };
const CONFIG = { area: 'account', auth: AUTH, limits: { perCredential: 60 } } as const;

const keySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  prefix: z.string().describe('The first characters of the key, for recognising it'),
  scopes: z.array(scopeSchema),
  site_id: z.string().nullable().describe('Snippet key of the one site the key reaches; null for every site'),
  created_by: z.uuid().nullable(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable().describe('Updated at most once a minute'),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
});

export function registerKeyRoutes(
  app: FastifyInstance,
  { keys, sites }: { keys: KeysService; sites: Pick<SitesService, 'getReachableSite'> },
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = { 401: codedErrorSchema, 403: codedErrorSchema };

  r.get(
    '/v1/account/keys',
    {
      config: CONFIG,
      schema: {
        tags: ['account'],
        operationId: 'listApiKeys',
        summary: 'List API keys (metadata only, never the key or its hash)',
        description:
          "The account's API keys, newest first, revoked and expired ones included, with their scopes and last use; never " +
          'the key itself. Needs `credentials:write`. A key restricted to one site sees only the keys of that site.',
        response: {
          200: z
            .object({ keys: z.array(keySchema) })
            .meta({ description: "The account's keys", examples: [KEY_LIST_EXAMPLE] }),
          ...errors,
        },
      },
    },
    async (request) => ({ keys: await keys.list(principalOf(request)) }),
  );

  r.post(
    '/v1/account/keys',
    {
      config: CONFIG,
      schema: {
        tags: ['account'],
        operationId: 'createApiKey',
        summary: 'Create an API key; the plaintext `api_key` is returned only here',
        description:
          'Mints a key with the given scopes, for every site or one, with an optional expiry; only its hash is ' +
          'stored, so `api_key` is shown in this answer alone. Needs `credentials:write`. A key never mints a ' +
          'key more capable than itself: no scope it lacks (403 `insufficient_scope`), no other site than its ' +
          'own, no later expiry than its own (422).',
        body: z
          .strictObject({
            name: z.string().trim().min(1).max(100),
            scopes: z.array(scopeSchema).min(1).max(4),
            site_id: z
              .string()
              .regex(
                SITE_REF_PATTERN,
                'must be a ttid_ snippet key (a dashboard session may also pass the site UUID)',
              )
              .nullable()
              .optional()
              .describe('Restrict the key to this site'),
            expires_at: timestampSchema
              .nullable()
              .optional()
              .describe(
                'When the key stops working. A key minted by a key that expires expires no later: by default at the same time',
              ),
          })
          .meta({ examples: [CREATE_KEY_EXAMPLE] }),
        response: {
          201: keySchema
            .extend({ api_key: z.string().describe('The key itself, `tk_live_…`: shown only here') })
            .meta({ description: 'The new key, with its plaintext', examples: [CREATED_KEY_EXAMPLE] }),
          ...errors,
          404: codedErrorSchema.describe('`site_id` names a site the caller cannot reach'),
          422: codedErrorSchema.describe(
            '`validation_failed`: a malformed field, an `expires_at` in the past, or one after the calling key expires',
          ),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { site_id, ...input } = request.body;
      // A scope the caller lacks is reported before a site it cannot reach.
      requireGrantableScopes(principal, input.scopes);
      const site = site_id ? await sites.getReachableSite(principal, site_id) : null;
      return reply.code(201).send(await keys.create(principal, { ...input, site }));
    },
  );

  r.delete(
    '/v1/account/keys/:id',
    {
      config: CONFIG,
      schema: {
        tags: ['account'],
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key; effective at once',
        description:
          'The key stops working at once; it stays in the list with `revoked_at`. Needs `credentials:write`. ' +
          'A member revokes the keys they made, an admin any key, and a key may revoke itself.',
        params: z.strictObject({
          id: uuidParam.meta({
            description: 'The key’s `id` (not the key itself)',
            examples: [KEY_ID_EXAMPLE],
          }),
        }),
        response: {
          204: z.null().describe('Revoked'),
          ...errors,
          422: codedErrorSchema,
          403: codedErrorSchema.describe(
            '`forbidden`: the key was made by someone else and the caller is not an admin; `insufficient_scope`: the key lacks `credentials:write`',
          ),
          404: codedErrorSchema.describe(
            'No such key in the account, or outside a site-restricted key’s site',
          ),
        },
      },
    },
    async (request, reply) => {
      await keys.revoke(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
