/** Dashboard sign-in: login sets an HttpOnly session cookie; logout removes it. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountsService } from '../accounts/accounts.service.js';
import { principalOf, SESSION_COOKIE } from '../http/authenticate.js';
import { codedErrorSchema, emailSchema, roleSchema } from '../http/schemas.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';
import type { SessionsService } from './sessions.service.js';

export function registerSessionRoutes(
  app: FastifyInstance,
  deps: { sessions: SessionsService; accounts: AccountsService; secureCookies: boolean },
) {
  const { sessions, accounts, secureCookies } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/auth/login',
    {
      config: { area: 'account', limits: { perIp: 20, ipGroup: 'login' } },
      schema: {
        tags: ['account'],
        summary: 'Sign in with email and password; sets the session cookie',
        body: z.strictObject({ email: emailSchema, password: z.string().min(1).max(1024) }),
        response: {
          200: z.object({ user_id: z.uuid(), account_id: z.uuid(), role: roleSchema }),
          401: codedErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { token, ...session } = await sessions.login(request.body.email, request.body.password);
      setSessionCookie(reply, token, secureCookies);
      return session;
    },
  );

  r.post(
    '/v1/auth/logout',
    {
      config: { area: 'account' },
      schema: { tags: ['account'], summary: 'Sign out; ends the session', response: { 204: z.null() } },
    },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await sessions.logout(token);
      clearSessionCookie(reply, secureCookies);
      return reply.code(204).send(null);
    },
  );

  r.get(
    '/v1/auth/me',
    {
      config: { area: 'account', auth: { accepts: ['session'] } },
      schema: {
        tags: ['account'],
        summary: 'The signed-in person, their role and account',
        response: {
          200: z.object({
            user: z.object({ id: z.uuid(), email: z.string() }),
            role: roleSchema,
            account: z.object({
              id: z.uuid(),
              name: z.string(),
              plan: z.string(),
              site_limit: z.number().int(),
              region: z.enum(['us', 'eu']),
            }),
          }),
          401: codedErrorSchema,
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (principal.kind !== 'session') throw new Error('session route reached without a session');
      const member = await accounts.getMember(principal.accountId, principal.userId);
      const account = await accounts.getAccount(principal.accountId);
      return {
        user: { id: member.user_id, email: member.email },
        role: member.role,
        account: {
          id: account.id,
          name: account.name,
          plan: account.plan,
          site_limit: account.site_limit,
          region: account.region,
        },
      };
    },
  );
}
