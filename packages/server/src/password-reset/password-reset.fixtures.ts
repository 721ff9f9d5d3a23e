/** Test helpers for password reset: each public call comes from its own address (budgets are per IP). */
import { nextAddress } from '../goals/goals.fixtures.js';
import type { TestApp } from '../test/app.js';

export function requestReset(t: TestApp, payload: unknown, remoteAddress = nextAddress()) {
  return t.request({
    method: 'POST',
    url: '/v1/auth/password-reset',
    remoteAddress,
    payload: payload as object,
  });
}

export function confirmReset(t: TestApp, payload: unknown, remoteAddress = nextAddress()) {
  return t.request({
    method: 'POST',
    url: '/v1/auth/password-reset/confirm',
    remoteAddress,
    payload: payload as object,
  });
}

export function memberResetLink(t: TestApp, headers: Record<string, string>, userId: string) {
  return t.request({ method: 'POST', url: `/v1/account/members/${userId}/password-reset`, headers });
}

/** Adds a member through the API and answers their id and sign-in (`who`). */
export async function addMember(
  t: TestApp,
  cookie: string,
  email: string,
  role: 'admin' | 'member' = 'member',
) {
  const password = 'member passphrase 1';
  const response = await t.request({
    method: 'POST',
    url: '/v1/account/members',
    headers: { cookie },
    payload: { email, password, role },
  });
  if (response.statusCode !== 201) throw new Error(`member not added: ${response.body}`);
  return { userId: response.json().member.user_id as string, who: { email, password } };
}

export async function loginStatus(t: TestApp, who: { email: string; password: string }) {
  const response = await t.request({
    method: 'POST',
    url: '/v1/auth/login',
    remoteAddress: nextAddress(),
    payload: who,
  });
  return response.statusCode;
}
