/**
 * OpenID Connect sign-in against a real oidc-provider (confidential client, ID tokens carrying
 * the email): start, the provider's login form, callback, the member matching rules, every
 * refusal as an HTML page, and logout through the provider.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../lib/clock.js';
import { sha256Hex } from '../lib/secrets.js';
import { ADMIN, bearer, createTestApp, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import {
  callback,
  cookieJar,
  signInAtProvider,
  signInWithProvider,
  startSignIn,
} from './oidc-flow.fixtures.js';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  ID_TOKEN_TTL_S,
  PROVIDER_ACCOUNTS,
  startTestProvider,
  type TestProvider,
} from './oidc-provider.fixtures.js';

const PUBLIC_URL = 'http://localhost:3999';
const env: Record<string, string> = {};
let provider: TestProvider;
// The provider first: the app reads its issuer at start (hooks run in the order declared).
beforeAll(async () => {
  provider = await startTestProvider({ publicUrl: PUBLIC_URL });
  Object.assign(env, {
    PUBLIC_URL,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    OIDC_ALLOWED_DOMAINS: 'allowed.example, other.example',
    OIDC_NAME: 'Test SSO',
  });
});
afterAll(() => provider.close());
const t = useTestApp(env);

/** The reason and library code of the latest refusal in the log. */
function lastRefusal(): { reason: string; code?: string } {
  const line = t
    .logs()
    .split('\n')
    .filter((l) => l.includes('"msg":"sign-in refused"'))
    .at(-1);
  const { reason, code } = JSON.parse(line ?? '{}');
  return { reason, ...(code ? { code } : {}) };
}

const me = (cookie: string) => t.request({ method: 'GET', url: '/v1/auth/me', headers: { cookie } });

/** Asserts a failure page: status, HTML with the reason's words, a link home, nothing secret. */
function expectFailurePage(
  response: { statusCode: number; body: string; headers: Record<string, unknown> },
  status: number,
  words: RegExp,
) {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  expect(response.body).toMatch(words);
  expect(response.body).toContain('<a href="/">');
  expect(response.body).not.toMatch(/@|\s{4}at |node_modules|eyJ/);
  expect(String(response.headers['set-cookie'] ?? '')).not.toMatch(/tt_session=[^;]/);
}

async function addMember(email: string, role = 'member') {
  const response = await t.request({
    method: 'POST',
    url: '/v1/account/members',
    headers: { cookie: t.owner.cookie },
    payload: { email, password: 'a long password', role },
  });
  expect(response.statusCode).toBe(201);
  return response.json().member.user_id as string;
}

describe('GET /v1/auth/providers', () => {
  it('lists the password and the provider with its name and start URL, without credentials', async () => {
    const response = await t.request({ method: 'GET', url: '/v1/auth/providers' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      password: true,
      oidc: { name: 'Test SSO', start_url: `${PUBLIC_URL}/v1/auth/oidc/start` },
    });
  });

  it('answers oidc: null, and 404 pages for the OIDC routes, when no provider is set', async () => {
    const plain = await createTestApp();
    try {
      expect((await plain.request({ method: 'GET', url: '/v1/auth/providers' })).json()).toEqual({
        password: true,
        oidc: null,
      });
      expectFailurePage(
        await plain.request({ method: 'GET', url: '/v1/auth/oidc/start' }),
        404,
        /not set up/,
      );
      expectFailurePage(
        await plain.request({ method: 'GET', url: '/v1/auth/oidc/callback?code=x&state=y' }),
        404,
        /not set up/,
      );
    } finally {
      await plain.close();
    }
  });
});

