/** The signed-in person's own sessions: list them, end one, end all but this one. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf, SESSION_COOKIE } from '../http/authenticate.js';
import { codedErrorSchema, uuidParam } from '../http/schemas.js';
import { SESSION_ID_EXAMPLE, SESSION_LIST_EXAMPLE } from './sessions.examples.js';
import type { SessionsService } from './sessions.service.js';

const CONFIG = { area: 'account', auth: { accepts: ['session'] }, limits: { perCredential: 60 } } as const;

const sessionSchema = z.object({
  id: z.uuid(),
  current: z.boolean().describe('True for the session making this request'),
  created_at: z.string(),
  last_used_at: z.string().describe('Updated at most once a minute'),
  user_agent: z
    .string()
    .nullable()
    .describe('The browser, as it named itself at sign-in (first 200 characters)'),
});

/** The person and cookie of a session-only route (authentication already passed). */
export function sessionOf(request: FastifyRequest): { userId: string; token: string } {
  const principal = principalOf(request);
  const token = request.cookies[SESSION_COOKIE];
  if (principal.kind !== 'session' || !token) throw new Error('session route reached without a session');
  return { userId: principal.userId, token };
}

export function registerSessionListRoutes(app: FastifyInstance, sessions: SessionsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/v1/auth/sessions',
    {
      config: CONFIG,
      schema: {
        tags: ['account'],
        operationId: 'listSignInSessions',
        summary: "The signed-in person's sessions, most recently used first",
        description:
          'The dashboard sign-ins of the person making the request (not visitor sessions), most recently used ' +
          'first, with the browser each began in; `current` marks this one. A dashboard session only.',
        response: {
          200: z
            .object({ sessions: z.array(sessionSchema) })
            .meta({ description: 'Your sessions', examples: [SESSION_LIST_EXAMPLE] }),
          401: codedErrorSchema,
        },
      },
    },
    async (request) => {
      const { userId, token } = sessionOf(request);
      return { sessions: await sessions.listForUser(userId, token) };
    },
  );

  r.delete(
    '/v1/auth/sessions/:id',
    {
      config: CONFIG,
      schema: {
        tags: ['account'],
        operationId: 'endSignInSession',
        summary: 'End one of your sessions (it is signed out)',
        description:
          'Signs one of your own sessions out, for example a browser left signed in elsewhere; it may be this ' +
          'one. A dashboard session only.',
        params: z.strictObject({
          id: uuidParam.meta({ description: 'The session’s `id`', examples: [SESSION_ID_EXAMPLE] }),
        }),
        response: {
          204: z.null().describe('Ended'),
          401: codedErrorSchema,
          404: codedErrorSchema.describe('No session of yours with this id'),
        },
      },
    },
    async (request, reply) => {
      await sessions.endOne(sessionOf(request).userId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  r.delete(
    '/v1/auth/sessions',
    {
      config: CONFIG,
      schema: {
        tags: ['account'],
        operationId: 'endOtherSignInSessions',
        summary: 'End all your sessions but this one',
        description: 'Signs you out everywhere else; this session stays. A dashboard session only.',
        response: { 204: z.null().describe('Ended'), 401: codedErrorSchema },
      },
    },
    async (request, reply) => {
      const { userId, token } = sessionOf(request);
      await sessions.endOthers(userId, token);
      return reply.code(204).send(null);
    },
  );
}
