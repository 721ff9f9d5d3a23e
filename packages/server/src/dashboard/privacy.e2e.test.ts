/**
 * The "Privacy requests" settings section in Chromium against the real app: an access request
 * by email completes with what it matched and a download naming the person's visitor ids; an
 * erasure by user id is confirmed in words, completes, and ends the earlier export. A member
 * is told that only an admin may, and gets no form. Checked for accessibility and saved as
 * desktop and phone (dark) screenshots.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useProcessorTestApp } from '../integrations/integrations.fixtures.js';
import { DAY_MS, MINUTE_MS } from '../lib/clock.js';
import { type SeededPerson, seedPerson } from '../privacy/privacy.fixtures.js';
import { login } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import {
  newContext,
  ON_POSTGRES,
  PHONE,
  screenshot,
  seriousViolations,
  settled,
  useChromium,
} from './dashboard.fixtures.js';

const browser = useChromium();

describe.skipIf(ON_POSTGRES)('the privacy requests settings', () => {
  const t = useProcessorTestApp();
  let site: { id: string; snippet_key: string; domain: string };
  let person: SeededPerson;
  const section = () => `/sites/${site.id}/settings/privacy`;
  /** Runs the privacy worker until nothing is left for it. */
  const work = async () => {
    while ((await t.app.services.privacyJobs.runPrivacyOnce()).unfinished.length > 0);
  };

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, {
      domain: 'privacy-dashboard.example.com',
      name: 'Bakery',
    });
    person = await seedPerson(t, site, t.owner.apiKey, 'ada', new Date(Date.now() - 5 * DAY_MS));
  });

  it('answers an access request with a download, then an erasure confirmed in words', async () => {
    const context = await newContext(browser(), t.baseUrl, { cookie: t.owner.cookie });
    const page = await context.newPage();
    await page.goto(`/sites/${site.id}/settings`);
    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link', { name: 'Privacy requests' })
      .click();
    await settled(page);
    expect(new URL(page.url()).pathname).toBe(section());
    expect(await page.getByRole('heading', { name: 'No request yet' }).count()).toBe(1);

    // Access by email: pending at the top of the list, then completed once the worker ran.
    expect(await page.getByRole('radio', { name: 'Get a copy of a person’s data' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: /^Email/ }).check();
    await page.getByRole('textbox', { name: 'Email' }).fill(person.email.toUpperCase());
    await page.getByRole('button', { name: 'Get a copy of their data' }).click();
    await page.getByRole('listitem', { name: 'Access request by email, pending' }).waitFor();
    await work();
    const access = page.getByRole('listitem', { name: 'Access request by email, completed' });
    await access.waitFor();
    const listed = await t.request({
      method: 'GET',
      url: `/v1/privacy/requests?site_id=${site.id}`,
      headers: { cookie: t.owner.cookie },
    });
    const [request] = listed.json().requests;
    const { visitors, visits, events, identity_links } = request.matched;
    expect(await access.textContent()).toContain(
      `Found ${visitors} visitors · ${visits} visits · ${events} events · ${identity_links} identity links · 1 payment · 1 refund`,
    );
    expect(await page.content()).not.toContain(person.email);

    const href = await access.getByRole('link', { name: 'Download' }).getAttribute('href');
    expect(href).toBe(`/v1/privacy/requests/${request.id}/export`);
    const download = await page.request.get(href ?? '');
    expect(download.status()).toBe(200);
    expect(download.headers()['content-type']).toMatch(/^application\/json/);
    expect([...(await download.json()).visitor_ids].sort()).toEqual([...person.visitors].sort());

    // Erasure by user id: asks first, in words, then runs; the earlier export ends with it.
    t.clock.advance(MINUTE_MS);
    await page.getByRole('radio', { name: 'Delete a person’s data' }).check();
    await page.getByRole('radio', { name: /^User id/ }).check();
    await page.getByRole('textbox', { name: 'User id' }).fill(person.userId);
    await page.getByRole('button', { name: 'Delete this person’s data…' }).click();
    const question = page.getByRole('group', { name: /Delete everything stored about the person/ });
    expect(await question.textContent()).toMatch(
      /payments.*amounts.*Daily totals stay.*access request first/,
    );
    expect(await question.evaluate((box) => box === box.ownerDocument.activeElement)).toBe(true);
    await screenshot(page, 'settings-privacy-confirm');
    await question.getByRole('button', { name: 'Delete their data' }).click();
    const erasure = page.getByRole('listitem', { name: /^Erasure request by user id/ });
    await erasure.waitFor();
    expect(await page.getByRole('listitem').first().getAttribute('aria-label')).toMatch(/^Erasure/);
    await work();
    await page.getByRole('listitem', { name: 'Erasure request by user id, completed' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Get a copy of a person’s data' }).isChecked()).toBe(true);
    await settled(page);
    expect(await access.textContent()).toContain('Export expired');
    expect(await access.getByRole('link').count()).toBe(0);

    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'settings-privacy');
    await context.close();

    const phone = await newContext(browser(), t.baseUrl, {
      cookie: t.owner.cookie,
      viewport: PHONE,
      dark: true,
    });
    const small = await phone.newPage();
    await small.goto(section());
    await settled(small);
    expect(await small.getByRole('listitem', { name: /request by/ }).count()).toBe(2);
    const overflow = await small.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow, 'the section scrolls sideways').toBeLessThanOrEqual(0);
    expect(await seriousViolations(small)).toEqual([]);
    await screenshot(small, 'settings-privacy-phone');
    await phone.close();
  });

  it('tells a member that only an admin can, with no form', async () => {
    const member = { email: 'privacy-member@example.com', password: 'member password 1' };
    const added = await t.request({
      method: 'POST',
      url: '/v1/account/members',
      headers: { cookie: t.owner.cookie },
      payload: { ...member, role: 'member' },
    });
    expect(added.statusCode, added.body).toBe(201);
    const context = await newContext(browser(), t.baseUrl, { cookie: await login(t, member) });
    const page = await context.newPage();
    await page.goto(section());
    await settled(page);
    expect(await page.getByText('Only an account-wide admin can make or see privacy requests.').count()).toBe(
      1,
    );
    expect(await page.getByRole('textbox').count()).toBe(0);
    expect(await page.getByRole('radio').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'settings-privacy-member');
    await context.close();
  });
});
