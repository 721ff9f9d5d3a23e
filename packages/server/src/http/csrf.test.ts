/**
 * CSRF protection (http/csrf.ts): writes the session cookie authenticates must come from the
 * server's own origin; key requests, reads and the ingest routes are untouched. `rawRequest`
 * sends exactly the headers given (the harness's `request` adds the dashboard's Origin). The
 * last block signs in with Chromium and sends the same write from the app's page and from a
 * page on another origin (another port of the same host, so the cookie rides along).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, APP_ORIGIN, bearer, login, type TestContext, useTestApp } from '../test/app.js';
import { launchChromium } from '../test/chromium.js';
import { insertSite } from '../test/factories.js';

const REFUSAL = {
  error: 'cross_origin_request',
  message:
    "Requests signed in with the session cookie must come from this server's own origin (Origin or Referer header)",
};

const newDomain = () => `csrf-${randomUUID().slice(0, 8)}.example.com`;

async function domainsOf(t: TestContext): Promise<string[]> {
  const rows = await t.database.db
    .selectFrom('sites')
    .select('domain')
    .where('account_id', '=', t.owner.accountId)
    .execute();
  return rows.map((row) => row.domain);
}

/** The statuses of the CSRF refusals logged so far, oldest first. */
const refusalsLogged = (t: TestContext): number[] =>
  t
    .logs()
    .split('\n')
    .filter((line) => line.includes('"request refused: cross_origin_request"'))
    .map((line) => (JSON.parse(line) as { status: number }).status);

/** POST /v1/sites with the owner's cookie and exactly `headers`; checks what was stored. */
async function createSite(t: TestContext, headers: Record<string, string>) {
  const domain = newDomain();
  const response = await t.rawRequest({
    method: 'POST',
    url: '/v1/sites',
    headers: { cookie: t.owner.cookie, ...headers },
    payload: { domain },
  });
  const isStored = (await domainsOf(t)).includes(domain);
  return { response, isStored };
}

