/** The people of an account: admins only (a session, or a key whose creator is still an admin). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf, type RouteAuth } from '../http/authenticate.js';
import { codedErrorSchema, emailSchema, passwordSchema, roleSchema, uuidParam } from '../http/schemas.js';
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

export function registerMemberRoutes(app: FastifyInstance, { accounts }: { accounts: AccountsService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = {
    401: codedErrorSchema,
    403: codedErrorSchema,
    404: codedErrorSchema,
    409: codedErrorSchema,
  };
  const params = z.strictObject({ userId: uuidParam });

  r.get(
    '/v1/account/members',
    {
      config: CONFIG,
      schema: {
        tags: ['account'],
        summary: 'List the people of the account',
        response: { 200: z.object({ members: z.array(memberSchema) }), ...errors },
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
        summary: 'Add a person with a password and a role',
        body: z.strictObject({ email: emailSchema, password: passwordSchema, role: roleSchema }),
        response: { 201: z.object({ member: memberSchema }), ...errors },
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
        summary: "Change a person's role; the last admin cannot be demoted",
        params,
        body: z.strictObject({ role: roleSchema }),
        response: { 200: z.object({ member: memberSchema }), ...errors },
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
        summary: 'Remove a person; the last admin cannot be removed',
        params,
        response: { 204: z.null().describe('Removed'), ...errors },
      },
    },
    async (request, reply) => {
      await accounts.removeMember(principalOf(request), request.params.userId);
      return reply.code(204).send(null);
    },
  );
}