describe('GET /v1/auth/oidc/start', () => {
  it('redirects to the provider with code flow, PKCE S256, state and nonce, and a sealed 10-minute cookie', async () => {
    const response = await t.request({ method: 'GET', url: '/v1/auth/oidc/start' });
    expect(response.statusCode).toBe(302);
    const location = new URL(String(response.headers.location));
    expect(location.origin + location.pathname).toBe(`${provider.issuer}/auth`);
    const query = Object.fromEntries(location.searchParams);
    expect(query).toEqual({
      client_id: CLIENT_ID,
      response_type: 'code',
      redirect_uri: `${PUBLIC_URL}/v1/auth/oidc/callback`,
      scope: 'openid email profile',
      state: expect.stringMatching(/^[\w-]{43}$/),
      nonce: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
    });
    const cookie = response.cookies.find((c) => c.name === 'tt_oidc');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/v1/auth/oidc', maxAge: 600 });
    // Sealed: neither the state nor the nonce can be read from it.
    const text = Buffer.from(String(cookie?.value), 'base64url').toString('latin1');
    expect(text).not.toContain(query.state);
    expect(text).not.toContain(query.nonce);
  });

  it('refuses a malformed invitation parameter with 422 in the account error shape', async () => {
    const queries: [Record<string, string | string[]>, string][] = [
      [{ invitation: 'x'.repeat(201) }, 'invitation'],
      [{ invitation: '' }, 'invitation'],
      [{ invitation: ['a', 'b'] }, 'invitation'],
      [{ other: '1' }, 'other'],
    ];
    for (const [query, field] of queries) {
      const response = await t.request({ method: 'GET', url: '/v1/auth/oidc/start', query });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({ error: 'validation_failed', message: expect.any(String), field });
    }
  });
});

