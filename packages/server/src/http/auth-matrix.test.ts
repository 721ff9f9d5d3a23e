/**
 * Every authenticated route against every kind of bad credential. Each route lists what it
 * accepts and the scope a key needs; adding a route means adding its row here.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../access/principal.js';
import { DAY_MS } from '../lib/clock.js';
import { signInWithProvider } from '../oidc/oidc-flow.fixtures.js';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  startTestProvider,
  type TestProvider,
} from '../oidc/oidc-provider.fixtures.js';
import { bearer, login, mintKey, useTestApp } from '../test/app.js';

interface RouteCase {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  payload?: object;
  /** Scope a key needs; undefined for session-only routes. */
  scope?: Scope;
  adminOnly?: boolean;
}

const ROUTES: RouteCase[] = [
  { method: 'GET', url: '/v1/account/keys', scope: 'credentials:write' },
  {
    method: 'POST',
    url: '/v1/account/keys',
    scope: 'credentials:write',
    payload: { name: 'x', scopes: ['stats:read'] },
  },
  { method: 'DELETE', url: `/v1/account/keys/${randomUUID()}`, scope: 'credentials:write' },
  { method: 'GET', url: '/v1/account/members', scope: 'config:write', adminOnly: true },
  {
    method: 'POST',
    url: '/v1/account/members',
    scope: 'config:write',
    adminOnly: true,
    payload: { email: 'new@example.com', password: 'long enough pw', role: 'member' },
  },
  {
    method: 'PATCH',
    url: `/v1/account/members/${randomUUID()}`,
    scope: 'config:write',
    adminOnly: true,
    payload: { role: 'admin' },
  },
  { method: 'DELETE', url: `/v1/account/members/${randomUUID()}`, scope: 'config:write', adminOnly: true },
  { method: 'GET', url: '/v1/auth/me' },
  {
    method: 'POST',
    url: '/v1/privacy/requests',
    scope: 'config:write',
    adminOnly: true,
    payload: { site_id: randomUUID(), type: 'access', subject: { kind: 'visitor_id', value: 'visitor-1' } },
  },
  { method: 'GET', url: '/v1/privacy/requests', scope: 'config:write', adminOnly: true },
  { method: 'GET', url: '/v1/sites/ttid_0000000000000000000000/export', scope: 'stats:read' },
  { method: 'GET', url: `/v1/privacy/requests/${randomUUID()}`, scope: 'config:write', adminOnly: true },
  {
    method: 'GET',
    url: `/v1/privacy/requests/${randomUUID()}/export`,
    scope: 'config:write',
    adminOnly: true,
  },
];

const ALL_SCOPES: Scope[] = ['stats:read', 'config:write', 'credentials:write', 'ingest:write'];

// An OpenID Connect provider, started before the app reads its issuer: its sessions are sessions too.
const oidcEnv: Record<string, string> = { PUBLIC_URL: 'http://localhost:3997' };
let provider: TestProvider;
beforeAll(async () => {
  provider = await startTestProvider({ publicUrl: 'http://localhost:3997' });
  Object.assign(oidcEnv, {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
  });
});
afterAll(() => provider.close());

