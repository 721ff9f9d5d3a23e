/** The people of an account: admins only (a session, or a key whose creator is still an admin). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf, type RouteAuth } from '../http/authenticate.js';
import { codedErrorSchema, emailSchema, passwordSchema, roleSchema, uuidParam } from '../http/schemas.js';
import {
  ADD_MEMBER_EXAMPLE,
  CHANGE_ROLE_EXAMPLE,
  MEMBER_EXAMPLE,
  MEMBER_ID_EXAMPLE,
  MEMBER_LIST_EXAMPLE,
} from './accounts.examples.js';
import type { AccountsService } from './accounts.service.js';
import type { MemberRow } from './accounts.store.js';

const AUTH: RouteAuth = { accepts: ['key', 'session'], scope: 'config:write' };
const CONFIG = { area: 'account', auth: AUTH, limits: { perCredential: 60 } } as const;

const memberSchema = z.object({
  user_id: z.uuid(),
  email: z.string(),
  role: roleSchema,
  created_at: z.string(),
});

const present = (member: MemberRow) => ({ ...member, created_at: member.created_at.toISOString() });

const ADMINS_ONLY =
  'Admins only: a dashboard session of an admin, or a key with `config:write` whose creator is still an admin.';
const memberNotFound = codedErrorSchema.describe('No person with this id in the account');
const lastAdmin = codedErrorSchema.describe('`last_admin`: the account must keep at least one admin');

export function registerMemberRoutes(app: FastifyInstance, { accounts }: { accounts: AccountsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = {
    401: codedErrorSchema,
    403: codedErrorSchema.describe(
      '`forbidden`: not an admin; `insufficient_scope`: the key lacks `config:write`',
    ),
  };
  const params = z.strictObject({
    userId: uuidParam.meta({ description: 'The person’s `user_id`', examples: [MEMBER_ID_EXAMPLE] }),
  });

  r.get(
    '/v1/account/members',
    {
      config: CONFIG,
      schema: {
        tags: ['account'],
        operationId: 'listMembers',
        summary: 'List the people of the account',
        description: `The people of the account and their roles, in the order they joined. ${ADMINS_ONLY}`,
        response: {
          200: z
            .object({ members: z.array(memberSchema) })
            .meta({ description: 'The people of the account', examples: [MEMBER_LIST_EXAMPLE] }),
          ...errors,
        },
      },
    },
    async (request) => ({ members: (await accounts.listMembers(principalOf(request))).map(present) }),
  );

  r.post(
    '/v1/account/members',
    {
      config: CONFIG,
      schema: {
        tags: ['account'],
        operationId: 'addMember',
        summary: 'Add a person with a password and a role',
        description:
          'Creates a person who signs in with this email and password (at least 10 characters), with the ' +
          `given role. To let them choose their own password, invite them instead. ${ADMINS_ONLY}`,
        body: z
          .strictObject({ email: emailSchema, password: passwordSchema, role: roleSchema })
          .meta({ examples: [ADD_MEMBER_EXAMPLE] }),
        response: {
          201: z
            .object({ member: memberSchema })
            .meta({ description: 'The person, added', examples: [{ member: MEMBER_EXAMPLE }] }),
          ...errors,
          409: codedErrorSchema.describe('`email_taken`: a person with this email already exists'),
        },
      },
    },
    async (request, reply) => {
      const member = await accounts.addMember(principalOf(request), request.body);
      return reply.code(201).send({ member: present(member) });
    },
  );

  r.patch(
    '/v1/account/members/:userId',
    {
      config: CONFIG,
      schema: {
        tags: ['account'],
        operationId: 'updateMemberRole',
        summary: "Change a person's role; the last admin cannot be demoted",
        description: `Makes a person an admin or a member. ${ADMINS_ONLY} The last admin cannot be demoted (409).`,
        params,
        body: z.strictObject({ role: roleSchema }).meta({ examples: [CHANGE_ROLE_EXAMPLE] }),
        response: {
          200: z.object({ member: memberSchema }).meta({
            description: 'The person, with the new role',
            examples: [{ member: { ...MEMBER_EXAMPLE, role: 'admin' } }],
          }),
          ...errors,
          404: memberNotFound,
          409: lastAdmin,
        },
      },
    },
    async (request) => {
      const member = await accounts.changeRole(
        principalOf(request),
        request.params.userId,
        request.body.role,
      );
      return { member: present(member) };
    },
  );

  r.delete(
    '/v1/account/members/:userId',
    {
      config: CONFIG,
      schema: {
        tags: ['account'],
        operationId: 'removeMember',
        summary: 'Remove a person; the last admin cannot be removed',
        description:
          'Removes the person from the account; their sessions end, and the keys they made stop acting as an ' +
          `admin. ${ADMINS_ONLY} The last admin cannot be removed (409).`,
        params,
        response: { 204: z.null().describe('Removed'), ...errors, 404: memberNotFound, 409: lastAdmin },
      },
    },
    async (request, reply) => {
      await accounts.removeMember(principalOf(request), request.params.userId);
      return reply.code(204).send(null);
    },
  );
}
