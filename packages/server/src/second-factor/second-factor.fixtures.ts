/**
 * Helpers for the second-factor and session suites: a new person per test (each with their own
 * per-account budget), sign-in from a fresh client address (the per-address budget is 10 a
 * minute), and codes computed with `otpauth` at the test clock's time.
 */
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { nextAddress } from '../goals/goals.fixtures.js';
import { newId } from '../lib/ids.js';
import type { TestApp, TestContext } from '../test/app.js';

export interface Person {
  userId: string;
  email: string;
  password: string;
}

/** A new member of the owner's account, with an email and password of their own. */
export async function addPerson(t: TestContext): Promise<Person> {
  const email = `person-${newId()}@example.com`;
  const password = 'person passphrase 1';
  const response = await t.request({
    method: 'POST',
    url: '/v1/account/members',
    headers: { cookie: t.owner.cookie },
    remoteAddress: nextAddress(),
    payload: { email, password, role: 'member' },
  });
  if (response.statusCode !== 201) throw new Error(`member not added: ${response.body}`);
  return { userId: response.json().member.user_id, email, password };
}

export function postLogin(t: TestApp, who: { email: string; password: string }, address = nextAddress()) {
  const payload = { email: who.email, password: who.password };
  return t.request({ method: 'POST', url: '/v1/auth/login', remoteAddress: address, payload });
}

export function cookieValue(response: LightMyRequestResponse, name: string): string | undefined {
  return response.cookies.find((c) => c.name === name)?.value;
}

/** Signs in with the password alone (no second factor) and answers the `Cookie` header. */
export async function signIn(t: TestApp, who: Person, userAgent?: string): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/v1/auth/login',
    remoteAddress: nextAddress(),
    headers: userAgent ? { 'user-agent': userAgent } : {},
    payload: { email: who.email, password: who.password },
  });
  const token = cookieValue(response, 'tt_session');
  if (response.statusCode !== 200 || !token) throw new Error(`sign-in failed: ${response.body}`);
  return `tt_session=${token}`;
}

/** The 6-digit code an authenticator app shows at `at` (the test clock's now by default). */
export function codeFor(t: TestApp, secret: string, offsetMs = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: t.clock.now().getTime() + offsetMs });
}

export function send(
  t: TestApp,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  cookie: string,
  payload?: object,
) {
  return t.request({
    method,
    url,
    remoteAddress: nextAddress(),
    headers: { cookie },
    ...(payload ? { payload } : {}),
  });
}

/** Sets up and confirms a second factor for the person behind `cookie`. */
export async function enrol(
  t: TestApp,
  cookie: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const begun = await send(t, 'POST', '/v1/auth/totp', cookie);
  if (begun.statusCode !== 200) throw new Error(`enrolment failed: ${begun.body}`);
  const { secret } = begun.json();
  const confirmed = await send(t, 'POST', '/v1/auth/totp/confirm', cookie, { code: codeFor(t, secret) });
  if (confirmed.statusCode !== 200) throw new Error(`confirmation failed: ${confirmed.body}`);
  // The confirming code's step is now spent; later codes in a test come from later steps.
  t.clock.advance(30_000);
  return { secret, recoveryCodes: confirmed.json().recovery_codes };
}

/** The password step for a person with a second factor: answers the pending sign-in cookie. */
export async function startSignIn(t: TestApp, who: Person, address = nextAddress()): Promise<string> {
  const response = await postLogin(t, who, address);
  const pending = cookieValue(response, 'tt_signin');
  if (response.statusCode !== 200 || !pending) throw new Error(`password step failed: ${response.body}`);
  return `tt_signin=${pending}`;
}

export function secondFactor(t: TestApp, pendingCookie: string, payload: object, address = nextAddress()) {
  return t.request({
    method: 'POST',
    url: '/v1/auth/login/second-factor',
    remoteAddress: address,
    headers: { cookie: pendingCookie },
    payload,
  });
}
