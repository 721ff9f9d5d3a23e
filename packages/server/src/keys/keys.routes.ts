/** `/v1/account/keys`: list (metadata only), create (plaintext shown once), revoke. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf, type RouteAuth } from '../http/authenticate.js';
import { codedErrorSchema, scopeSchema, timestampSchema, uuidParam } from '../http/schemas.js';
import { SITE_REF_PATTERN } from '../lib/ids.js';
import type { SitesService } from '../sites/sites.service.js';
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
  const errors = {
    401: codedErrorSchema,
    403: codedErrorSchema,
    404: codedErrorSchema,
    422: codedErrorSchema,
  };

  r.get(
    '/v1/account/keys',
    {
      config: CONFIG,
      schema: {
        tags: ['account'],
        summary: 'List API keys (metadata only, never the key or its hash)',
        response: { 200: z.object({ keys: z.array(keySchema) }), ...errors },
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
        summary: 'Create an API key; the plaintext `api_key` is returned only here',
        body: z.strictObject({
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
        }),
        response: { 201: keySchema.extend({ api_key: z.string() }), ...errors },
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
        summary: 'Revoke an API key; effective at once',
        params: z.strictObject({ id: uuidParam }),
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await keys.revoke(principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
