/**
 * `POST /v1/setup`: creates the first account, its admin and an all-scope API key, once.
 * `GET /v1/setup` says whether that has happened, so a fresh server's dashboard opens on setup.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { codedErrorSchema, emailSchema, passwordSchema } from '../http/schemas.js';
import { SET_UP_EXAMPLE, SETUP_EXAMPLE } from './accounts.examples.js';
import type { AccountsService } from './accounts.service.js';

export function registerSetupRoutes(app: FastifyInstance, { accounts }: { accounts: AccountsService }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/setup',
    {
      config: { area: 'account', limits: { perIp: 60, ipGroup: 'setup-status' } },
      schema: {
        tags: ['account'],
        operationId: 'getSetupStatus',
        summary: 'Whether the server has been set up',
        description:
          'Open to anyone, like the setup itself: `set_up` is false until the first account exists.',
        response: {
          200: z
            .object({ set_up: z.boolean() })
            .meta({ description: 'Whether an account exists', examples: [{ set_up: true }] }),
        },
      },
    },
    async () => ({ set_up: await accounts.isSetUp() }),
  );
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/setup',
    {
      config: { area: 'account', limits: { perIp: 10, ipGroup: 'setup' } },
      schema: {
        tags: ['account'],
        operationId: 'createFirstAccount',
        summary: 'Create the first account with the one-time setup token',
        description:
          'Works once, on a server with no account yet: creates the account, its first admin (this email and ' +
          'password) and an API key with every scope, shown only in this answer. The setup token is the one the ' +
          'server printed at start (or `SETUP_TOKEN`). No credential besides the token.',
        body: z
          .strictObject({
            setup_token: z
              .string()
              .min(1)
              .max(200)
              .describe('The one-time token the server printed at start'),
            email: emailSchema,
            password: passwordSchema,
            account_name: z.string().trim().min(1).max(120).optional().describe('Default: "My account"'),
          })
          .meta({ examples: [SETUP_EXAMPLE] }),
        response: {
          201: z
            .object({
              account_id: z.uuid(),
              user_id: z.uuid(),
              api_key: z.string().describe('An all-scope key, `tk_live_…`: shown only here'),
            })
            .meta({ description: 'The server is set up', examples: [SET_UP_EXAMPLE] }),
          401: codedErrorSchema.describe('`unauthorized`: wrong setup token'),
          409: codedErrorSchema.describe('`already_set_up`: the server already has an account'),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await accounts.setup(request.body)),
  );
}
