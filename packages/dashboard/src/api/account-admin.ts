/**
 * The account's credentials and people, and the signed-in person's own security: API keys, bot
 * tokens, members, invitations, sessions, the second factor and the password (interface §4.6, §5).
 */
import { queryOptions } from '@tanstack/react-query';
import type { Answer, Body } from './api-types';
import { api } from './http';
import type { Role } from './types';

/** `site_id` is the snippet key of the one site the key reaches; null for every site. */
export type ApiKey = Answer<'listApiKeys'>['keys'][number];
export type Scope = ApiKey['scopes'][number];

export const SCOPES = [
  { key: 'stats:read', label: 'Read statistics' },
  { key: 'config:write', label: 'Change settings of sites, goals and webhooks' },
  { key: 'credentials:write', label: 'Create sites, webhooks and keys' },
  { key: 'ingest:write', label: 'Send server-side events and payments' },
] as const satisfies readonly { key: Scope; label: string }[];

export const apiKeysQuery = queryOptions({
  queryKey: ['api-keys'],
  queryFn: () => api<Answer<'listApiKeys'>>('GET', '/v1/account/keys').then((a) => a.keys),
});

export const createApiKey = (body: Body<'createApiKey'>) =>
  api<Answer<'createApiKey'>>('POST', '/v1/account/keys', { body });

export const revokeApiKey = (id: string) => api<void>('DELETE', `/v1/account/keys/${encodeURIComponent(id)}`);

export type BotToken = Answer<'listBotTokens'>['bot_tokens'][number];

export const botTokensQuery = queryOptions({
  queryKey: ['bot-tokens'],
  queryFn: () => api<Answer<'listBotTokens'>>('GET', '/v1/account/bot-tokens').then((a) => a.bot_tokens),
});

export const createBotToken = (body: Body<'createBotToken'>) =>
  api<Answer<'createBotToken'>>('POST', '/v1/account/bot-tokens', { body });

export const revokeBotToken = (id: string) =>
  api<Answer<'revokeBotToken'>>('DELETE', `/v1/account/bot-tokens/${encodeURIComponent(id)}`);

export type Member = Answer<'listMembers'>['members'][number];

export const membersQuery = queryOptions({
  queryKey: ['members'],
  queryFn: () => api<Answer<'listMembers'>>('GET', '/v1/account/members').then((a) => a.members),
});

export const changeMemberRole = (userId: string, role: Role) =>
  api<Answer<'updateMemberRole'>>('PATCH', `/v1/account/members/${encodeURIComponent(userId)}`, {
    body: { role } satisfies Body<'updateMemberRole'>,
  });

export const removeMember = (userId: string) =>
  api<void>('DELETE', `/v1/account/members/${encodeURIComponent(userId)}`);

export type Invitation = Answer<'listInvitations'>['invitations'][number];

export const invitationsQuery = queryOptions({
  queryKey: ['invitations'],
  queryFn: () => api<Answer<'listInvitations'>>('GET', '/v1/account/invitations').then((a) => a.invitations),
});

/** `link` comes back only when no email was sent: the admin passes it on by hand. */
export const invite = (body: Body<'createInvitation'>) =>
  api<Answer<'createInvitation'>>('POST', '/v1/account/invitations', { body });

export const revokeInvitation = (id: string) =>
  api<void>('DELETE', `/v1/account/invitations/${encodeURIComponent(id)}`);

export type MySession = Answer<'listSignInSessions'>['sessions'][number];

export const mySessionsQuery = queryOptions({
  queryKey: ['my-sessions'],
  queryFn: () => api<Answer<'listSignInSessions'>>('GET', '/v1/auth/sessions').then((a) => a.sessions),
});

export const endSession = (id: string) => api<void>('DELETE', `/v1/auth/sessions/${encodeURIComponent(id)}`);
export const endOtherSessions = () => api<void>('DELETE', '/v1/auth/sessions');

export const beginTotp = () => api<Answer<'startTotpSetup'>>('POST', '/v1/auth/totp');
export const confirmTotp = (code: string) =>
  api<Answer<'confirmTotpSetup'>>('POST', '/v1/auth/totp/confirm', {
    body: { code } satisfies Body<'confirmTotpSetup'>,
  });
export const removeTotp = (code: string) =>
  api<void>('DELETE', '/v1/auth/totp', { body: { code } satisfies Body<'removeTotp'> });

export const changePassword = (body: Body<'changePassword'>) =>
  api<void>('POST', '/v1/auth/password', { body });
