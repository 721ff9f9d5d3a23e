/**
 * OpenID Connect sign-in (DESIGN §8): the providers list, the start redirect, the callback and
 * the logout through the provider. Start, callback and logout are browser navigations, so they
 * answer redirects, and the callback's failures are small HTML pages rather than JSON.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.js';
import { SESSION_COOKIE } from '../http/authenticate.js';
import { MAX_TOKEN_LENGTH } from '../mail/one-time-link.js';
import type { Services } from '../services.js';
import { clearSessionCookie, isSecureCookie, setSessionCookie } from '../sign-in/session-cookie.js';
import { PROVIDERS_EXAMPLE } from './oidc.examples.js';
import { OIDC_START_VALID_MS } from './oidc.service.js';
import { OidcSignInError } from './oidc-errors.js';
import { sendFailurePage } from './oidc-page.js';

export const OIDC_START_COOKIE = 'tt_oidc';
const START_COOKIE_PATH = '/v1/auth/oidc';

export function registerOidcRoutes(app: FastifyInstance, deps: { services: Services; config: Config }) {
  const { oidc } = deps.services;
  const secure = deps.config.publicUrl.startsWith('https://');
  const startCookie = (reply: FastifyReply) =>
    ({
      httpOnly: true,
      sameSite: 'lax',
      secure: isSecureCookie(reply, secure),
      path: START_COOKIE_PATH,
    }) as const;
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Renders a sign-in failure; anything else is a bug or an outage, shown without its details. */
  function fail(reply: FastifyReply, error: unknown) {
    if (!(error instanceof OidcSignInError)) {
      reply.log.error({ err: error }, 'OpenID Connect sign-in failed');
      return sendFailurePage(reply, 500, 'Something went wrong on our side. Please try again.');
    }
    // The reason and the library's error code only: its messages and causes may quote the provider's answer.
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    reply.log.warn(
      { reason: error.reason, ...(typeof code === 'string' ? { code } : {}) },
      'sign-in refused',
    );
    return sendFailurePage(reply, error.status, error.message);
  }

  r.get(
    '/v1/auth/providers',
    {
      config: { area: 'account' },
      schema: {
        tags: ['account'],
        operationId: 'listSignInProviders',
        summary: 'The ways to sign in: the password, and the OpenID Connect provider when one is set',
        description:
          'Public, for the sign-in page: password sign-in is always offered; `oidc` names the configured ' +
          'OpenID Connect provider and the URL that starts signing in with it, or is null when none is set.',
        response: {
          200: z
            .object({
              password: z.literal(true),
              oidc: z
                .object({
                  name: z.string().describe('The provider’s name, for the button'),
                  start_url: z.string().describe('Navigate the browser here to sign in with the provider'),
                })
                .nullable(),
            })
            .meta({ description: 'The ways to sign in', examples: [PROVIDERS_EXAMPLE] }),
        },
      },
    },
    async () => ({ password: true as const, oidc: oidc.providerLink() }),
  );

  r.get(
    '/v1/auth/oidc/start',
    {
      config: { area: 'account' },
      schema: {
        tags: ['account'],
        operationId: 'startOidcSignIn',
        summary: 'Start signing in with the OpenID Connect provider (a browser navigation)',
        description:
          'Public. Answers 302 to the provider (authorization code with PKCE S256, state and nonce) and sets a ' +
          'sealed 10-minute cookie for the callback. `invitation` carries an invitation token: the ' +
          "person then joins if the provider's verified email is the invited one. 404 (an HTML page) " +
          'when no provider is set, 502 when the provider cannot be reached.',
        querystring: z.strictObject({
          invitation: z
            .string()
            .min(1)
            .max(MAX_TOKEN_LENGTH)
            .optional()
            .describe('An invitation token, to join the account by signing in with the provider'),
        }),
        response: {
          302: z
            .null()
            .describe('`Location`: the provider’s authorization endpoint; the `tt_oidc` start cookie is set'),
        },
      },
    },
    async (request, reply) => {
      try {
        const { redirectUrl, cookie } = await oidc.begin({ invitation: request.query.invitation });
        reply.setCookie(OIDC_START_COOKIE, cookie, {
          ...startCookie(reply),
          maxAge: OIDC_START_VALID_MS / 1000,
        });
        return reply.header('cache-control', 'no-store').redirect(redirectUrl, 302);
      } catch (error) {
        return fail(reply, error);
      }
    },
  );

  r.get(
    '/v1/auth/oidc/callback',
    {
      config: { area: 'account' },
      schema: {
        tags: ['account'],
        operationId: 'finishOidcSignIn',
        summary: "The provider's redirect back: signs the person in (a browser navigation)",
        description:
          'Public; the provider sends the browser here. Takes the query the provider sends (`code`, `state`, ' +
          '`iss`, or `error`) and the start cookie. On success sets the ' +
          'session cookie and answers 302 to `/`. Every failure is a small HTML page with a link back ' +
          'to `/`: 400 (expired or foreign start, wrong or replayed state, failed ID token check, ' +
          'provider refusal, bad invitation), 403 (unverified email, not a member), 502 (provider down).',
        response: { 302: z.null().describe('Signed in: `Location: /`, with the session cookie set') },
      },
    },
    async (request, reply) => {
      const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
      reply.clearCookie(OIDC_START_COOKIE, startCookie(reply));
      try {
        const token = await oidc.finish({
          search,
          startCookie: request.cookies[OIDC_START_COOKIE],
          userAgent: request.headers['user-agent'],
        });
        setSessionCookie(reply, token, secure);
        return reply.header('cache-control', 'no-store').redirect('/', 302);
      } catch (error) {
        return fail(reply, error);
      }
    },
  );

  r.get(
    '/v1/auth/oidc/logout',
    {
      config: { area: 'account' },
      schema: {
        tags: ['account'],
        operationId: 'logoutWithOidc',
        summary: 'Sign out, through the provider when the session began there (a browser navigation)',
        description:
          "Public. Ends the session and answers 302: to the provider's logout (`end_session_endpoint`, with " +
          '`id_token_hint` and `post_logout_redirect_uri` = PUBLIC_URL + `/`) when the session began ' +
          'there and the provider offers one, else to `/`. A navigation from another site ' +
          '(`Sec-Fetch-Site: cross-site`) signs nobody out.',
        response: {
          302: z
            .null()
            .describe('`Location`: the provider’s logout endpoint, or `/`; the session cookie is cleared'),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      // A GET a page on another site could trigger: browsers say where a navigation came from.
      if (request.headers['sec-fetch-site'] === 'cross-site') return reply.redirect('/', 302);
      const destination = await oidc.logout(request.cookies[SESSION_COOKIE]);
      clearSessionCookie(reply, secure);
      return reply.redirect(destination ?? '/', 302);
    },
  );
}
