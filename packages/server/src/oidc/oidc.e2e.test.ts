/**
 * OpenID Connect sign-in end to end in Chromium: the app on a real port, the provider's own
 * login form filled in by the browser, the session cookie set by the callback, and sign-out
 * through the provider's logout page back to PUBLIC_URL; then the same from the dashboard's
 * own buttons.
 */
import { createServer } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, useTestApp } from '../test/app.js';
import { launchChromium } from '../test/chromium.js';
import { CLIENT_ID, CLIENT_SECRET, startTestProvider, type TestProvider } from './oidc-provider.fixtures.js';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const env: Record<string, string> = {};
let provider: TestProvider;
let port: number;
beforeAll(async () => {
  port = await freePort();
  env.PUBLIC_URL = `http://127.0.0.1:${port}`;
  provider = await startTestProvider({ publicUrl: env.PUBLIC_URL });
  Object.assign(env, {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
    OIDC_NAME: 'Acme SSO',
  });
});
afterAll(() => provider.close());

describe('OpenID Connect sign-in in a real browser', () => {
  const t = useTestApp(env);
  let browser: Browser;

  beforeAll(async () => {
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('signs in through the provider’s login form and out through its logout page', async () => {
    const base = `http://127.0.0.1:${port}`;
    const context = await browser.newContext();
    const page = await context.newPage();
    const me = () =>
      page.evaluate(async () => {
        const response = await fetch('/v1/auth/me');
        return { status: response.status, body: response.status === 200 ? await response.json() : null };
      });
    try {
      await page.goto(`${base}/v1/auth/oidc/start`);
      expect(page.url()).toContain(`${provider.issuer}/interaction/`);
      await page.fill('input[name="login"]', 'owner');
      await page.fill('input[name="password"]', 'any password');
      await Promise.all([page.waitForURL(`${base}/`), page.click('button[type="submit"]')]);

      const cookies = await context.cookies(base);
      expect(cookies.find((c) => c.name === 'tt_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
      expect(cookies.find((c) => c.name === 'tt_oidc')).toBeUndefined();
      expect(await me()).toMatchObject({
        status: 200,
        body: { user: { email: ADMIN.email }, role: 'admin' },
      });

      await page.goto(`${base}/v1/auth/oidc/logout`);
      expect(page.url()).toContain(`${provider.issuer}/session/end`);
      await Promise.all([page.waitForURL(`${base}/`), page.click('button[name="logout"]')]);
      expect((await me()).status).toBe(401);
    } finally {
      await context.close();
    }
  });

  it('signs in and out from the dashboard’s buttons', async () => {
    const base = `http://127.0.0.1:${port}`;
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${base}/sites`);
      await page.waitForURL(`${base}/login?next=%2Fsites`);
      await page.getByRole('link', { name: 'Continue with Acme SSO' }).click();
      await page.waitForURL(`${provider.issuer}/interaction/**`);
      await page.fill('input[name="login"]', 'owner');
      await page.fill('input[name="password"]', 'any password');
      await Promise.all([page.waitForURL(`${base}/sites`), page.click('button[type="submit"]')]);
      await page.getByRole('heading', { name: 'Sites', exact: true, level: 1 }).waitFor();

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${provider.issuer}/session/end**`);
      await Promise.all([page.waitForURL(`${base}/login**`), page.click('button[name="logout"]')]);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
