/**
 * Drives an OpenID Connect sign-in as a browser would, with real HTTP: the app's start route
 * (inject), then the provider's authorization endpoint and login form (fetch, redirects followed
 * by hand, the provider's cookies carried), up to the redirect back to the app's callback.
 */
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../test/app.js';

export interface ProviderRedirect {
  /** The app's callback path and query, as the provider redirected to it. */
  callback: string;
  /** The sealed start cookie the app set. */
  startCookie: string;
}

/** The provider's cookies, sent back to it on every request (paths do not matter here). */
export type CookieJar = ReturnType<typeof cookieJar>;

export function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    async fetch(url: string, init: RequestInit = {}): Promise<Response> {
      const response = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: {
          ...(init.headers as Record<string, string>),
          cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      return response;
    },
  };
}

export async function startSignIn(
  t: TestApp,
  invitation?: string,
): Promise<{ location: string; startCookie: string }> {
  const start = await t.request({
    method: 'GET',
    url: '/v1/auth/oidc/start',
    query: invitation ? { invitation } : {},
  });
  if (start.statusCode !== 302) throw new Error(`start answered ${start.statusCode}: ${start.body}`);
  const cookie = start.cookies.find((c) => c.name === 'tt_oidc');
  if (!cookie) throw new Error('no start cookie');
  return { location: String(start.headers.location), startCookie: cookie.value };
}

/** Logs `login` in at the provider's form, from the authorization URL to the redirect back. */
export async function loginAtProvider(
  authorizationUrl: string,
  login: string,
  jar = cookieJar(),
): Promise<string> {
  const origin = new URL(authorizationUrl).origin;
  let response = await jar.fetch(authorizationUrl);
  for (let step = 0; step < 10; step++) {
    if (response.status === 200) {
      const html = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action || !html.includes('name="login"'))
        throw new Error(`unexpected provider page: ${html.slice(0, 300)}`);
      response = await jar.fetch(new URL(action, origin).href, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any password' }).toString(),
      });
      continue;
    }
    const location = response.headers.get('location');
    if (!location || response.status < 300 || response.status > 399) {
      throw new Error(`provider answered ${response.status}: ${await response.text()}`);
    }
    const next = new URL(location, origin);
    if (next.origin !== origin) return next.href;
    response = await jar.fetch(next.href);
  }
  throw new Error('too many provider redirects');
}

/** Start, provider login, and the redirect back (not yet followed). */
export async function signInAtProvider(
  t: TestApp,
  login: string,
  options: { invitation?: string; editAuthorizationUrl?: (url: URL) => void; jar?: CookieJar } = {},
): Promise<ProviderRedirect> {
  const { location, startCookie } = await startSignIn(t, options.invitation);
  const url = new URL(location);
  options.editAuthorizationUrl?.(url);
  const back = new URL(await loginAtProvider(url.href, login, options.jar));
  return { callback: back.pathname + back.search, startCookie };
}

export function callback(t: TestApp, redirect: ProviderRedirect): Promise<LightMyRequestResponse> {
  return t.request({ method: 'GET', url: redirect.callback, cookies: { tt_oidc: redirect.startCookie } });
}

/** The full sign-in; answers the session `Cookie` header value. */
export async function signInWithProvider(t: TestApp, login: string, invitation?: string): Promise<string> {
  const response = await callback(t, await signInAtProvider(t, login, { invitation }));
  if (response.statusCode !== 302)
    throw new Error(`callback answered ${response.statusCode}: ${response.body}`);
  const session = response.cookies.find((c) => c.name === 'tt_session');
  if (!session) throw new Error('no session cookie');
  return `tt_session=${session.value}`;
}
