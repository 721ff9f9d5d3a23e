/**
 * The dashboard in Chromium against the real app: a newcomer from the setup token to their first
 * visit, signing in (password, second factor, refusals), the sites list with its refused bot hits,
 * an unknown site's address, and a seeded site's overview with filters kept in the URL, switching
 * sites by mouse and keyboard, each page checked for accessibility and saved as screenshots at
 * desktop and phone widths. Browser suites run once, on the embedded database.
 */
import { createServer } from 'node:http';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { addPerson, codeFor, enrol, signIn } from '../second-factor/second-factor.fixtures.js';
import { addAccount, addSite, asKey, siteUuid } from '../sites/sites.fixtures.js';
import { ADMIN, bearer, SETUP_TOKEN, useTestApp } from '../test/app.js';
import {
  DESKTOP,
  newContext,
  ON_POSTGRES,
  PHONE,
  screenshot,
  seriousViolations,
  serve,
  settled,
  useChromium,
} from './dashboard.fixtures.js';
import { type SeededShop, seedShop } from './dashboard.seed.js';

const browser = useChromium();

describe.skipIf(ON_POSTGRES)('a newcomer', () => {
  const t = useTestApp({}, { owner: false });

  it('goes from the setup token to their first visit without leaving the browser', async () => {
    const base = await serve(t);
    const context = await newContext(browser(), base);
    const page = await context.newPage();
    // A fresh server opens on setup, not on sign-in.
    await page.goto('/');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/setup');
    await page.getByLabel('Setup token').fill(SETUP_TOKEN);
    await page.getByLabel('Account name').fill('Acme');
    await page.getByLabel('Your email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create the account' }).click();
    // The account's all-scope key, shown once like every other key.
    const accountKey = page.getByRole('region', { name: 'Your account’s API key' });
    await expect.poll(() => accountKey.locator('pre').textContent()).toMatch(/^tk_live_\w+$/);
    await screenshot(page, 'setup-key');
    await accountKey.getByRole('button', { name: 'I have stored it' }).click();

    await page.getByLabel('Domain').fill('newshop.example.com');
    await page.getByRole('button', { name: 'Add the site' }).click();
    const snippet = page.getByLabel('Install snippet');
    await expect
      .poll(() => snippet.inputValue())
      .toMatch(/<script defer src="http:\/\/127\.0\.0\.1:\d+\/t\.js" data-site="ttid_\w+"><\/script>/);
    await expect
      .poll(() => page.getByRole('status').first().textContent())
      .toContain('Waiting for the first event');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'new-site');

    // A headless browser's hit is refused, and the card says so instead of waiting in silence.
    const key = /data-site="(ttid_\w+)"/.exec(await snippet.inputValue())?.[1];
    const headless = await collect(t, pageview(key ?? '', newVisitorId(), 'https://newshop.example.com/'), {
      userAgent: HEADLESS_UA,
    });
    expect(headless.json()).toEqual({ accepted: false, reason: 'bot' });
    await expect
      .poll(() => page.getByText('refused as bots').textContent(), { timeout: 15_000 })
      .toContain('1 hit refused as bots in the last hour (headless or automated browser)');
    await screenshot(page, 'new-site-bot-refused');

    // The overview, open before the first visit, reads "—" and fills in without a reload.
    const overview = await context.newPage();
    const href = await page.getByRole('link', { name: 'Go to the site’s dashboard' }).getAttribute('href');
    await overview.goto(href ?? '');
    await settled(overview);
    expect(await tileValue(overview, 'Visitors')).toBe('—');
    expect(await tileValue(overview, 'AI share of visits')).toBe('—');
    await screenshot(overview, 'overview-empty');

    // The snippet's first pageview, as the installed tracker sends it.
    const collected = await collect(t, pageview(key ?? '', newVisitorId(), 'https://newshop.example.com/'));
    expect(collected.statusCode).toBe(202);
    await expect
      .poll(() => page.getByRole('status').first().textContent(), { timeout: 15_000 })
      .toContain('Receiving events since');
    await expect.poll(() => tileValue(overview, 'Visitors'), { timeout: 15_000 }).toBe('1');
    await overview.close();
    await page.getByRole('link', { name: 'Go to the site’s dashboard' }).click();
    await settled(page);
    await expect.poll(() => tileValue(page, 'Visitors')).toBe('1');
    await context.close();
  });
});

