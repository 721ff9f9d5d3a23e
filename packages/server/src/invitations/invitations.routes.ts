/**
 * Invitations: admins invite, list and revoke (a session, or a key whose creator is still an
 * admin, as for members); the invited person accepts with a password and is signed in.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.js';
import { principalOf, type RouteAuth } from '../http/authenticate.js';
import { SIGN_IN_PER_IP_PER_MINUTE } from '../http/rate-limit.js';
import { codedErrorSchema, emailSchema, passwordSchema, roleSchema, uuidParam } from '../http/schemas.js';
import { mailFailureFields } from '../mail/mailer.js';
import { MAX_TOKEN_LENGTH } from '../mail/one-time-link.js';
import type { Services } from '../services.js';
import { setSessionCookie } from '../sign-in/session-cookie.js';
import {
  ACCEPT_INVITATION_EXAMPLE,
  ACCEPTED_INVITATION_EXAMPLE,
  INVITATION_ID_EXAMPLE,
  INVITATION_LIST_EXAMPLE,
  INVITE_EXAMPLE,
  INVITED_EXAMPLE,
} from './invitations.examples.js';

const AUTH: RouteAuth = { accepts: ['key', 'session'], scope: 'config:write' };
const ADMIN_CONFIG = { area: 'account', auth: AUTH, limits: { perCredential: 60 } } as const;
/** Accepting is public: tokens are unguessable, and the budget keeps it that way. */
const ACCEPT_LIMITS = { perIp: SIGN_IN_PER_IP_PER_MINUTE, ipGroup: 'invitation-accept' };

const invitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  role: roleSchema,
  created_at: z.string(),
  expires_at: z.string(),
});

export function registerInvitationRoutes(app: FastifyInstance, deps: { services: Services; config: Config }) {
  const { invitations, sessions } = deps.services;
  const secureCookies = deps.config.publicUrl.startsWith('https://');
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = {
    401: codedErrorSchema,
    403: codedErrorSchema.describe(
      '`forbidden`: not an admin; `insufficient_scope`: the key lacks `config:write`',
    ),
  };

  r.post(
    '/v1/account/invitations',
    {
      config: ADMIN_CONFIG,
      schema: {
        tags: ['account'],
        operationId: 'createInvitation',
        summary: 'Invite a person by email with a role; the one-time link is valid 7 days',
        description:
          'With SMTP configured the link is emailed; `link` is in the answer only when no email was sent ' +
          '(no SMTP, or sending failed). Inviting an email with a pending invitation replaces it. Admins ' +
          'only: a session, or a key with `config:write` whose creator is still an admin.',
        body: z.strictObject({ email: emailSchema, role: roleSchema }).meta({ examples: [INVITE_EXAMPLE] }),
        response: {
          201: invitationSchema
            .omit({ created_at: true })
            .extend({ link: z.string().optional().describe('The one-time link, when no email was sent') })
            .meta({ description: 'The invitation', examples: [INVITED_EXAMPLE] }),
          ...errors,
          409: codedErrorSchema.describe(
            '`email_taken`: a person with this email already exists; `conflict`: the same email was invited at ' +
              'the same moment (retry)',
          ),
        },
      },
    },
    async (request, reply) => {
      const { invitation, link, mailError } = await invitations.invite(principalOf(request), request.body);
      if (mailError) request.log.warn(mailFailureFields(mailError), 'invitation email not sent');
      const { created_at: _, ...shown } = invitation;
      return reply.code(201).send({ ...shown, ...(link === undefined ? {} : { link }) });
    },
  );

  r.get(
    '/v1/account/invitations',
    {
      config: ADMIN_CONFIG,
      schema: {
        tags: ['account'],
        operationId: 'listInvitations',
        summary: 'List pending invitations (not accepted, revoked or expired), newest first',
        description:
          'The invitations still waiting for an answer, newest first; never their links. Admins only, as for ' +
          'inviting.',
        response: {
          200: z
            .object({ invitations: z.array(invitationSchema) })
            .meta({ description: 'The pending invitations', examples: [INVITATION_LIST_EXAMPLE] }),
          ...errors,
        },
      },
    },
    async (request) => ({ invitations: await invitations.list(principalOf(request)) }),
  );

  r.delete(
    '/v1/account/invitations/:invitationId',
    {
      config: ADMIN_CONFIG,
      schema: {
        tags: ['account'],
        operationId: 'revokeInvitation',
        summary: 'Revoke an invitation; its link stops working',
        description:
          'Its link stops working at once; revoking one again is fine. Admins only, as for inviting.',
        params: z.strictObject({
          invitationId: uuidParam.meta({
            description: 'The invitation’s `id`',
            examples: [INVITATION_ID_EXAMPLE],
          }),
        }),
        response: {
          204: z.null().describe('Revoked'),
          ...errors,
          404: codedErrorSchema.describe('No invitation with this id in the account'),
        },
      },
    },
    async (request, reply) => {
      await invitations.revoke(principalOf(request), request.params.invitationId);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/v1/auth/invitations/accept',
    {
      config: { area: 'account', limits: ACCEPT_LIMITS },
      schema: {
        tags: ['account'],
        operationId: 'acceptInvitation',
        summary: 'Accept an invitation with a password; creates the member and signs them in',
        description:
          'Public: the token from the link (after `#token=`) is the credential. Creates the person with the ' +
          'invited email and role and this password, and sets the session cookie. To join through the OpenID ' +
          'Connect provider instead, open `/v1/auth/oidc/start?invitation=<token>`.',
        body: z
          .strictObject({
            token: z.string().min(1).max(MAX_TOKEN_LENGTH).describe('The token of the invitation link'),
            password: passwordSchema,
          })
          .meta({ examples: [ACCEPT_INVITATION_EXAMPLE] }),
        response: {
          201: z.object({ user_id: z.uuid(), account_id: z.uuid(), role: roleSchema }).meta({
            description: 'Joined and signed in (session cookie set)',
            examples: [ACCEPTED_INVITATION_EXAMPLE],
          }),
          400: codedErrorSchema.describe('`invalid_token`: the link is unknown, used, revoked or expired'),
          409: codedErrorSchema.describe('`email_taken`: a person with this email already exists'),
        },
      },
    },
    async (request, reply) => {
      const member = await invitations.acceptWithPassword(request.body);
      const token = await sessions.start({
        userId: member.userId,
        accountId: member.accountId,
        userAgent: request.headers['user-agent'],
      });
      setSessionCookie(reply, token, secureCookies);
      return reply
        .code(201)
        .send({ user_id: member.userId, account_id: member.accountId, role: member.role });
    },
  );
}
