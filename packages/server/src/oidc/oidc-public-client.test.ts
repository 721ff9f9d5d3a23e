/**
 * OpenID Connect sign-in as a public client (PKCE only, no client secret) against a provider
 * that, like oidc-provider by default, keeps email claims out of the ID token and answers them
 * from userinfo (OIDC Core 5.4).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';
import { callback, signInAtProvider, signInWithProvider } from './oidc-flow.fixtures.js';
import { CLIENT_ID, startTestProvider, type TestProvider } from './oidc-provider.fixtures.js';

const PUBLIC_URL = 'http://localhost:3998';
const env: Record<string, string> = {};
let provider: TestProvider;
beforeAll(async () => {
  provider = await startTestProvider({ publicUrl: PUBLIC_URL, publicClient: true, claimsFromUserinfo: true });
  Object.assign(env, { PUBLIC_URL, OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: CLIENT_ID });
});
afterAll(() => provider.close());
const t = useTestApp(env);

describe('OpenID Connect as a public client, email from userinfo', () => {
  it('names the provider by its host when OIDC_NAME is unset', async () => {
    const response = await t.request({ method: 'GET', url: '/v1/auth/providers' });
    expect(response.json()).toEqual({
      password: true,
      oidc: { name: '127.0.0.1', start_url: `${PUBLIC_URL}/v1/auth/oidc/start` },
    });
  });

  it('signs the owner in through PKCE alone, matching the verified email userinfo answers', async () => {
    const cookie = await signInWithProvider(t, 'owner');
    const me = await t.request({ method: 'GET', url: '/v1/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ user: { id: t.owner.userId }, role: 'admin' });
    // The ID token (handed back as the logout hint) held no email: it came from userinfo.
    const logout = await t.request({ method: 'GET', url: '/v1/auth/oidc/logout', headers: { cookie } });
    const hint = new URL(String(logout.headers.location)).searchParams.get('id_token_hint') as string;
    const claims = JSON.parse(Buffer.from(hint.split('.')[1] as string, 'base64url').toString());
    expect(claims).toMatchObject({ sub: 'owner', aud: CLIENT_ID });
    expect(claims.email).toBeUndefined();
  });

  it('still refuses an unverified email and, with no allowed domains, anyone not a member', async () => {
    const unverified = await callback(t, await signInAtProvider(t, 'unverified'));
    expect(unverified.statusCode).toBe(403);
    const colleague = await callback(t, await signInAtProvider(t, 'colleague'));
    expect(colleague.statusCode).toBe(403);
    expect(colleague.body).toContain('not a member');
  });

  it('refuses one browser’s code with another browser’s start cookie (its state and PKCE verifier)', async () => {
    const first = await signInAtProvider(t, 'owner');
    const second = await signInAtProvider(t, 'owner');
    const response = await callback(t, { callback: first.callback, startCookie: second.startCookie });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('does not match');
  });
});
