/**
 * The site settings and account pages in Chromium against the real app: site name, currency and
 * attribution model, the cookie domain and its snippet, webhooks to a real HTTPS receiver (secret
 * once, test ping, rotation, the delivery log), deleting a site by its domain and restoring it (a
 * member is told only an admin may), API keys, bot tokens, invitations, the second factor and the
 * person's own sessions. Each page is checked for accessibility and saved as screenshots at
 * desktop and phone widths.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPerson, codeFor, signIn } from '../second-factor/second-factor.fixtures.js';
import { addSite, asKey, siteUuid } from '../sites/sites.fixtures.js';
import { bearer } from '../test/app.js';
import { insertFact, useWebhookTestApp } from '../webhooks/webhooks.test-app.js';
import {
  DESKTOP,
  newContext,
  ON_POSTGRES,
  PHONE,
  readQrCode,
  screenshot,
  seriousViolations,
  serve,
  settled,
  useChromium,
} from './dashboard.fixtures.js';

const browser = useChromium();

describe.skipIf(ON_POSTGRES)('the settings pages', () => {
  // The webhook app trusts the test CA of its HTTPS receivers and lets them listen on 127.0.0.1.
  const w = useWebhookTestApp();
  const t = w.t;
  let base: string;
  let site: { uuid: string; snippetKey: string; domain: string };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const created = await addSite(t, asKey(t.owner.apiKey), 'www.bakery-settings.example.com', {
      name: 'Bakery',
    });
    site = {
      uuid: await siteUuid(t, created.snippet_key),
      snippetKey: created.snippet_key,
      domain: created.domain,
    };
    base = await serve(t);
  }, 120_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  async function open(path: string, options: Parameters<typeof newContext>[2] = {}): Promise<Page> {
    const context = await newContext(browser(), base, { cookie: t.owner.cookie, ...options });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(path);
    await settled(page);
    return page;
  }

  const readSite = async () =>
    (
      await t.request({ method: 'GET', url: `/v1/sites/${site.snippetKey}`, headers: bearer(t.owner.apiKey) })
    ).json();

  async function checkPage(page: Page, name: string) {
    expect(await seriousViolations(page), name).toEqual([]);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
    await screenshot(page, name);
  }

  it('changes the name, currency and attribution model, and says why a currency is refused', async () => {
    const page = await open(`/sites/${site.uuid}/settings`);
    await page.getByLabel('Name', { exact: true }).fill('Corner Bakery');
    await page.getByLabel('Reporting currency').fill('QQQ');
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/currency/i);
    expect((await readSite()).name).toBe('Bakery');

    await page.getByLabel('Reporting currency').fill('EUR');
    await page.getByRole('radio', { name: /Linear/ }).check();
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
    expect(await readSite()).toMatchObject({
      name: 'Corner Bakery',
      currency: 'EUR',
      attribution_model: 'linear',
    });

    // An emptied name clears it: the dashboard shows the domain again.
    await page.getByLabel('Name', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save the changes' }).click();
    await expect.poll(async () => (await readSite()).name).toBeNull();
    await checkPage(page, 'settings-general');
  });

  it('confirms the suggested cookie domain and shows the snippet that carries it', async () => {
    const page = await open(`/sites/${site.uuid}/settings`);
    await page.getByRole('button', { name: 'Use example.com' }).click();
    const snippet = page.getByLabel('Install snippet');
    await expect
      .poll(() => snippet.inputValue())
      .toContain(`data-site="${site.snippetKey}" data-cookie-domain="example.com"`);
    expect((await readSite()).cookie_apex_domain).toBe('example.com');
    await checkPage(page, 'settings-cookie-domain');
    await page.getByRole('button', { name: 'Clear the cookie domain' }).click();
    await expect.poll(async () => (await readSite()).cookie_apex_domain).toBeNull();
  });

  it('adds a webhook to a real receiver, shows its secret once, tests, rotates and lists deliveries', async () => {
    const receiver = await w.startReceiver((_request, response) => response.writeHead(200).end('thanks'));
    const page = await open(`/sites/${site.uuid}/settings/webhooks`);
    expect(await page.getByRole('heading', { name: 'No webhooks yet' }).count()).toBe(1);
    await checkPage(page, 'settings-webhooks-empty');
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('checkbox', { name: /conversion\.attributed/ }).check();
    await page.getByRole('button', { name: 'Add the webhook' }).click();
    const shown = page.getByRole('region', { name: 'Signing secret' });
    await shown.waitFor();
    const secret = (await shown.locator('pre').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_/);
    expect(await shown.textContent()).toContain('Shown once');
    expect(receiver.requests.length).toBe(1);
    await checkPage(page, 'settings-webhook-secret');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect.poll(() => page.content()).not.toContain(secret);

    const item = page.getByRole('listitem', { name: receiver.url });
    expect(await item.textContent()).toContain('Verified');
    await item.getByRole('button', { name: 'Send a test' }).click();
    const result = item.getByRole('status');
    await expect.poll(() => result.textContent()).toMatch(/The endpoint answered.*HTTP 200 in \d+ ms/);
    expect(await result.textContent()).toContain('thanks');
    expect(receiver.requests.length).toBe(2);

    await item.getByRole('button', { name: 'Rotate the secret' }).click();
    await item.getByRole('button', { name: 'Rotate', exact: true }).click();
    const rotated = item.getByRole('region', { name: 'New signing secret' });
    await rotated.waitFor();
    const newSecret = (await rotated.locator('pre').textContent())?.trim();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await rotated.getByRole('button', { name: 'I have stored it' }).click();

    await item.getByRole('button', { name: 'Deliveries' }).click();
    const log = item.getByRole('region', { name: 'Deliveries' });
    await expect.poll(() => log.locator('tbody tr').count()).toBe(2);
    expect(await log.locator('tbody').textContent()).toContain('webhook.ping');
    await checkPage(page, 'settings-webhooks');
    await log.getByLabel('Show deliveries').selectOption('failed');
    await expect.poll(() => log.getByRole('heading', { name: 'No deliveries' }).count()).toBe(1);

    await item.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => item.textContent()).toContain('Disabled');
    await item.getByRole('button', { name: 'Events' }).click();
    await item.getByRole('checkbox', { name: /conversion\.attributed/ }).uncheck();
    await item.getByRole('button', { name: 'Save the events' }).click();
    const listed = async () =>
      (
        await t.request({
          method: 'GET',
          url: `/v1/sites/${site.snippetKey}/webhooks`,
          headers: bearer(t.owner.apiKey),
        })
      ).json().webhooks;
    await expect.poll(async () => (await listed())[0]?.event_types).toEqual(['ai_session.classified']);
    expect((await listed())[0]?.enabled).toBe(false);
    expect(t.logs()).not.toContain(secret);

    await item.getByRole('button', { name: 'Delete' }).click();
    await item.getByRole('button', { name: 'Delete', exact: true }).last().click();
    await expect.poll(async () => (await listed()).length).toBe(0);
  });

  it('pages the delivery log back with “Older deliveries”', async () => {
    const busy = await addSite(t, asKey(t.owner.apiKey), 'busy-settings.example.net');
    const uuid = await siteUuid(t, busy.snippet_key);
    const receiver = await w.startReceiver();
    const added = await t.request({
      method: 'POST',
      url: `/v1/sites/${busy.snippet_key}/webhooks`,
      headers: bearer(t.owner.apiKey),
      payload: { url: receiver.url },
    });
    expect(added.statusCode).toBe(201);
    for (let i = 0; i < 25; i++) await insertFact(t, uuid);
    await t.app.services.webhooks.runDeliveriesOnce();

    const page = await open(`/sites/${uuid}/settings/webhooks`);
    const item = page.getByRole('listitem', { name: receiver.url });
    await item.getByRole('button', { name: 'Deliveries' }).click();
    const log = item.getByRole('region', { name: 'Deliveries' });
    await expect.poll(() => log.locator('tbody tr').count()).toBe(20);
    await log.getByRole('button', { name: 'Older deliveries' }).click();
    await expect.poll(() => log.locator('tbody tr').count()).toBe(26);
    expect(await log.getByRole('button', { name: 'Older deliveries' }).count()).toBe(0);
    await log.getByLabel('Show deliveries').selectOption('succeeded');
    await expect.poll(() => log.locator('tbody tr').count()).toBe(20);
  });

  it('deletes a site only with its domain typed, shows the date and restores it', async () => {
    const doomed = await addSite(t, asKey(t.owner.apiKey), 'doomed-settings.example.org');
    const uuid = await siteUuid(t, doomed.snippet_key);
    const page = await open(`/sites/${uuid}/settings/danger`);
    await checkPage(page, 'settings-danger');
    await page.getByLabel('Type doomed-settings.example.org to confirm').fill('doomed.example.org');
    await page.getByRole('button', { name: 'Delete the site' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/does not match/);

    await page.getByLabel('Type doomed-settings.example.org to confirm').fill('doomed-settings.example.org');
    await page.getByRole('button', { name: 'Delete the site' }).click();
    const status = page.getByRole('status').filter({ hasText: 'will be erased on' });
    await status.waitFor();
    const expected = new Date(t.clock.now().getTime() + 30 * 86_400_000).toLocaleString('en', {
      dateStyle: 'medium',
    });
    expect(await status.textContent()).toContain(expected);
    await checkPage(page, 'settings-danger-scheduled');
    const gone = await t.request({
      method: 'GET',
      url: `/v1/sites/${doomed.snippet_key}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(gone.statusCode).toBe(404);

    await page.getByRole('button', { name: 'Restore doomed-settings.example.org' }).click();
    await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
    const back = await t.request({
      method: 'GET',
      url: `/v1/sites/${doomed.snippet_key}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(back.statusCode).toBe(200);
  });

  it('tells a member that only an admin can delete a site, and keeps the site', async () => {
    const kept = await addSite(t, asKey(t.owner.apiKey), 'kept-settings.example.org');
    const uuid = await siteUuid(t, kept.snippet_key);
    const member = await addPerson(t);
    const page = await open(`/sites/${uuid}/settings/danger`, { cookie: await signIn(t, member) });
    await expect
      .poll(() => page.getByText(/Only an admin of the account can delete a site\./).count())
      .toBe(1);
    // No form to fill in: neither the confirmation field nor the button is there.
    expect(await page.getByLabel('Type kept-settings.example.org to confirm').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete the site' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Delete this site' }).count()).toBe(1);
    await checkPage(page, 'settings-danger-member');
    // Retention deletes data too: a member sees the settings but cannot change them.
    await page.getByRole('link', { name: 'General', exact: true }).click();
    await page.getByLabel('Raw events').waitFor();
    expect(await page.getByLabel('Raw events').isDisabled()).toBe(true);
    expect(await page.getByLabel('Visits and visitors').isDisabled()).toBe(true);
    expect(await page.getByLabel('Name', { exact: true }).isDisabled()).toBe(false);
    const still = await t.request({
      method: 'GET',
      url: `/v1/sites/${kept.snippet_key}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(still.statusCode).toBe(200);
  });

  it('creates an API key shown once, and revokes it', async () => {
    const page = await open('/account');
    await page.getByLabel('Name', { exact: true }).fill('Nightly export');
    await page.getByRole('checkbox', { name: /config:write/ }).check();
    await page.getByLabel('Sites it reaches').selectOption(site.uuid);
    await page.getByRole('button', { name: 'Create the key' }).click();
    const shown = page.getByRole('region', { name: 'The API key' });
    await shown.waitFor();
    const key = (await shown.locator('pre').textContent())?.trim() ?? '';
    expect(key).toMatch(/^tk_live_/);
    const works = await t.request({
      method: 'GET',
      url: `/v1/sites/${site.snippetKey}`,
      headers: bearer(key),
    });
    expect(works.statusCode).toBe(200);
    await checkPage(page, 'settings-api-key-created');
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await expect.poll(() => page.content()).not.toContain(key);

    const item = page.getByRole('listitem', { name: 'Nightly export' });
    expect(await item.textContent()).toContain('stats:read, config:write');
    await item.getByRole('button', { name: 'Revoke' }).click();
    await item.getByRole('button', { name: 'Revoke', exact: true }).last().click();
    await expect.poll(() => item.textContent()).toContain('Revoked');
    const refused = await t.request({
      method: 'GET',
      url: `/v1/sites/${site.snippetKey}`,
      headers: bearer(key),
    });
    expect(refused.statusCode).toBe(401);
    await checkPage(page, 'settings-api-keys');
  });

  it('creates a bot token with its snippet key, and revokes it', async () => {
    const page = await open('/account/bot-tokens');
    await page.getByLabel('Name (optional)').fill('Edge worker');
    await page.getByRole('button', { name: 'Create the token' }).click();
    const shown = page.getByRole('region', { name: 'The bot token' });
    await shown.waitFor();
    expect((await shown.locator('pre').textContent())?.trim()).toMatch(/^tt_bot_/);
    expect(await shown.textContent()).toMatch(/site key ttid_/);
    await shown.getByRole('button', { name: 'I have stored it' }).click();
    const item = page.getByRole('listitem', { name: 'Edge worker' });
    await item.getByRole('button', { name: 'Revoke' }).click();
    await item.getByRole('button', { name: 'Revoke', exact: true }).last().click();
    await expect.poll(() => item.textContent()).toContain('Revoked');
    await checkPage(page, 'settings-bot-tokens');
  });

  it('invites a member and lists the pending invitation', async () => {
    const page = await open('/account/members');
    expect(await page.getByRole('listitem', { name: 'owner@example.com' }).textContent()).toContain('You');
    await page.getByLabel('Email').fill('new.colleague@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.getByRole('button', { name: 'Send the invitation' }).click();
    const pending = page.getByRole('list', { name: 'Pending invitations' });
    await expect.poll(() => pending.textContent()).toContain('new.colleague@example.com');
    await checkPage(page, 'settings-members');
    const invitations = await t.request({
      method: 'GET',
      url: '/v1/account/invitations',
      headers: { cookie: t.owner.cookie },
    });
    expect(invitations.json().invitations).toEqual([
      expect.objectContaining({ email: 'new.colleague@example.com', role: 'admin' }),
    ]);
    await page
      .getByRole('list', { name: 'Pending invitations' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await page.getByRole('button', { name: 'Revoke', exact: true }).last().click();
    await expect.poll(() => page.getByRole('list', { name: 'Pending invitations' }).count()).toBe(0);
  });

  it('changes a member’s role and removes them', async () => {
    const person = await addPerson(t);
    const page = await open('/account/members');
    const members = async () =>
      (
        await t.request({ method: 'GET', url: '/v1/account/members', headers: { cookie: t.owner.cookie } })
      ).json().members as { email: string; role: string }[];
    await page.getByLabel(`Role of ${person.email}`).selectOption('admin');
    await expect
      .poll(async () => (await members()).find((m) => m.email === person.email)?.role)
      .toBe('admin');
    const item = page.getByRole('listitem', { name: person.email });
    await item.getByRole('button', { name: 'Remove' }).click();
    await item.getByRole('button', { name: 'Remove', exact: true }).last().click();
    await expect.poll(async () => (await members()).some((m) => m.email === person.email)).toBe(false);
    await expect.poll(() => page.getByRole('listitem', { name: person.email }).count()).toBe(0);
  });

  it('sets up two-factor sign-in with a code and shows the recovery codes once', async () => {
    const person = await addPerson(t);
    const page = await open('/account/security', { cookie: await signIn(t, person) });
    await checkPage(page, 'settings-security');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const key = page.locator('.totp-secret');
    await key.waitFor();
    const secret = ((await key.textContent()) ?? '').replace(/\s/g, '');
    const uri = await page.getByRole('link', { name: 'Open in an authenticator app' }).getAttribute('href');
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(
      await readQrCode(page.getByRole('img', { name: /^QR code of the authenticator set-up link/ })),
    ).toBe(uri);
    await checkPage(page, 'settings-two-factor-setup');
    await page.getByLabel('6-digit code from the app').fill('000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => page.getByRole('alert').count()).toBe(1);
    await page.getByLabel('6-digit code from the app').fill(codeFor(t, secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('region', { name: 'Recovery codes' });
    await codes.waitFor();
    expect(await codes.getByRole('listitem').count()).toBe(10);
    await checkPage(page, 'settings-two-factor-codes');
    const login = await t.request({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: person.email, password: person.password },
      remoteAddress: '203.0.113.77',
    });
    expect(login.json()).toEqual({ second_factor_required: true });

    const recoveryCode = ((await codes.getByRole('listitem').first().textContent()) ?? '').trim();
    await codes.getByRole('button', { name: 'I have stored them' }).click();
    await expect.poll(() => page.content()).not.toContain(recoveryCode);
    await page.getByLabel('A code from the app, or a recovery code').fill(recoveryCode);
    await page.getByRole('button', { name: 'Turn off' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Two-factor sign-in is off');
    await signIn(t, person);
  });

  it('changes the password', async () => {
    const person = await addPerson(t);
    const page = await open('/account/security', { cookie: await signIn(t, person) });
    await page.getByLabel('Current password').fill(person.password);
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByLabel('New password again').fill('a brand new passphrase!');
    expect(await page.getByRole('button', { name: 'Change the password' }).isDisabled()).toBe(true);
    await page.getByLabel('New password again').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Password changed');
    await signIn(t, { ...person, password: 'a brand new passphrase' });
  });

  it('lists the person’s sessions with this one marked, and signs another out', async () => {
    const person = await addPerson(t);
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
    const other = await signIn(t, person, firefox);
    const page = await open('/account/sessions', { cookie: await signIn(t, person) });
    const sessions = page.getByRole('list', { name: 'Sessions' });
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
    expect(await sessions.getByRole('listitem', { name: /this session/ }).count()).toBe(1);
    await checkPage(page, 'settings-sessions');
    const item = sessions.getByRole('listitem', { name: 'Firefox on Linux' });
    await item.getByRole('button', { name: 'Sign out' }).click();
    await item.getByRole('button', { name: 'Sign it out' }).click();
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
    await signIn(t, person, firefox);
    await signIn(t, person, firefox);
    await page.reload();
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(3);
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.getByRole('button', { name: 'Sign them out' }).click();
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
    const me = await t.request({ method: 'GET', url: '/v1/auth/me', headers: { cookie: other } });
    expect(me.statusCode).toBe(401);

    // A member sees why the people of the account are not theirs to manage.
    await page.getByRole('link', { name: 'Members' }).click();
    const refusal = page.getByRole('alert');
    await expect.poll(() => refusal.textContent()).toMatch(/admin/i);
    expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await checkPage(page, 'settings-members-refused');
  });

  it('is readable at phone width and in the dark theme', async () => {
    const receiver = await w.startReceiver();
    const added = await t.request({
      method: 'POST',
      url: `/v1/sites/${site.snippetKey}/webhooks`,
      headers: bearer(t.owner.apiKey),
      payload: { url: receiver.url },
    });
    expect(added.statusCode).toBe(201);
    for (const [name, path, options] of [
      ['settings-general-phone', `/sites/${site.uuid}/settings`, { viewport: PHONE }],
      ['settings-webhooks-phone', `/sites/${site.uuid}/settings/webhooks`, { viewport: PHONE }],
      ['settings-danger-phone', `/sites/${site.uuid}/settings/danger`, { viewport: PHONE }],
      ['settings-api-keys-phone', '/account', { viewport: PHONE }],
      ['settings-members-phone', '/account/members', { viewport: PHONE }],
      ['settings-sessions-phone', '/account/sessions', { viewport: PHONE }],
      ['settings-security-phone', '/account/security', { viewport: PHONE }],
      ['settings-general-dark', `/sites/${site.uuid}/settings`, { viewport: DESKTOP, dark: true }],
      ['settings-api-keys-dark', '/account', { viewport: DESKTOP, dark: true }],
    ] as const) {
      const page = await open(path, options);
      await checkPage(page, name);
      await page.context().close();
    }
  });
});