describe('CSRF protection, the server on its own host', () => {
  const t = useTestApp();

  it.each([
    ['Origin of inject’s host', { origin: 'http://localhost' }],
    ['Origin with the default port spelled out', { origin: APP_ORIGIN }],
    ['Origin of PUBLIC_URL (default http://localhost:8080)', { origin: 'http://localhost:8080' }],
    ['Referer on the own origin, no Origin', { referer: 'http://localhost/sites?range=7d' }],
  ])('accepts a cookie write with %s', async (_name, headers) => {
    const { response, isStored } = await createSite(t, headers);
    expect(response.statusCode, response.body).toBe(201);
    expect(isStored).toBe(true);
  });

  it.each([
    ['another host', { origin: 'http://evil.example' }],
    ['another port', { origin: 'http://localhost:3000' }],
    ['another scheme', { origin: 'https://localhost' }],
    ['a subdomain of the own host', { origin: 'http://app.localhost' }],
    ['Origin: null', { origin: 'null' }],
    ['Origin: null beside an own Referer', { origin: 'null', referer: 'http://localhost/' }],
    [
      'a foreign Origin beside an own Referer',
      { origin: 'http://evil.example', referer: 'http://localhost/' },
    ],
    ['a foreign Referer', { referer: 'http://evil.example/page' }],
    ['an Origin that is no URL', { origin: 'not a url' }],
    ['a Referer that is no URL', { referer: '::' }],
    ['a non-web Origin', { origin: 'chrome-extension://abcdefghijklmnop' }],
    ['neither Origin nor Referer', {}],
  ])('refuses a cookie write from %s with 403 and stores nothing', async (_name, headers) => {
    const { response, isStored } = await createSite(t, headers);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(REFUSAL);
    expect(isStored).toBe(false);
  });

  it('ignores X-Forwarded-Host and -Proto from a peer it does not trust', async () => {
    const { response } = await createSite(t, {
      origin: 'https://evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(response.statusCode).toBe(403);
  });

  it('checks PATCH and DELETE too', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const patch = await t.rawRequest({
      method: 'PATCH',
      url: `/v1/sites/${site.id}`,
      headers: { cookie: t.owner.cookie, origin: 'http://evil.example' },
      payload: { name: 'taken over' },
    });
    expect(patch.statusCode).toBe(403);
    const remove = await t.rawRequest({
      method: 'DELETE',
      url: `/v1/sites/${site.id}`,
      headers: { cookie: t.owner.cookie },
      payload: { confirm_domain: site.domain },
    });
    expect(remove.statusCode).toBe(403);
    const stored = await t.database.db
      .selectFrom('sites')
      .select(['name', 'deleted_at'])
      .where('id', '=', site.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: site.name, deleted_at: null });
  });

  it('lets key requests through from anywhere, with or without a cookie along', async () => {
    for (const headers of [
      bearer(t.owner.apiKey),
      { ...bearer(t.owner.apiKey), origin: 'http://evil.example' },
      { ...bearer(t.owner.apiKey), cookie: t.owner.cookie },
      { ...bearer(t.owner.apiKey), cookie: t.owner.cookie, origin: 'null' },
    ]) {
      const domain = newDomain();
      const response = await t.rawRequest({ method: 'POST', url: '/v1/sites', headers, payload: { domain } });
      expect(response.statusCode, response.body).toBe(201);
    }
  });

  it('leaves reads alone', async () => {
    for (const headers of [{}, { origin: 'http://evil.example' }, { origin: 'null' }]) {
      const response = await t.rawRequest({
        method: 'GET',
        url: '/v1/sites',
        headers: { cookie: t.owner.cookie, ...headers },
      });
      expect(response.statusCode).toBe(200);
    }
  });

  it('answers in each area’s error shape', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const foreign = { cookie: t.owner.cookie, origin: 'http://evil.example' };
    const goal = await t.rawRequest({
      method: 'POST',
      url: '/v1/goals',
      headers: foreign,
      payload: { site_id: site.snippet_key, name: 'signup' },
    });
    expect(goal.statusCode).toBe(403);
    expect(goal.json()).toEqual({ error: 'cross_origin_request', statusCode: 403, message: REFUSAL.message });
    const webhook = await t.rawRequest({
      method: 'DELETE',
      url: `/v1/sites/${site.id}/webhooks/${randomUUID()}`,
      headers: foreign,
    });
    expect(webhook.statusCode).toBe(403);
    expect(webhook.json()).toEqual(REFUSAL);
    const key = await t.rawRequest({
      method: 'POST',
      url: '/v1/account/keys',
      headers: foreign,
      payload: { name: 'stolen', scopes: ['stats:read'] },
    });
    expect(key.statusCode).toBe(403);
    expect(key.json()).toEqual(REFUSAL);
  });

  it('covers logout: a foreign page cannot end the session', async () => {
    const cookie = await login(t, ADMIN);
    const foreign = await t.rawRequest({
      method: 'POST',
      url: '/v1/auth/logout',
      headers: { cookie, origin: 'http://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual(REFUSAL);
    const me = await t.rawRequest({ method: 'GET', url: '/v1/auth/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    const own = await t.rawRequest({
      method: 'POST',
      url: '/v1/auth/logout',
      headers: { cookie, origin: 'http://localhost' },
    });
    expect(own.statusCode).toBe(204);
  });

  it.each([
    [
      'POST',
      '/v1/auth/password',
      { current_password: ADMIN.password, new_password: 'another long password' },
    ],
    ['DELETE', '/v1/auth/sessions', undefined],
    ['DELETE', `/v1/auth/sessions/${randomUUID()}`, undefined],
    ['POST', '/v1/auth/totp', undefined],
    ['POST', '/v1/auth/totp/confirm', { code: '123456' }],
    ['DELETE', '/v1/auth/totp', { code: '123456' }],
    ['POST', '/v1/account/invitations', { email: 'new@example.com', role: 'member' }],
  ] as const)('covers the sign-in routes that read the cookie: %s %s', async (method, url, payload) => {
    const response = await t.rawRequest({
      method,
      url,
      headers: { cookie: t.owner.cookie, origin: 'http://evil.example' },
      ...(payload ? { payload } : {}),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(REFUSAL);
    const me = await t.rawRequest({ method: 'GET', url: '/v1/auth/me', headers: { cookie: t.owner.cookie } });
    expect(me.statusCode).toBe(200);
  });

  it('checks a login that carries a cookie; a login without one is not a cookie write', async () => {
    const stale = await t.rawRequest({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { cookie: t.owner.cookie, origin: 'http://evil.example' },
      payload: ADMIN,
    });
    expect(stale.statusCode).toBe(403);
    expect(stale.cookies).toEqual([]);
    const fresh = await t.rawRequest({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { origin: 'http://evil.example' },
      payload: ADMIN,
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('leaves the ingest routes alone: a tracker beacon may carry the cookie', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const response = await t.rawRequest({
      method: 'POST',
      url: t.config.collectPath,
      headers: {
        cookie: t.owner.cookie,
        origin: `https://${site.domain}`,
        'content-type': 'text/plain',
        'user-agent':
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      },
      payload: JSON.stringify({ s: site.snippet_key, t: 'pageview', u: `https://${site.domain}/` }),
    });
    expect(response.statusCode).not.toBe(403);
  });

  it('keeps the cookie and the origin out of the log', async () => {
    await createSite(t, { origin: 'http://secret-origin.example' });
    const logs = t.logs();
    expect(logs).toContain('request refused: cross_origin_request');
    expect(logs).not.toContain(t.owner.cookie.split('=')[1]);
    expect(logs).not.toContain('secret-origin');
  });
});

describe('CSRF protection behind a reverse proxy', () => {
  const t = useTestApp({ PUBLIC_URL: 'https://analytics.example.com', TRUST_PROXY: 'true' });

  it('accepts PUBLIC_URL’s origin whatever host the proxy forwards', async () => {
    const { response, isStored } = await createSite(t, {
      host: 'touchtrail-internal:8080',
      origin: 'https://analytics.example.com',
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(isStored).toBe(true);
  });

  it('accepts the origin a trusted proxy forwards (X-Forwarded-Proto and -Host)', async () => {
    const { response } = await createSite(t, {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'stats.example.org',
      origin: 'https://stats.example.org',
    });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('refuses PUBLIC_URL’s host on the wrong scheme, and other hosts', async () => {
    for (const origin of ['http://analytics.example.com', 'https://evil.example', 'https://example.com']) {
      const { response, isStored } = await createSite(t, { host: 'touchtrail-internal:8080', origin });
      expect(response.statusCode).toBe(403);
      expect(isStored).toBe(false);
    }
  });
});

/** A page on `http://127.0.0.1:<port>`: the same site as the app (ports do not count), another origin. */
function serveBlankPage(): Promise<Server> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>elsewhere</title>');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('CSRF protection in Chromium', () => {
  const t = useTestApp();
  let browser: Browser;
  let elsewhere: Server;
  let appUrl: string;
  let elsewhereUrl: string;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    appUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    elsewhere = await serveBlankPage();
    elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as { port: number }).port}`;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    elsewhere?.close();
  });

  /** Runs in the page: the dashboard's write, with the cookie, as JSON. */
  const postSite = (args: { url: string; domain: string }) =>
    fetch(args.url, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ domain: args.domain }),
    }).then(
      (response) => response.status,
      (error: Error) => `failed: ${error.name}`,
    );

  it('refuses a write from another origin’s page and accepts it from the app’s own', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${appUrl}/healthz`);
      const signedIn = await page.evaluate(
        (who) =>
          fetch('/v1/auth/login', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(who),
          }).then((response) => response.status),
        ADMIN,
      );
      expect(signedIn).toBe(200);

      const ownDomain = newDomain();
      expect(await page.evaluate(postSite, { url: `${appUrl}/v1/sites`, domain: ownDomain })).toBe(201);
      expect(await domainsOf(t)).toContain(ownDomain);

      // From the other origin: a simple request (text/plain, no preflight), as an attacking
      // page would send it, so the browser does send it with the cookie.
      await page.goto(elsewhereUrl);
      const refusedBefore = refusalsLogged(t).length;
      const foreignDomain = newDomain();
      const outcome = await page.evaluate(
        (args) =>
          fetch(args.url, {
            method: 'POST',
            credentials: 'include',
            headers: { 'content-type': 'text/plain' },
            body: JSON.stringify({ domain: args.domain }),
          }).then(
            (response) => response.status,
            (error: Error) => `failed: ${error.name}`,
          ),
        { url: `${appUrl}/v1/sites`, domain: foreignDomain },
      );
      // The page may not read a cross-origin answer; the server's log says what it answered.
      expect(outcome).toBe('failed: TypeError');
      expect(refusalsLogged(t).slice(refusedBefore)).toEqual([403]);
      expect(await domainsOf(t)).not.toContain(foreignDomain);

      // A bodyless write needs no preflight and would succeed without the check: logout.
      await page.evaluate(
        (url) => fetch(url, { method: 'POST', credentials: 'include' }).catch(() => null),
        `${appUrl}/v1/auth/logout`,
      );
      expect(refusalsLogged(t).slice(refusedBefore)).toEqual([403, 403]);
      await page.goto(`${appUrl}/healthz`);
      expect(await page.evaluate(() => fetch('/v1/auth/me').then((response) => response.status))).toBe(200);
    } finally {
      await context.close();
    }
  });
});