describe('GET /v1/auth/oidc/callback: who is signed in', () => {
  it('signs a member in by verified email: session cookie, 302 to /, /v1/auth/me and the conversion listing work', async () => {
    const response = await callback(t, await signInAtProvider(t, 'owner'));
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    const session = response.cookies.find((c) => c.name === 'tt_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // The start cookie is spent.
    expect(response.cookies.find((c) => c.name === 'tt_oidc')).toMatchObject({
      value: '',
      path: '/v1/auth/oidc',
    });
    const cookie = `tt_session=${session?.value}`;
    const who = await me(cookie);
    expect(who.statusCode).toBe(200);
    expect(who.json()).toMatchObject({ user: { id: t.owner.userId, email: ADMIN.email }, role: 'admin' });

    const site = await insertSite(t, t.owner.accountId, { domain: 'oidc.example.com' });
    const listing = await t.request({
      method: 'GET',
      url: `/v1/conversions?site_id=${site.id}`,
      headers: { cookie },
    });
    expect(listing.statusCode).toBe(200);
    expect(listing.json()).toMatchObject({ conversions: [], total_count: 0 });
    const byKey = await t.request({
      method: 'GET',
      url: `/v1/conversions?site_id=${site.id}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(byKey.statusCode).toBe(401);
  });

  it('stores the (issuer, sub) link, so an email changed at the provider still signs the person in', async () => {
    const userId = await addMember('mover@example.com');
    const first = await me(await signInWithProvider(t, 'mover'));
    expect(first.json()).toMatchObject({ user: { id: userId, email: 'mover@example.com' }, role: 'member' });
    const link = await t.database.db
      .selectFrom('oidc_links')
      .selectAll()
      .where('subject', '=', 'mover')
      .executeTakeFirst();
    expect(link).toMatchObject({ issuer: provider.issuer, subject: 'mover', user_id: userId });

    PROVIDER_ACCOUNTS.mover = { email: 'moved.away@elsewhere.example', email_verified: false };
    try {
      const again = await me(await signInWithProvider(t, 'mover'));
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ user: { id: userId, email: 'mover@example.com' } });
    } finally {
      PROVIDER_ACCOUNTS.mover = { email: 'mover@example.com', email_verified: true };
    }
  });

  it('does not match by email a member already linked to another account at the provider', async () => {
    await signInWithProvider(t, 'owner');
    PROVIDER_ACCOUNTS.twin = { email: ADMIN.email, email_verified: true };
    const response = await callback(t, await signInAtProvider(t, 'twin'));
    expectFailurePage(response, 403, /another account at the identity provider/);
    expect(lastRefusal()).toEqual({ reason: 'linked_elsewhere' });
  });

  it('never matches an unverified email, even of a member: 403 page, no link stored', async () => {
    await addMember('member@example.com');
    const response = await callback(t, await signInAtProvider(t, 'unverified'));
    expectFailurePage(response, 403, /not verified/);
    const links = await t.database.db
      .selectFrom('oidc_links')
      .select('subject')
      .where('subject', '=', 'unverified')
      .execute();
    expect(links).toEqual([]);
  });

  it('refuses a verified email that is no member and not in an allowed domain: 403 page', async () => {
    const response = await callback(t, await signInAtProvider(t, 'stranger'));
    expectFailurePage(response, 403, /not a member/);
    const user = await t.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'stranger@elsewhere.example')
      .executeTakeFirst();
    expect(user).toBeUndefined();
  });

  it('lets a verified email of an allowed domain join the account as member, without a password', async () => {
    const who = await me(await signInWithProvider(t, 'colleague'));
    expect(who.statusCode).toBe(200);
    expect(who.json()).toMatchObject({
      user: { email: 'new.person@allowed.example' },
      role: 'member',
      account: { id: t.owner.accountId },
    });
    const user = await t.database.db
      .selectFrom('users')
      .select(['id', 'password_hash'])
      .where('email', '=', 'new.person@allowed.example')
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toBeNull();
    // The members listing shows them; password sign-in treats the missing password as a wrong one.
    const members = await t.request({
      method: 'GET',
      url: '/v1/account/members',
      headers: { cookie: t.owner.cookie },
    });
    expect(members.statusCode).toBe(200);
    expect(JSON.stringify(members.json())).toContain('new.person@allowed.example');
    for (const password of ['', 'any password', 'null']) {
      const login = await t.request({
        method: 'POST',
        url: '/v1/auth/login',
        payload: { email: 'new.person@allowed.example', password: password || 'x' },
      });
      expect(login.statusCode).toBe(401);
      expect(login.json()).toEqual({ error: 'invalid_credentials', message: 'Wrong email or password' });
    }
    // Signing in again finds them by the link, not a second user.
    const again = await me(await signInWithProvider(t, 'colleague'));
    expect(again.json().user.id).toBe(user.id);
  });

  it('accepts an invitation carried through start: the invited email joins with the invited role', async () => {
    PROVIDER_ACCOUNTS.invitee = { email: 'Invitee@Example.com', email_verified: true };
    const invite = await t.request({
      method: 'POST',
      url: '/v1/account/invitations',
      headers: { cookie: t.owner.cookie },
      payload: { email: 'invitee@example.com', role: 'admin' },
    });
    expect(invite.statusCode).toBe(201);
    const token = String(invite.json().link).split('#token=')[1] as string;
    const who = await me(await signInWithProvider(t, 'invitee', token));
    expect(who.statusCode).toBe(200);
    expect(who.json()).toMatchObject({ user: { email: 'invitee@example.com' }, role: 'admin' });
    // Used: the same link does not work twice, but the person is now linked anyway.
    expect((await me(await signInWithProvider(t, 'invitee', token))).statusCode).toBe(200);
  });

  it('refuses an invitation for another email: 400 page, nobody created', async () => {
    const invite = await t.request({
      method: 'POST',
      url: '/v1/account/invitations',
      headers: { cookie: t.owner.cookie },
      payload: { email: 'someone.else@example.com', role: 'member' },
    });
    const token = String(invite.json().link).split('#token=')[1] as string;
    const response = await callback(t, await signInAtProvider(t, 'stranger', { invitation: token }));
    expectFailurePage(response, 400, /invitation/);
  });
});

describe('GET /v1/auth/oidc/callback: refusals', () => {
  it('refuses a callback without the start cookie, with a tampered one, or after 10 minutes: 400 page', async () => {
    const redirect = await signInAtProvider(t, 'owner');
    expectFailurePage(
      await t.request({ method: 'GET', url: redirect.callback }),
      400,
      /expired or was started in another browser/,
    );
    const flipped = `${redirect.startCookie.slice(0, -2)}${redirect.startCookie.endsWith('AA') ? 'BB' : 'AA'}`;
    expectFailurePage(await callback(t, { ...redirect, startCookie: flipped }), 400, /expired/);
    t.clock.advance(10 * MINUTE_MS + 1000);
    try {
      expectFailurePage(await callback(t, redirect), 400, /expired/);
    } finally {
      t.clock.advance(-(10 * MINUTE_MS + 1000));
    }
  });

  it('refuses a wrong state: 400 page, and the code is not spent', async () => {
    const redirect = await signInAtProvider(t, 'owner');
    const wrong = redirect.callback.replace(/state=[^&]+/, 'state=not-the-state');
    expectFailurePage(await callback(t, { ...redirect, callback: wrong }), 400, /does not match/);
    // Another browser's callback with this browser's cookie: the states differ too.
    const other = await signInAtProvider(t, 'owner');
    expectFailurePage(await callback(t, { ...redirect, callback: other.callback }), 400, /does not match/);
    expect((await callback(t, redirect)).statusCode).toBe(302);
  });

  it('refuses a replayed callback (same cookie, same state): 400 page', async () => {
    const redirect = await signInAtProvider(t, 'owner');
    expect((await callback(t, redirect)).statusCode).toBe(302);
    expectFailurePage(await callback(t, redirect), 400, /already used/);
  });

  it('refuses an ID token with another nonce than the one this browser started with', async () => {
    const redirect = await signInAtProvider(t, 'owner', {
      editAuthorizationUrl: (url) => url.searchParams.set('nonce', 'a-nonce-from-somewhere-else'),
    });
    expectFailurePage(await callback(t, redirect), 400, /did not pass our checks/);
    expect(lastRefusal()).toEqual({ reason: 'invalid_response', code: 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' });
  });

  it('refuses an expired ID token: our clock past its exp (plus 30 s of tolerance), the start still valid', async () => {
    const redirect = await signInAtProvider(t, 'owner');
    const past = (ID_TOKEN_TTL_S + 31) * 1000 + (Date.now() - t.clock.now().getTime());
    t.clock.advance(past);
    try {
      expectFailurePage(await callback(t, redirect), 400, /did not pass our checks/);
      expect(lastRefusal()).toEqual({ reason: 'invalid_response', code: 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED' });
    } finally {
      t.clock.advance(-past);
    }
  });

  it('refuses an ID token signed with a key the provider never published', async () => {
    const redirect = await signInAtProvider(t, 'owner');
    provider.signWithOtherKey(true);
    try {
      expectFailurePage(await callback(t, redirect), 400, /did not pass our checks/);
      expect(lastRefusal()).toEqual({ reason: 'invalid_response', code: 'OAUTH_INVALID_RESPONSE' });
    } finally {
      provider.signWithOtherKey(false);
    }
  });

  it('shows the provider’s refusal (an error parameter) as a 400 page', async () => {
    const redirect = await signInAtProvider(t, 'owner', {
      editAuthorizationUrl: (url) => url.searchParams.set('prompt', 'none'),
    });
    expect(redirect.callback).toContain('error=login_required');
    expectFailurePage(await callback(t, redirect), 400, /did not complete/);
  });

  it('answers 502 with a clear page when the provider is down at the callback, and recovers', async () => {
    const redirect = await signInAtProvider(t, 'owner');
    await provider.pause();
    try {
      expectFailurePage(await callback(t, redirect), 502, /could not be reached/);
    } finally {
      await provider.resume();
    }
    expect((await callback(t, await signInAtProvider(t, 'owner'))).statusCode).toBe(302);
  });

  it('answers 502 at start when discovery fails, without caching the failure', async () => {
    const down = await createTestApp({ ...env, OIDC_ISSUER: 'http://127.0.0.1:9' });
    try {
      expectFailurePage(
        await down.request({ method: 'GET', url: '/v1/auth/oidc/start' }),
        502,
        /could not be reached/,
      );
      expectFailurePage(
        await down.request({ method: 'GET', url: '/v1/auth/oidc/start' }),
        502,
        /could not be reached/,
      );
    } finally {
      await down.close();
    }
  });

  it('keeps codes, tokens and emails out of the log', async () => {
    const redirect = await signInAtProvider(t, 'stranger');
    await callback(t, redirect);
    const code = new URL(redirect.callback, PUBLIC_URL).searchParams.get('code') as string;
    const logs = t.logs();
    expect(logs).toContain('"reason":"not_member"');
    expect(logs).not.toContain(code);
    expect(logs).not.toContain(redirect.startCookie);
    expect(logs).not.toContain('stranger@elsewhere.example');
    expect(logs).not.toMatch(/eyJ[\w-]+\.eyJ/);
  });
});

describe('GET /v1/auth/oidc/logout', () => {
  it('ends an OIDC session and sends the browser to the provider’s logout, which returns it to PUBLIC_URL', async () => {
    const jar = cookieJar();
    const response = await callback(t, await signInAtProvider(t, 'owner', { jar }));
    const cookie = `tt_session=${response.cookies.find((c) => c.name === 'tt_session')?.value}`;
    const logout = await t.request({ method: 'GET', url: '/v1/auth/oidc/logout', headers: { cookie } });
    expect(logout.statusCode).toBe(302);
    expect(logout.cookies.find((c) => c.name === 'tt_session')).toMatchObject({ value: '' });
    const target = new URL(String(logout.headers.location));
    expect(target.origin + target.pathname).toBe(`${provider.issuer}/session/end`);
    expect(Object.fromEntries(target.searchParams)).toEqual({
      id_token_hint: expect.stringMatching(/^eyJ/),
      post_logout_redirect_uri: `${PUBLIC_URL}/`,
      client_id: CLIENT_ID,
    });
    expect((await me(cookie)).statusCode).toBe(401);
    const row = await t.database.db
      .selectFrom('oidc_sessions')
      .select('session_token_hash')
      .where('session_token_hash', '=', sha256Hex(cookie.split('=')[1] as string))
      .executeTakeFirst();
    expect(row).toBeUndefined();

    // The provider accepts the hint, asks, and sends the browser back to PUBLIC_URL.
    const page = await jar.fetch(target.href);
    expect(page.status).toBe(200);
    const html = await page.text();
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] as string;
    const confirmed = await jar.fetch(`${provider.issuer}/session/end/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${PUBLIC_URL}/`);
  });

  it('ends a password session and redirects to /', async () => {
    const response = await t.request({ method: 'POST', url: '/v1/auth/login', payload: ADMIN });
    const cookie = `tt_session=${response.cookies.find((c) => c.name === 'tt_session')?.value}`;
    const logout = await t.request({ method: 'GET', url: '/v1/auth/oidc/logout', headers: { cookie } });
    expect(logout.statusCode).toBe(302);
    expect(logout.headers.location).toBe('/');
    expect((await me(cookie)).statusCode).toBe(401);
    const none = await t.request({ method: 'GET', url: '/v1/auth/oidc/logout' });
    expect(none.statusCode).toBe(302);
    expect(none.headers.location).toBe('/');
  });

  it('signs nobody out on a navigation from another site', async () => {
    const cookie = await signInWithProvider(t, 'owner');
    const logout = await t.request({
      method: 'GET',
      url: '/v1/auth/oidc/logout',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(logout.statusCode).toBe(302);
    expect(logout.headers.location).toBe('/');
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it('signs a start right after logout in again', async () => {
    const { location } = await startSignIn(t);
    expect(location).toContain(provider.issuer);
  });
});
