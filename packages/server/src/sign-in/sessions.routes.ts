/** Dashboard sign-in: login sets an HttpOnly session cookie; logout removes it. Also wires the session list and password change. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AccountsService } from '../accounts/accounts.service.js';
import { principalOf, SESSION_COOKIE } from '../http/authenticate.js';
import { SIGN_IN_PER_ACCOUNT_PER_MINUTE, SIGN_IN_PER_IP_PER_MINUTE } from '../http/rate-limit.js';
import { codedErrorSchema, emailSchema, roleSchema } from '../http/schemas.js';
import type { SecondFactorService } from '../second-factor/second-factor.service.js';
import { registerPasswordChangeRoute } from './password-change.routes.js';
import { clearSessionCookie, setPendingSignInCookie, setSessionCookie } from './session-cookie.js';
import { registerSessionListRoutes } from './session-list.routes.js';
import { LOGIN_EXAMPLE, ME_EXAMPLE, SIGNED_IN_EXAMPLE } from './sessions.examples.js';
import type { SessionsService } from './sessions.service.js';

/** What a completed sign-in answers, with a password alone or after the second factor. */
export const signedInSchema = z.object({ user_id: z.uuid(), account_id: z.uuid(), role: roleSchema });

export function registerSessionRoutes(
  app: FastifyInstance,
  deps: {
    sessions: SessionsService;
    accounts: AccountsService;
    secondFactor: Pick<SecondFactorService, 'isEnrolled'>;
    secureCookies: boolean;
  },
) {
  const { sessions, accounts, secondFactor, secureCookies } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  registerSessionListRoutes(app, sessions);
  registerPasswordChangeRoute(app, sessions);

  r.post(
    '/v1/auth/login',
    {
      config: {
        area: 'account',
        limits: {
          perIp: SIGN_IN_PER_IP_PER_MINUTE,
          ipGroup: 'sign-in',
          perAccount: { max: SIGN_IN_PER_ACCOUNT_PER_MINUTE, group: 'login' },
        },
      },
      schema: {
        tags: ['account'],
        operationId: 'login',
        summary: 'Sign in with email and password; sets the session cookie',
        description:
          'Public. Sets the HttpOnly session cookie `tt_session` for the dashboard. With a second factor set ' +
          'up, answers `{second_factor_required: true}` and sets a pending sign-in cookie (5 minutes) instead; ' +
          'POST /v1/auth/login/second-factor then gives the session. Attempts count per address and per account.',
        body: z
          .strictObject({ email: emailSchema, password: z.string().min(1).max(1024) })
          .meta({ examples: [LOGIN_EXAMPLE] }),
        response: {
          200: z.union([signedInSchema, z.object({ second_factor_required: z.literal(true) })]).meta({
            description: 'Signed in (session cookie set), or a second factor is asked for',
            examples: [SIGNED_IN_EXAMPLE],
          }),
          401: codedErrorSchema.describe('`invalid_credentials`: wrong email or password'),
        },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const result = await sessions.signIn(email, password, request.headers['user-agent']);
      if (result.kind === 'second_factor') {
        setPendingSignInCookie(reply, result.pendingToken, secureCookies);
        return { second_factor_required: true as const };
      }
      setSessionCookie(reply, result.token, secureCookies);
      return { user_id: result.user_id, account_id: result.account_id, role: result.role };
    },
  );

  r.post(
    '/v1/auth/logout',
    {
      config: { area: 'account' },
      schema: {
        tags: ['account'],
        operationId: 'logout',
        summary: 'Sign out; ends the session',
        description:
          'Ends the session of the `tt_session` cookie, if there is one, and clears the cookie. Always 204, ' +
          'signed in or not. To sign out through the OpenID Connect provider, navigate to /v1/auth/oidc/logout.',
        response: { 204: z.null().describe('Signed out') },
      },
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
        operationId: 'getMe',
        summary: 'The signed-in person, their role and account',
        description:
          'Who the dashboard session belongs to: the person, whether they use a second factor, their role ' +
          'and their account with its plan and site limit. A dashboard session only; a key gets 401.',
        response: {
          200: z
            .object({
              user: z.object({
                id: z.uuid(),
                email: z.string(),
                second_factor: z.boolean().describe('Whether sign-in asks this person for a TOTP code'),
              }),
              role: roleSchema,
              account: z.object({
                id: z.uuid(),
                name: z.string(),
                plan: z.string(),
                site_limit: z.number().int(),
                region: z.enum(['us', 'eu']),
              }),
            })
            .meta({ description: 'The signed-in person', examples: [ME_EXAMPLE] }),
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
        user: {
          id: member.user_id,
          email: member.email,
          second_factor: await secondFactor.isEnrolled(principal.userId),
        },
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
