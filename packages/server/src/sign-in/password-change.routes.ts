/**
 * `POST /v1/auth/password`: the signed-in person changes their password, giving the current
 * one; their other sessions end. A wrong current password is 403, not 401: the session itself
 * is fine, and a 401 would tell the dashboard to sign in again.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SIGN_IN_PER_ACCOUNT_PER_MINUTE } from '../http/rate-limit.js';
import { codedErrorSchema, passwordSchema } from '../http/schemas.js';
import { sessionOf } from './session-list.routes.js';
import { CHANGE_PASSWORD_EXAMPLE } from './sessions.examples.js';
import type { SessionsService } from './sessions.service.js';

export function registerPasswordChangeRoute(app: FastifyInstance, sessions: SessionsService) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/password',
    {
      config: {
        area: 'account',
        auth: { accepts: ['session'] },
        // Guesses at the current password from a stolen session count like sign-in attempts.
        limits: {
          perAccount: {
            max: SIGN_IN_PER_ACCOUNT_PER_MINUTE,
            group: 'password-change',
            key: (request) => sessionOf(request).userId,
          },
        },
      },
      schema: {
        tags: ['account'],
        operationId: 'changePassword',
        summary: 'Change your password; ends your other sessions',
        description:
          'The signed-in person sets a new password (at least 10 characters), giving the current one; their ' +
          'other sessions end and this one stays. A dashboard session only. Attempts count like sign-in attempts.',
        body: z
          .strictObject({ current_password: z.string().min(1).max(1024), new_password: passwordSchema })
          .meta({ examples: [CHANGE_PASSWORD_EXAMPLE] }),
        response: {
          204: z.null().describe('Password changed'),
          401: codedErrorSchema,
          403: codedErrorSchema.describe(
            '`invalid_credentials` (field `current_password`): the current password is wrong',
          ),
        },
      },
    },
    async (request, reply) => {
      const { userId, token } = sessionOf(request);
      await sessions.changePassword(userId, token, {
        current: request.body.current_password,
        next: request.body.new_password,
      });
      return reply.code(204).send(null);
    },
  );
}
