/**
 * Two-factor sign-in (DESIGN.md §8): the signed-in person sets up, confirms and removes
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
} from '../sign-in/session-cookie.js';
import { sessionOf } from '../sign-in/session-list.routes.js';
import { SIGNED_IN_EXAMPLE } from '../sign-in/sessions.examples.js';
import { signedInSchema } from '../sign-in/sessions.routes.js';
import { RECOVERY_CODES_EXAMPLE, TOTP_CODE_EXAMPLE, TOTP_SETUP_EXAMPLE } from './second-factor.examples.js';

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
  .meta({
    description: 'Exactly one of `code` (from the app) and `recovery_code`',
    examples: [TOTP_CODE_EXAMPLE],
  });

const wrongCode = codedErrorSchema.describe(
  '`invalid_code` (field `code`): the code is wrong, expired or already used',
);

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
        operationId: 'startTotpSetup',
        summary: 'Start setting up a TOTP second factor; pending until confirmed',
        description:
          'Makes a new authenticator secret for the signed-in person, shown only here (as a QR-code URI and ' +
          'as text); sign-in asks for codes only once POST /v1/auth/totp/confirm succeeds. A new call replaces ' +
          'a pending secret. A dashboard session only.',
        response: {
          200: z
            .object({
              otpauth_uri: z.string().describe('For a QR code an authenticator app scans'),
              secret: z.string().describe('Base32, for typing into an app'),
            })
            .meta({ description: 'The pending secret', examples: [TOTP_SETUP_EXAMPLE] }),
          401: codedErrorSchema,
          409: codedErrorSchema.describe(
            '`second_factor_enrolled`: a second factor is already set up; `password_required`: the person ' +
              'has no password (signs in through OpenID Connect only)',
          ),
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
        operationId: 'confirmTotpSetup',
        summary:
          'Confirm the second factor with a first code; answers 10 one-time recovery codes, shown once',
        description:
          'A first code from the app turns the pending secret on: from now on sign-in asks for a code. The ' +
          'answer holds 10 recovery codes, each good once, for a lost phone; they are shown only here. A ' +
          'dashboard session only; wrong codes count like sign-in attempts.',
        body: z.strictObject({ code: totpCode }).meta({ examples: [TOTP_CODE_EXAMPLE] }),
        response: {
          200: z
            .object({ recovery_codes: z.array(z.string()).length(10) })
            .meta({ description: 'The second factor is on', examples: [RECOVERY_CODES_EXAMPLE] }),
          401: codedErrorSchema,
          403: wrongCode,
          409: codedErrorSchema.describe(
            '`second_factor_not_enrolled`: no pending secret (call POST /v1/auth/totp first); ' +
              '`second_factor_enrolled`: already confirmed',
          ),
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
        operationId: 'removeTotp',
        summary: 'Remove the second factor, with a current code or a recovery code',
        description:
          'Turns the second factor off after one more proof, a code from the app or an unused recovery code; ' +
          'sign-in then asks for the password alone. A dashboard session only; wrong codes count like sign-in ' +
          'attempts.',
        body: z.strictObject({ code: codeOrRecoveryCode }).meta({ examples: [TOTP_CODE_EXAMPLE] }),
        response: {
          204: z.null().describe('Removed'),
          401: codedErrorSchema,
          403: wrongCode,
          409: codedErrorSchema.describe('`second_factor_not_enrolled`: there is no second factor to remove'),
        },
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
        operationId: 'verifySecondFactor',
        summary: 'Finish a sign-in with a TOTP code or a recovery code; sets the session cookie',
        description:
          'Needs the pending sign-in cookie that POST /v1/auth/login set (valid 5 minutes); send exactly one ' +
          'of `code` and `recovery_code`. A recovery code works once. Attempts count per address and per person.',
        body: secondFactorBody,
        response: {
          200: signedInSchema.meta({
            description: 'Signed in (session cookie set)',
            examples: [SIGNED_IN_EXAMPLE],
          }),
          401: codedErrorSchema.describe(
            '`invalid_code`: the code is wrong, expired or used; `sign_in_expired`: no pending sign-in, or it ' +
              'expired (sign in again)',
          ),
        },
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
