/**
 * Password reset: the public request (202 always) and confirmation, and an admin's reset link
 * for a member (`POST /v1/account/members/{userId}/password-reset`), kept here with its feature.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.js';
import { principalOf, type RouteAuth } from '../http/authenticate.js';
import { SIGN_IN_PER_ACCOUNT_PER_MINUTE, SIGN_IN_PER_IP_PER_MINUTE } from '../http/rate-limit.js';
import { codedErrorSchema, emailSchema, passwordSchema, uuidParam } from '../http/schemas.js';
import { mailFailureFields } from '../mail/mailer.js';
import { MAX_TOKEN_LENGTH } from '../mail/one-time-link.js';
import type { Services } from '../services.js';
import {
  CONFIRM_RESET_EXAMPLE,
  MEMBER_ID_EXAMPLE,
  MEMBER_RESET_LINK_EXAMPLE,
  REQUEST_RESET_EXAMPLE,
} from './password-reset.examples.js';

const AUTH: RouteAuth = { accepts: ['key', 'session'], scope: 'config:write' };
/** Both public routes share one budget per address (DESIGN §8: reset attempts, 10 a minute). */
const PUBLIC_LIMITS = { perIp: SIGN_IN_PER_IP_PER_MINUTE, ipGroup: 'password-reset' };
/** Requests also count per email (5 a minute), known or not, so a 429 tells nothing either. */
const REQUEST_LIMITS = {
  ...PUBLIC_LIMITS,
  perAccount: { max: SIGN_IN_PER_ACCOUNT_PER_MINUTE, group: 'password-reset' },
};

export function registerPasswordResetRoutes(
  app: FastifyInstance,
  deps: { services: Services; config: Config },
) {
  const { passwordReset } = deps.services;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/auth/password-reset',
    {
      config: { area: 'account', limits: REQUEST_LIMITS },
      schema: {
        tags: ['account'],
        operationId: 'requestPasswordReset',
        summary: 'Ask for a password reset link by email; 202 whether or not the email has an account',
        description:
          'Public. With SMTP configured, a one-time link valid 1 hour is emailed to the address if it belongs to ' +
          'someone; without SMTP nothing is sent (an admin can create the link instead). The answer is the ' +
          'same for a known and an unknown email.',
        body: z.strictObject({ email: emailSchema }).meta({ examples: [REQUEST_RESET_EXAMPLE] }),
        response: { 202: z.null().describe('Accepted: a link is emailed if the address belongs to someone') },
      },
    },
    async (request, reply) => {
      await passwordReset.request(request.body.email, (error) =>
        request.log.warn(mailFailureFields(error), 'password reset email not sent'),
      );
      // No body: nothing in the answer may differ between a known and an unknown email.
      return reply.code(202).send(undefined as unknown as null);
    },
  );

  r.post(
    '/v1/auth/password-reset/confirm',
    {
      config: { area: 'account', limits: PUBLIC_LIMITS },
      schema: {
        tags: ['account'],
        operationId: 'confirmPasswordReset',
        summary: "Set a new password with a reset link's token; ends every session of the person",
        description:
          'Public: the token from the link (after `#token=`) is the credential, good once within its hour. ' +
          'Sets the new password (at least 10 characters) and signs the person out everywhere.',
        body: z
          .strictObject({
            token: z.string().min(1).max(MAX_TOKEN_LENGTH).describe('The token of the reset link'),
            password: passwordSchema,
          })
          .meta({ examples: [CONFIRM_RESET_EXAMPLE] }),
        response: {
          204: z.null().describe('Password set'),
          400: codedErrorSchema.describe('`invalid_token`: the link is unknown, used, revoked or expired'),
        },
      },
    },
    async (request, reply) => {
      await passwordReset.confirm(request.body);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/v1/account/members/:userId/password-reset',
    {
      config: { area: 'account', auth: AUTH, limits: { perCredential: 60 } },
      schema: {
        tags: ['account'],
        operationId: 'createMemberPasswordReset',
        summary: "Create a member's one-time password reset link, valid 1 hour",
        description:
          'Without SMTP the answer carries the link for the admin to pass on. With SMTP the link is ' +
          'emailed to the member and `link` is left out (present again if sending failed). Admins only: a ' +
          'session, or a key with `config:write` whose creator is still an admin.',
        params: z.strictObject({
          userId: uuidParam.meta({ description: 'The person’s `user_id`', examples: [MEMBER_ID_EXAMPLE] }),
        }),
        response: {
          201: z
            .object({
              link: z.string().optional().describe('The one-time link, when no email was sent'),
              expires_at: z.string(),
            })
            .meta({ description: 'The link is made', examples: [MEMBER_RESET_LINK_EXAMPLE] }),
          401: codedErrorSchema,
          403: codedErrorSchema.describe(
            '`forbidden`: not an admin; `insufficient_scope`: the key lacks `config:write`',
          ),
          404: codedErrorSchema.describe('No person with this id in the account'),
        },
      },
    },
    async (request, reply) => {
      const { mailError, ...created } = await passwordReset.createForMember(
        principalOf(request),
        request.params.userId,
      );
      if (mailError) request.log.warn(mailFailureFields(mailError), 'password reset email not sent');
      return reply.code(201).send(created);
    },
  );
}