/** Serves one page of HTML on a port of its own (another origin than the app). */
function serveHtml(html: string): Promise<{ port: number; close: () => void }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as { port: number }).port, close: () => server.close() }),
    ),
  );
}

const HEADLESS_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36';

/** The figure of an overview tile. */
const tileValue = (page: Page, label: string) =>
  page
    .locator('.metric', { has: page.locator('.label', { hasText: new RegExp(`^${label}$`) }) })
    .locator('.value')
    .textContent();

describe.skipIf(ON_POSTGRES)('a seeded shop', () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  let base: string;
  let shop: SeededShop;
  const visitors = async (filters: unknown[] = []) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/stats/query',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: shop.site.snippet_key, metrics: ['visitors'], date_range: '30d', filters },
    });
    return response.json().results[0].metrics[0] as number;
  };

  beforeAll(async () => {
    shop = await seedShop(t, new Date());
    base = await serve(t);
  }, 180_000);

  it('signs in with the password and lists the site with its sparkline and its refused bot hits', async () => {
    // Two hits of a headless browser in the last hour, refused as bots.
    for (let hit = 0; hit < 2; hit++) {
      const refused = await collect(
        t,
        pageview(shop.site.snippet_key, newVisitorId(), 'https://shop.example.com/'),
        { userAgent: HEADLESS_UA },
      );
      expect(refused.json()).toEqual({ accepted: false, reason: 'bot' });
    }
    const context = await newContext(browser(), base);
    const page = await context.newPage();
    await page.goto('/sites');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/email or password/i);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/sites');
    await settled(page);
    const card = page.getByRole('link', { name: /Acme Shop/ });
    expect(await card.getByRole('img').getAttribute('aria-label')).toMatch(
      /^Visits per day over the last 30 days on Acme Shop: \d+ in all$/,
    );
    await expect
      .poll(() => card.locator('.status.warn').textContent())
      .toBe('2 hits refused as bots in the last hour (headless or automated browser).');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'sites');
    await context.close();
  });

  it('shows the overview, filters by a clicked row with the filter in the URL, and goes back', async () => {
    const context = await newContext(browser(), base, { cookie: t.owner.cookie });
    const page = await context.newPage();
    await page.goto(`/sites/${shop.site.id}`);
    await settled(page);
    expect(await tileValue(page, 'Visitors')).toBe(String(await visitors()));
    expect(await page.getByRole('table', { name: 'Visitors over time' }).locator('tbody tr').count()).toBe(
      30,
    );
    const sources = page.getByRole('region', { name: 'Sources' });
    await expect
      .poll(() =>
        sources
          .getByRole('table')
          .getByRole('button', { name: /AI assistants/ })
          .count(),
      )
      .toBe(1);
    // The assistants that sent visitors show by name under the AI row, without a click.
    const aiRows = (await sources.getByRole('row').allTextContents()).filter((row) => /^↳ /.test(row));
    expect(aiRows).toContainEqual(expect.stringMatching(/^↳ ChatGPT\d+/));
    expect(await seriousViolations(page)).toEqual([]);
    // Payments and trials are conversions, never goals: the panel lists what the Goals page lists.
    const goalRows = await page.getByRole('region', { name: 'Goals' }).getByRole('row').allTextContents();
    expect(goalRows.filter((row) => /^(payment|trial)\d/.test(row))).toEqual([]);
    expect(goalRows).toContainEqual(expect.stringMatching(/^Purchases[\d%]+\$[\d,.]+$/));
    await screenshot(page, 'overview');
    // The chart's legend shows the figures at the pointer, and nothing without one.
    const legend = page.locator('.chart .u-legend');
    expect(await legend.isVisible()).toBe(false);
    const chartBox = await page.locator('.chart .u-over').boundingBox();
    if (!chartBox) throw new Error('the chart has no box');
    await page.mouse.move(chartBox.x + chartBox.width * 0.6, chartBox.y + chartBox.height / 2);
    await expect.poll(() => legend.isVisible()).toBe(true);
    expect(await legend.textContent()).toMatch(/^Period.*\d.*Visitors\d+$/);
    await screenshot(page, 'overview-pointed');
    await page.mouse.move(0, 0);

    await sources
      .getByRole('table')
      .getByRole('button', { name: /AI assistants/ })
      .click();
    await expect.poll(() => new URL(page.url()).searchParams.get('channel')).toBe('ai');
    await settled(page);
    expect(await page.getByRole('list', { name: 'Filters' }).textContent()).toContain('Channel is ai');
    expect(await tileValue(page, 'Visitors')).toBe(String(await visitors([['is', 'visit:channel', ['ai']]])));
    await sources.getByRole('group').getByRole('button', { name: 'AI assistants' }).click();
    await expect
      .poll(() => sources.getByRole('row').allTextContents())
      .toContainEqual(expect.stringMatching(/^ChatGPTAI\d+/));
    await screenshot(page, 'overview-ai');

    await page.goBack();
    await expect.poll(() => new URL(page.url()).search).toBe('');
    await expect.poll(() => page.getByRole('list', { name: 'Filters' }).count()).toBe(0);

    // A shared view opens as it was shared; a removed chip leaves the URL.
    await page.goto(`/sites/${shop.site.id}?range=7d&compare=previous_period&channel=search`);
    await settled(page);
    expect(await page.getByLabel('Date range').inputValue()).toBe('7d');
    expect(await page.getByLabel('Compare with the previous period').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Remove the filter Channel is search' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?range=7d&compare=previous_period');
    await context.close();
  });

  it('draws visitors on a world map whose countries filter the view, by pointer or keyboard', async () => {
    const context = await newContext(browser(), base, { cookie: t.owner.cookie });
    const page = await context.newPage();
    await page.goto(`/sites/${shop.site.id}`);
    await settled(page);
    const locations = page.getByRole('region', { name: 'Locations' });
    const map = locations.getByRole('group', {
      name: /^World map of visitors by country; most from United States/,
    });
    await map.waitFor();
    expect(await locations.locator('.country.seen').count()).toBe(7);
    await locations.getByRole('button', { name: 'Countries' }).click();
    expect(
      await locations
        .getByRole('table')
        .getByRole('button', { name: /United States/ })
        .count(),
    ).toBe(1);
    await locations.getByRole('button', { name: 'Map' }).click();
    await map.waitFor();
    await locations.locator('.country.seen').first().click();
    await expect.poll(() => new URL(page.url()).searchParams.get('country')).toMatch(/^[A-Z]{2}$/);

    // The keyboard: one Tab from the panel's last tab reaches the busiest country, the arrows the next.
    await page.goto(`/sites/${shop.site.id}`);
    await settled(page);
    await map.waitFor();
    await locations.getByRole('button', { name: 'Cities' }).focus();
    await page.keyboard.press('Tab');
    const focused = () => page.evaluate<string | null>('document.activeElement.getAttribute("aria-label")');
    expect(await focused()).toMatch(/^United States: \d+ visitors$/);
    await page.keyboard.press('ArrowRight');
    const second = await focused();
    expect(second).toMatch(/^(?!United States).+: \d+ visitors$/);
    const code = await page.evaluate<string | null>('document.activeElement.getAttribute("data-code")');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'overview-map-keyboard');
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('country')).toBe(code);
    await context.close();
  });

  it('shows revenue by source under each model, side by side, and the conversions behind it', async () => {
    const context = await newContext(browser(), base, { cookie: t.owner.cookie });
    const page = await context.newPage();
    await page.goto(`/sites/${shop.site.id}`);
    await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Revenue' }).click();
    await settled(page);
    const revenue = await t.request({
      method: 'GET',
      url: `/v1/revenue?site_id=${shop.site.snippet_key}`,
      headers: bearer(t.owner.apiKey),
    });
    const net = revenue.json().totals.net as number;
    expect(net).toBeGreaterThan(0);
    expect(await tileValue(page, 'Net revenue')).toBe(
      `$${net.toLocaleString('en', { minimumFractionDigits: 2 })}`,
    );
    const bySource = page.getByRole('region', { name: 'Revenue by source' });
    expect(await bySource.getByRole('row').allTextContents()).toContainEqual(
      expect.stringMatching(/^ChatGPTAI/),
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'revenue');

    await bySource.getByRole('button', { name: 'Linear' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('model')).toBe('linear');
    await bySource.getByRole('button', { name: 'Side by side' }).click();
    const headers = bySource.getByRole('columnheader');
    await expect
      .poll(() => headers.allTextContents())
      .toEqual(['Source', 'First touch', 'Last touch', 'Linear', 'Time decay']);

    const conversions = page.getByRole('region', { name: 'Conversions' });
    await conversions.getByLabel('Event name').selectOption('purchase');
    // The listing keeps its old rows on screen until the filtered page arrives.
    const eventNames = conversions.locator('tbody tr td:nth-child(2)');
    await expect.poll(async () => [...new Set(await eventNames.allTextContents())]).toEqual(['purchase']);
    await context.close();
  });

  it('shows AI crawlers, their operators and the loop from crawling to revenue', async () => {
    const context = await newContext(browser(), base, { cookie: t.owner.cookie });
    const page = await context.newPage();
    await page.goto(`/sites/${shop.site.id}/ai`);
    await settled(page);
    const operators = page.getByRole('region', { name: 'Operators' });
    expect(await operators.getByRole('rowheader').allTextContents()).toContainEqual(
      expect.stringMatching(/^OpenAI/),
    );
    const crawlers = page.getByRole('region', { name: 'Crawlers' });
    expect(await crawlers.getByRole('rowheader').allTextContents()).toEqual(
      expect.arrayContaining(['GPTBot', 'ClaudeBot']),
    );
    expect(await page.getByRole('region', { name: 'Pages' }).getByRole('rowheader').count()).toBeGreaterThan(
      0,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'ai-crawlers');
    await context.close();
  });

  it('opens a password-protected shared link without sign-in, embedded in another site, until it is revoked', async () => {
    const owner = await newContext(browser(), base, { cookie: t.owner.cookie });
    const settings = await owner.newPage();
    await settings.goto(`/sites/${shop.site.id}/settings/shared-links`);
    const section = settings.getByRole('region', { name: 'Shared links' });
    await section.getByLabel('Label').fill('Investors');
    await section.getByLabel('Password (optional)').fill('open sesame');
    await section.getByRole('button', { name: 'Make a shared link' }).click();
    const shown = section.getByLabel('Shared link', { exact: true });
    await expect.poll(() => shown.inputValue()).toMatch(/\/share#tts_/);
    const shareUrl = (await shown.inputValue()).replace('http://localhost:8080', base);
    expect(await section.getByLabel('Embed code').inputValue()).toContain(
      `<iframe src="${await shown.inputValue()}"`,
    );
    await expect.poll(() => section.getByRole('rowheader').allTextContents()).toEqual(['Investors']);
    expect(await seriousViolations(settings)).toEqual([]);
    await screenshot(settings, 'settings-shared-links');
    const context = await newContext(browser(), base);
    const page = await context.newPage();
    await page.goto(shareUrl);
    await page.getByLabel('Password').fill('open sesame');
    await page.getByRole('button', { name: 'View the reports' }).click();
    await settled(page);
    expect(await tileValue(page, 'Visitors')).toBe(String(await visitors()));
    expect(await page.getByRole('region', { name: 'Goals' }).count()).toBe(0);
    expect(await page.getByText('AI share of revenue').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    await page
      .getByRole('region', { name: 'Sources' })
      .getByRole('table')
      .getByRole('button', { name: /Search/ })
      .click();
    await expect.poll(() => new URL(page.url()).searchParams.get('channel')).toBe('search');
    expect(new URL(page.url()).hash).toBe(new URL(shareUrl).hash);
    await settled(page);
    expect(await tileValue(page, 'Visitors')).toBe(
      String(await visitors([['is', 'visit:channel', ['search']]])),
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'shared');

    // Embedded in a page of another origin (the `.touchtrail.test` hosts resolve to this machine).
    const host = await serveHtml(
      `<!doctype html><title>Our numbers</title><iframe src="${shareUrl}" title="Traffic" style="width:1200px;height:900px"></iframe>`,
    );
    const embedding = await context.newPage();
    await embedding.goto(`http://blog.touchtrail.test:${host.port}/`);
    const frame = embedding.frameLocator('iframe');
    await frame.getByLabel('Password').fill('open sesame');
    await frame.getByRole('button', { name: 'View the reports' }).click();
    await expect
      .poll(() => frame.locator('.metric .label').first().textContent(), { timeout: 15_000 })
      .toBe('Visitors');
    host.close();

    await section.getByRole('button', { name: 'Revoke Investors' }).click();
    await expect.poll(() => section.getByRole('rowheader').count()).toBe(0);
    await owner.close();
    await page.reload();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('This link does not open');
    await context.close();
  });

  it('is readable at phone width and in the dark theme', async () => {
    for (const [name, options] of [
      ['overview-phone', { viewport: PHONE }],
      ['overview-dark', { viewport: DESKTOP, dark: true }],
      ['sites-phone', { viewport: PHONE, path: '/sites' }],
    ] as const) {
      const context = await newContext(browser(), base, { cookie: t.owner.cookie, ...options });
      const page = await context.newPage();
      await page.goto('path' in options ? options.path : `/sites/${shop.site.id}`);
      await settled(page);
      expect(await seriousViolations(page), name).toEqual([]);
      const overflow = await page.evaluate<number>(
        'document.documentElement.scrollWidth - window.innerWidth',
      );
      expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
      await screenshot(page, name);
      await context.close();
    }
  });

  it('asks for the second factor of an enrolled person and signs them in with a code', async () => {
    const person = await addPerson(t);
    const { secret } = await enrol(t, await signIn(t, person));
    const context = await newContext(browser(), base);
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const code = page.getByLabel('Code from your authenticator app');
    await code.waitFor();
    await code.fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/code/i);
    expect(await seriousViolations(page)).toEqual([]);
    await code.fill(codeFor(t, secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/sites');
    await context.close();
  });

  it('accepts an invitation and resets a password from the emailed links', async () => {
    const invited = await t.request({
      method: 'POST',
      url: '/v1/account/invitations',
      headers: { cookie: t.owner.cookie },
      payload: { email: 'ana@example.com', role: 'member' },
    });
    expect(invited.statusCode).toBe(201);
    const context = await newContext(browser(), base);
    const page = await context.newPage();
    // Without SMTP the answer carries the link an email would have: PUBLIC_URL, the page, the token.
    await page.goto(invited.json().link.replace('http://localhost:8080', base));
    await page.getByLabel('Choose a password').fill('a new long password');
    await page.getByRole('button', { name: 'Join' }).click();
    await page.getByRole('heading', { name: 'You have joined' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill('ana@example.com');
    await page.getByLabel('Password').fill('a new long password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/sites');

    const member = (
      await t.request({ method: 'GET', url: '/v1/account/members', headers: { cookie: t.owner.cookie } })
    )
      .json()
      .members.find((m: { email: string }) => m.email === 'ana@example.com');
    const reset = await t.request({
      method: 'POST',
      url: `/v1/account/members/${member.user_id}/password-reset`,
      headers: { cookie: t.owner.cookie },
    });
    expect(reset.statusCode).toBe(201);
    const fresh = await newContext(browser(), base);
    const resetPage = await fresh.newPage();
    await resetPage.goto(reset.json().link.replace('http://localhost:8080', base));
    await resetPage.getByLabel('New password').fill('another long password');
    await resetPage.getByRole('button', { name: 'Change the password' }).click();
    await resetPage.getByRole('heading', { name: 'Password changed' }).waitFor();
    expect(await seriousViolations(resetPage)).toEqual([]);
    const withNewPassword = await t.request({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'ana@example.com', password: 'another long password' },
    });
    expect(withNewPassword.statusCode).toBe(200);
    await context.close();
    await fresh.close();
  });

  it('says a site that does not exist or is another account’s is not theirs, with a link to the sites', async () => {
    const rival = await addAccount(t);
    const theirs = await addSite(t, asKey(rival.apiKey), 'theirs-unknown.example.com');
    const theirUuid = await siteUuid(t, theirs.snippet_key);
    const context = await newContext(browser(), base, { cookie: t.owner.cookie });
    const page = await context.newPage();
    for (const [path, shot] of [
      ['/sites/00000000-0000-4000-8000-000000000000', 'unknown-site'],
      [`/sites/${theirUuid}/goals`, undefined],
      ['/sites/not-a-site-id/revenue', undefined],
    ] as const) {
      await page.goto(path);
      const alert = page.getByRole('alert');
      await expect
        .poll(() => alert.textContent(), { timeout: 15_000 })
        .toContain('This site does not exist or is not yours.');
      expect(await alert.count()).toBe(1);
      expect(await page.getByRole('navigation', { name: 'Site' }).count()).toBe(0);
      if (shot) {
        expect(await seriousViolations(page)).toEqual([]);
        await screenshot(page, shot);
      }
    }
    await page.getByRole('link', { name: 'Go to your sites' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/sites');
    await expect.poll(() => page.getByRole('link', { name: /Acme Shop/ }).count()).toBe(1);
    await context.close();
  });

  it('switches to another site’s overview with the site switcher, by mouse and by keyboard', async () => {
    const other = await addSite(t, asKey(t.owner.apiKey), 'books-switch.example.com', {
      name: 'Corner Books',
    });
    const otherUuid = await siteUuid(t, other.snippet_key);
    const context = await newContext(browser(), base, { cookie: t.owner.cookie });
    const page = await context.newPage();
    // The site's name waits for the site list and the site itself: slow on a loaded machine.
    const SLOW = { timeout: 15_000 };
    await page.goto(`/sites/${shop.site.id}`);
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(() => heading.textContent(), SLOW).toBe('Acme Shop');
    const switcher = page.getByRole('combobox', { name: 'Switch site' });
    await expect
      .poll(() => switcher.locator('option').allTextContents(), SLOW)
      .toEqual(expect.arrayContaining(['Acme Shop', 'Corner Books']));
    await switcher.selectOption(otherUuid);
    await expect.poll(() => new URL(page.url()).pathname, SLOW).toBe(`/sites/${otherUuid}`);
    await expect.poll(() => heading.textContent(), SLOW).toBe('Corner Books');

    // Reached with Tab from the top of the freshly loaded page, then changed with an arrow key alone.
    await page.reload();
    await switcher.waitFor();
    const focused = () => page.evaluate<string | null>('document.activeElement.getAttribute("aria-label")');
    for (let tabs = 0; tabs < 10 && (await focused()) !== 'Switch site'; tabs++) {
      await page.keyboard.press('Tab');
    }
    expect(await focused()).toBe('Switch site');
    const isShopFirst = (await switcher.locator('option').first().getAttribute('value')) === shop.site.id;
    await page.keyboard.press(isShopFirst ? 'ArrowUp' : 'ArrowDown');
    await expect.poll(() => new URL(page.url()).pathname, SLOW).toBe(`/sites/${shop.site.id}`);
    await expect.poll(() => heading.textContent(), SLOW).toBe('Acme Shop');
    expect(await switcher.inputValue()).toBe(shop.site.id);
    await context.close();
  });
});
