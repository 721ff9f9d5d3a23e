/**
 * The account's credentials and people, and the signed-in person's own security: API keys, bot
 * tokens, members, invitations, sessions, the second factor and the password (interface §4.6, §5).
 */
import { queryOptions } from '@tanstack/react-query';
import type { ApiKeyScope } from '@touchtrail/client';
import type { Answer, Body } from './api-types';
import { api, unwrap } from './http';
import type { Role } from './types';

/** `site_id` is the snippet key of the one site the key reaches; null for every site. */
export type ApiKey = Answer<'listApiKeys'>['keys'][number];

export const SCOPES = [
  { key: 'stats:read', label: 'Read statistics' },
  { key: 'config:write', label: 'Change settings of sites, goals and webhooks' },
  { key: 'credentials:write', label: 'Create sites, webhooks and keys' },
  { key: 'ingest:write', label: 'Send server-side events and payments' },
] as const satisfies readonly { key: ApiKeyScope; label: string }[];

/** A scope the API adds without a label here fails `tsc`: `satisfies` alone checks only one way. */
const everyScopeLabelled: [Exclude<ApiKeyScope, (typeof SCOPES)[number]['key']>] extends [never]
  ? true
  : never = true;
void everyScopeLabelled;

const byId = (id: string) => ({ params: { path: { id } } });

export const apiKeysQuery = queryOptions({
  queryKey: ['api-keys'],
  queryFn: () => unwrap(api.GET('/v1/account/keys')).then((a) => a.keys),
});

export const createApiKey = (body: Body<'createApiKey'>) => unwrap(api.POST('/v1/account/keys', { body }));

export const revokeApiKey = (id: string) => unwrap(api.DELETE('/v1/account/keys/{id}', byId(id)));

export type BotToken = Answer<'listBotTokens'>['bot_tokens'][number];

export const botTokensQuery = queryOptions({
  queryKey: ['bot-tokens'],
  queryFn: () => unwrap(api.GET('/v1/account/bot-tokens')).then((a) => a.bot_tokens),
});

export const createBotToken = (body: Body<'createBotToken'>) =>
  unwrap(api.POST('/v1/account/bot-tokens', { body }));

export const revokeBotToken = (tokenId: string) =>
  unwrap(api.DELETE('/v1/account/bot-tokens/{tokenId}', { params: { path: { tokenId } } }));

export type Member = Answer<'listMembers'>['members'][number];

export const membersQuery = queryOptions({
  queryKey: ['members'],
  queryFn: () => unwrap(api.GET('/v1/account/members')).then((a) => a.members),
});

export const changeMemberRole = (userId: string, role: Role) =>
  unwrap(api.PATCH('/v1/account/members/{userId}', { params: { path: { userId } }, body: { role } }));

export const removeMember = (userId: string) =>
  unwrap(api.DELETE('/v1/account/members/{userId}', { params: { path: { userId } } }));

export type Invitation = Answer<'listInvitations'>['invitations'][number];

export const invitationsQuery = queryOptions({
  queryKey: ['invitations'],
  queryFn: () => unwrap(api.GET('/v1/account/invitations')).then((a) => a.invitations),
});

/** `link` comes back only when no email was sent: the admin passes it on by hand. */
export const invite = (body: Body<'createInvitation'>) =>
  unwrap(api.POST('/v1/account/invitations', { body }));

export const revokeInvitation = (invitationId: string) =>
  unwrap(api.DELETE('/v1/account/invitations/{invitationId}', { params: { path: { invitationId } } }));

export type MySession = Answer<'listSignInSessions'>['sessions'][number];

export const mySessionsQuery = queryOptions({
  queryKey: ['my-sessions'],
  queryFn: () => unwrap(api.GET('/v1/auth/sessions')).then((a) => a.sessions),
});

export const endSession = (id: string) => unwrap(api.DELETE('/v1/auth/sessions/{id}', byId(id)));
export const endOtherSessions = () => unwrap(api.DELETE('/v1/auth/sessions'));

export const beginTotp = () => unwrap(api.POST('/v1/auth/totp'));
export const confirmTotp = (code: string) => unwrap(api.POST('/v1/auth/totp/confirm', { body: { code } }));
export const removeTotp = (code: string) => unwrap(api.DELETE('/v1/auth/totp', { body: { code } }));

export const changePassword = (body: Body<'changePassword'>) =>
  unwrap(api.POST('/v1/auth/password', { body }));
