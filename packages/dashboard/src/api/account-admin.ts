/**
 * The account's credentials and people, and the signed-in person's own security: API keys, bot
 * tokens, members, invitations, sessions, the second factor and the password (interface §4.6, §5).
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from './http';
import type { Role } from './types';

export const SCOPES = [
  { key: 'stats:read', label: 'Read statistics' },
  { key: 'config:write', label: 'Change settings of sites, goals and webhooks' },
  { key: 'credentials:write', label: 'Create sites, webhooks and keys' },
  { key: 'ingest:write', label: 'Send server-side events and payments' },
] as const;
export type Scope = (typeof SCOPES)[number]['key'];

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  /** Snippet key of the one site the key reaches; null for every site. */
  site_id: string | null;
  created_by: string | null;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export const apiKeysQuery = queryOptions({
  queryKey: ['api-keys'],
  queryFn: () => api<{ keys: ApiKey[] }>('GET', '/v1/account/keys').then((a) => a.keys),
});

export const createApiKey = (body: {
  name: string;
  scopes: Scope[];
  site_id?: string | null;
  expires_at?: string | null;
}) => api<ApiKey & { api_key: string }>('POST', '/v1/account/keys', { body });

export const revokeApiKey = (id: string) => api<void>('DELETE', `/v1/account/keys/${encodeURIComponent(id)}`);

export interface BotToken {
  id: string;
  name: string;
  prefix: string;
  snippet_key: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export const botTokensQuery = queryOptions({
  queryKey: ['bot-tokens'],
  queryFn: () => api<{ bot_tokens: BotToken[] }>('GET', '/v1/account/bot-tokens').then((a) => a.bot_tokens),
});

export const createBotToken = (body: { site_id: string; name?: string }) =>
  api<{ id: string; snippet_key: string; name: string; plaintext_token: string; created_at: string }>(
    'POST',
    '/v1/account/bot-tokens',
    { body },
  );

export const revokeBotToken = (id: string) =>
  api<{ id: string; revoked_at: string }>('DELETE', `/v1/account/bot-tokens/${encodeURIComponent(id)}`);

export interface Member {
  user_id: string;
  email: string;
  role: Role;
  created_at: string;
}

export const membersQuery = queryOptions({
  queryKey: ['members'],
  queryFn: () => api<{ members: Member[] }>('GET', '/v1/account/members').then((a) => a.members),
});

export const changeMemberRole = (userId: string, role: Role) =>
  api<{ member: Member }>('PATCH', `/v1/account/members/${encodeURIComponent(userId)}`, { body: { role } });

export const removeMember = (userId: string) =>
  api<void>('DELETE', `/v1/account/members/${encodeURIComponent(userId)}`);

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  created_at: string;
  expires_at: string;
}

export const invitationsQuery = queryOptions({
  queryKey: ['invitations'],
  queryFn: () =>
    api<{ invitations: Invitation[] }>('GET', '/v1/account/invitations').then((a) => a.invitations),
});

/** `link` comes back only when no email was sent: the admin passes it on by hand. */
export const invite = (body: { email: string; role: Role }) =>
  api<Omit<Invitation, 'created_at'> & { link?: string }>('POST', '/v1/account/invitations', { body });

export const revokeInvitation = (id: string) =>
  api<void>('DELETE', `/v1/account/invitations/${encodeURIComponent(id)}`);

export interface MySession {
  id: string;
  current: boolean;
  created_at: string;
  last_used_at: string;
  user_agent: string | null;
}

export const mySessionsQuery = queryOptions({
  queryKey: ['my-sessions'],
  queryFn: () => api<{ sessions: MySession[] }>('GET', '/v1/auth/sessions').then((a) => a.sessions),
});

export const endSession = (id: string) => api<void>('DELETE', `/v1/auth/sessions/${encodeURIComponent(id)}`);
export const endOtherSessions = () => api<void>('DELETE', '/v1/auth/sessions');

export const beginTotp = () => api<{ otpauth_uri: string; secret: string }>('POST', '/v1/auth/totp');
export const confirmTotp = (code: string) =>
  api<{ recovery_codes: string[] }>('POST', '/v1/auth/totp/confirm', { body: { code } });
export const removeTotp = (code: string) => api<void>('DELETE', '/v1/auth/totp', { body: { code } });

export const changePassword = (body: { current_password: string; new_password: string }) =>
  api<void>('POST', '/v1/auth/password', { body });
