/** `POST /v1/setup`: creates the first account, its admin and an all-scope API key, once. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { codedErrorSchema, emailSchema, passwordSchema } from '../http/schemas.js';
import type { AccountsService } from './accounts.service.js';

export function registerSetupRoutes(app: FastifyInstance, { accounts }: { accounts: AccountsService }) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/setup',
    {
      config: { area: 'account', limits: { perIp: 10, ipGroup: 'setup' } },
      schema: {
        tags: ['account'],
        summary: 'Create the first account with the one-time setup token',
        body: z.strictObject({
          setup_token: z.string().min(1).max(200),
          email: emailSchema,
          password: passwordSchema,
          account_name: z.string().trim().min(1).max(120).optional(),
        }),
        response: {
          201: z.object({ account_id: z.uuid(), user_id: z.uuid(), api_key: z.string() }),
          401: codedErrorSchema,
          409: codedErrorSchema,
        },
      },
    },
    async (request, reply) => reply.code(201).send(await accounts.setup(request.body)),
  );
}
