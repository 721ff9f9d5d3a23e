/**
 * Two-factor sign-in (issue 21, DESIGN.md §8): the signed-in person sets up, confirms and removes
 * a TOTP second factor; a pending sign-in (the cookie set by POST /v1/auth/login) is completed
 * with a code or a recovery code. Code attempts count like sign-in attempts.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.js';
import {
  type RouteLimits,
  SIGN_IN_PER_ACCOUNT_PER_MINUTE,
  SIGN_IN_PER_IP_PER_MINUTE,
} from '../http/rate-limit.js';
import { codedErrorSchema } from '../http/schemas.js';
import type { Services } from '../services.js';
import {
  clearPendingSignInCookie,
  PENDING_SIGN_IN_COOKIE,
  setSessionCookie,
} from '../sessions/session-cookie.js';
import { sessionOf } from '../sessions/session-list.routes.js';
import { signedInSchema } from '../sessions/sessions.routes.js';

const totpCode = z.string().regex(/^\d{6}$/, 'must be the 6-digit code from the authenticator app');
const codeOrRecoveryCode = z.string().min(1).max(64).describe('A 6-digit code, or one of the recovery codes');
const recoveryCode = z.string().min(1).max(64);

/** Exactly one of `code` and `recovery_code`. */
const secondFactorBody = z
  .strictObject({ code: totpCode.optional(), recovery_code: recoveryCode.optional() })
  .superRefine((body, ctx) => {
    const given = Number(body.code !== undefined) + Number(body.recovery_code !== undefined);
    if (given !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: [given === 0 ? 'code' : 'recovery_code'],
        message: given === 0 ? 'send code or recovery_code' : 'send code or recovery_code, not both',
      });
    }
  })
  .describe('Exactly one of `code` (from the app) and `recovery_code`');

export function registerSecondFactorRoutes(
  app: FastifyInstance,
  deps: { services: Services; config: Config },
) {
  const { secondFactor, sessions } = deps.services;
  const secureCookies = deps.config.publicUrl.startsWith('https://');
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Guesses at a code from a signed-in browser count per person, like sign-in attempts.
  const codeAttempts = (group: string): RouteLimits => ({
    perAccount: { max: SIGN_IN_PER_ACCOUNT_PER_MINUTE, group, key: (request) => sessionOf(request).userId },
  });
  const self = { area: 'account', auth: { accepts: ['session'] } } as const;

  r.post(
    '/v1/auth/totp',
    {
      config: { ...self, limits: { perCredential: 60 } },
      schema: {
        tags: ['account'],
        summary: 'Start setting up a TOTP second factor; pending until confirmed',
        description: 'A new call replaces a pending secret. The secret is shown only here.',
        response: {
          200: z.object({
            otpauth_uri: z.string(),
            secret: z.string().describe('Base32, for typing into an app'),
          }),
          401: codedErrorSchema,
          409: codedErrorSchema,
        },
      },
    },
    async (request) => secondFactor.begin(sessionOf(request).userId),
  );

  r.post(
    '/v1/auth/totp/confirm',
    {
      config: { ...self, limits: codeAttempts('totp-confirm') },
      schema: {
        tags: ['account'],
        summary:
          'Confirm the second factor with a first code; answers 10 one-time recovery codes, shown once',
        body: z.strictObject({ code: totpCode }),
        response: {
          200: z.object({ recovery_codes: z.array(z.string()).length(10) }),
          401: codedErrorSchema,
          403: codedErrorSchema,
          409: codedErrorSchema,
        },
      },
    },
    async (request) => secondFactor.confirm(sessionOf(request).userId, request.body.code),
  );

  r.delete(
    '/v1/auth/totp',
    {
      config: { ...self, limits: codeAttempts('totp-remove') },
      schema: {
        tags: ['account'],
        summary: 'Remove the second factor, with a current code or a recovery code',
        body: z.strictObject({ code: codeOrRecoveryCode }),
        response: { 204: z.null(), 401: codedErrorSchema, 403: codedErrorSchema, 409: codedErrorSchema },
      },
    },
    async (request, reply) => {
      await secondFactor.remove(sessionOf(request).userId, request.body.code);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/v1/auth/login/second-factor',
    {
      config: {
        area: 'account',
        limits: {
          perIp: SIGN_IN_PER_IP_PER_MINUTE,
          ipGroup: 'sign-in',
          perAccount: {
            max: SIGN_IN_PER_ACCOUNT_PER_MINUTE,
            group: 'second-factor',
            key: (request) => {
              const pending = request.cookies[PENDING_SIGN_IN_COOKIE];
              return pending ? sessions.pendingSignInUser(pending) : undefined;
            },
          },
        },
      },
      schema: {
        tags: ['account'],
        summary: 'Finish a sign-in with a TOTP code or a recovery code; sets the session cookie',
        description: 'Needs the pending sign-in cookie that POST /v1/auth/login set (valid 5 minutes).',
        body: secondFactorBody,
        response: { 200: signedInSchema, 401: codedErrorSchema },
      },
    },
    async (request, reply) => {
      const pending = request.cookies[PENDING_SIGN_IN_COOKIE] ?? '';
      const { code, recovery_code } = request.body;
      const proof = code !== undefined ? { code } : { recovery_code: recovery_code ?? '' };
      const { token, ...session } = await sessions.completeSignIn(pending, proof);
      clearPendingSignInCookie(reply, secureCookies);
      setSessionCookie(reply, token, secureCookies);
      return session;
    },
  );
}
