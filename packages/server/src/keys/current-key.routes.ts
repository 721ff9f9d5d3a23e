/**
 * `GET /v1/account/keys/current`: the presented API key describes itself (its scopes, site and
 * expiry), so a tool holding only the key — the agent tool set over stdio — can tell what it may
 * do. Any valid key may ask, whatever its scopes; never the key itself or its hash.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf, type RouteAuth } from '../http/authenticate.js';
import { notFound } from '../http/errors.js';
import { codedErrorSchema, scopeSchema } from '../http/schemas.js';
import type { KeysService } from './keys.service.js';

const AUTH: RouteAuth = { accepts: ['key'] };
const CONFIG = { area: 'account', auth: AUTH, limits: { perCredential: 60 } } as const;

export const currentKeyExample = {
  id: '7f3c9a2e-5b1d-4e8f-9a6c-2d4b8e1f0a3c',
  name: 'Claude Desktop',
  prefix: 'tk_live_9f2c',
  scopes: ['stats:read'],
  site_id: 'ttid_3fQk9ZrT2mW8xLpA7nVc1e',
  created_by: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  expires_at: '2027-03-01T00:00:00.000Z',
  last_used_at: '2026-11-27T16:42:08.114Z',
  revoked_at: null,
  created_at: '2026-11-02T09:15:37.250Z',
};

/** The fields of a key in the keys listing (keys.routes.ts), in the same shapes. */
const currentKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the key, for recognising it'),
    scopes: z.array(scopeSchema).describe('What the key may do'),
    site_id: z
      .string()
      .nullable()
      .describe('Snippet key of the one site the key reaches; null for every site'),
    created_by: z.uuid().nullable(),
    expires_at: z.string().nullable().describe('When the key stops working; null when it never expires'),
    last_used_at: z.string().nullable().describe('Updated at most once a minute'),
    revoked_at: z.null().describe('Always null: a revoked key is refused with 401'),
    created_at: z.string(),
  })
  .meta({ description: 'The key that made the request', examples: [currentKeyExample] });

export function registerCurrentKeyRoute(app: FastifyInstance, { keys }: { keys: KeysService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/account/keys/current',
    {
      config: CONFIG,
      schema: {
        operationId: 'getCurrentApiKey',
        tags: ['account'],
        summary: 'The API key making the request: its scopes, site and expiry',
        description:
          'Any valid API key may ask, with no scope needed; a dashboard session gets 401. Answers the key as the ' +
          'keys listing shows it, never the key itself. A missing, revoked or expired key is 401.',
        response: {
          200: currentKeySchema,
          401: codedErrorSchema.describe('Missing, malformed, unknown, revoked or expired key'),
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const keyId = principal.kind === 'key' ? principal.keyId : undefined;
      const key = (await keys.list(principal)).find((listed) => listed.id === keyId);
      // Only if the key was revoked between authenticating and listing.
      if (!key || key.revoked_at !== null) throw notFound('Key');
      return { ...key, revoked_at: null };
    },
  );
}