describe('authentication matrix', () => {
  const t = useTestApp(oidcEnv);
  let oidcCookie: string;
  let revokedKey: string;
  let expiredKey: string;
  let memberCookie: string;
  let memberKey: string;

  beforeAll(async () => {
    // Before the clock moves: the provider's ID tokens are checked against the app's clock.
    oidcCookie = await signInWithProvider(t, 'owner');
    const revoked = await mintKey(t, t.owner.cookie, { scopes: ALL_SCOPES });
    await t.request({
      method: 'DELETE',
      url: `/v1/account/keys/${revoked.id}`,
      headers: { cookie: t.owner.cookie },
    });
    revokedKey = revoked.api_key;
    expiredKey = (
      await mintKey(t, t.owner.cookie, {
        scopes: ALL_SCOPES,
        expires_at: new Date(t.clock.now().getTime() + DAY_MS).toISOString(),
      })
    ).api_key;
    t.clock.advance(2 * DAY_MS);
    const member = { email: 'member@example.com', password: 'member password 1' };
    await t.request({
      method: 'POST',
      url: '/v1/account/members',
      headers: { cookie: t.owner.cookie },
      payload: { ...member, role: 'member' },
    });
    memberCookie = await login(t, member);
    memberKey = (await mintKey(t, memberCookie, { scopes: ALL_SCOPES })).api_key;
  });

  const send = (route: RouteCase, headers: Record<string, string>) =>
    t.request({
      method: route.method,
      url: route.url,
      headers,
      ...(route.payload ? { payload: route.payload } : {}),
    });

  const BAD_CREDENTIALS: [string, () => Record<string, string>][] = [
    ['no credential', () => ({})],
    ['a Basic header', () => ({ authorization: 'Basic dXNlcjpwYXNz' })],
    ['an empty bearer', () => ({ authorization: 'Bearer ' })],
    ['an unknown key', () => bearer(`tk_live_${'x'.repeat(40)}`)],
    ['a key of the wrong shape', () => bearer('sk_test_123')],
    ['a revoked key', () => bearer(revokedKey)],
    ['an expired key', () => bearer(expiredKey)],
    ['a forged session cookie', () => ({ cookie: `tt_session=${'A'.repeat(43)}` })],
  ];

  for (const route of ROUTES) {
    describe(`${route.method} ${route.url.replace(/[0-9a-f-]{36}/, ':id')}`, () => {
      it.each(BAD_CREDENTIALS)('answers 401 to %s', async (_name, headers) => {
        const response = await send(route, headers());
        expect(response.statusCode).toBe(401);
        expect(response.json()).toMatchObject({ error: 'unauthorized' });
      });

      if (route.scope) {
        it(`answers 403 naming ${route.scope} to a key without it`, async () => {
          const others = ALL_SCOPES.filter((scope) => scope !== route.scope);
          const { api_key } = await mintKey(t, t.owner.cookie, { scopes: others });
          const response = await send(route, bearer(api_key));
          expect(response.statusCode).toBe(403);
          expect(response.json()).toEqual({
            error: 'insufficient_scope',
            required_scope: route.scope,
            message: expect.any(String),
          });
        });
      } else {
        it('answers 401 to a valid API key (session only)', async () => {
          const response = await send(route, bearer(t.owner.apiKey));
          expect(response.statusCode).toBe(401);
        });
      }

      if (route.adminOnly) {
        it('answers 403 forbidden to a member, by session and by key', async () => {
          for (const headers of [{ cookie: memberCookie }, bearer(memberKey)]) {
            const response = await send(route, headers);
            expect(response.statusCode).toBe(403);
            expect(response.json()).toMatchObject({ error: 'forbidden' });
          }
        });
      }

      it('lets the owner through, by password session and by OpenID Connect session', async () => {
        for (const cookie of [t.owner.cookie, oidcCookie]) {
          const response = await send(route, { cookie });
          expect([200, 201, 204, 404, 409]).toContain(response.statusCode);
        }
      });
    });
  }

  describe('GET /v1/conversions (dashboard session only, §4.5)', () => {
    const conversions = (headers: Record<string, string>) =>
      t.request({ method: 'GET', url: `/v1/conversions?site_id=${randomUUID()}&page=1`, headers });

    it('answers every API key, whatever its scopes, with the conversions area’s 401 (§7.5)', async () => {
      const keys: [string, Record<string, string>][] = [
        ['the owner’s key', bearer(t.owner.apiKey)],
        [
          'a key with stats:read only',
          bearer((await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] })).api_key),
        ],
        ['a member’s key', bearer(memberKey)],
        ['a key beside a valid session', { ...bearer(t.owner.apiKey), cookie: t.owner.cookie }],
        ['a key beside an OpenID Connect session', { ...bearer(t.owner.apiKey), cookie: oidcCookie }],
        ...BAD_CREDENTIALS.map(([name, headers]): [string, Record<string, string>] => [name, headers()]),
      ];
      for (const [name, headers] of keys) {
        const response = await conversions(headers);
        expect({ name, status: response.statusCode, body: response.json() }).toEqual({
          name,
          status: 401,
          body: { error: 'Unauthorized', statusCode: 401 },
        });
      }
    });

    it('lets a dashboard session through', async () => {
      // A site of no account: the session is accepted and the site refused (§7.5's 403).
      expect((await conversions({ cookie: t.owner.cookie })).statusCode).toBe(403);
      expect((await conversions({ cookie: oidcCookie })).statusCode).toBe(403);
    });
  });
});
