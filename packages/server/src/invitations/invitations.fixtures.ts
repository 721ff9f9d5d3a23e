/** Test helpers for invitations: each call comes from its own address (the accept budget is per IP). */
import { nextAddress } from '../goals/goals.fixtures.js';
import { tokenOf } from '../mail/mail.fixtures.js';
import type { TestApp } from '../test/app.js';

export const NEW_PASSWORD = 'a fresh passphrase 42';

export function invite(t: TestApp, headers: Record<string, string>, payload: unknown) {
  return t.request({ method: 'POST', url: '/v1/account/invitations', headers, payload: payload as object });
}

export function listInvitations(t: TestApp, headers: Record<string, string>) {
  return t.request({ method: 'GET', url: '/v1/account/invitations', headers });
}

export function revokeInvitation(t: TestApp, headers: Record<string, string>, id: string) {
  return t.request({ method: 'DELETE', url: `/v1/account/invitations/${id}`, headers });
}

export function acceptInvitation(t: TestApp, payload: unknown) {
  return t.request({
    method: 'POST',
    url: '/v1/auth/invitations/accept',
    remoteAddress: nextAddress(),
    payload: payload as object,
  });
}

/** Invites and answers the invitation with its token (the app has no SMTP: the link is answered). */
export async function invited(
  t: TestApp,
  cookie: string,
  email: string,
  role: 'admin' | 'member' = 'member',
) {
  const response = await invite(t, { cookie }, { email, role });
  if (response.statusCode !== 201) throw new Error(`invitation failed: ${response.body}`);
  const body = response.json() as { id: string; email: string; link: string; expires_at: string };
  return { ...body, token: tokenOf(body.link) };
}

export function sessionCookieOf(response: { cookies: { name: string; value: string }[] }): string {
  const cookie = response.cookies.find((c) => c.name === 'tt_session');
  if (!cookie) throw new Error('no session cookie');
  return `tt_session=${cookie.value}`;
}
