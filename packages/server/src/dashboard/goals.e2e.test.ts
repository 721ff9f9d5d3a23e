/**
 * The goals pages in Chromium against the real app and a seeded shop: the list with the API's
 * figures, creating, editing, reordering (drag and keyboard), archiving and unarchiving goals,
 * a goal's page, and a person behind it. Each page is checked for accessibility and saved as
 * screenshots at desktop and phone widths. Browser suites run once, on the embedded database.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../test/app.js';
import {
  type DESKTOP,
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
import {
  count,
  listGoals,
  percent,
  scrollsSideways,
  sendSignupsWithPlans,
  statsQuery,
} from './goals.e2e.fixtures.js';

const browser = useChromium();

const goalRows = (page: Page) => page.getByRole('list', { name: 'Goals, in order' }).getByRole('listitem');
const shownOrder = (page: Page) => goalRows(page).locator('.goal-name a').allTextContents();

describe.skipIf(ON_POSTGRES)('the goals pages', () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  let base: string;
  let shop: SeededShop;
  const apiOrder = async () => (await listGoals(t, shop)).map((g) => g.display_name ?? g.name);
  const open = async (path: string, options: { viewport?: typeof DESKTOP; dark?: boolean } = {}) => {
    const context = await newContext(browser(), base, { cookie: t.owner.cookie, ...options });
    const page = await context.newPage();
    await page.goto(path);
    await settled(page);
    return { context, page };
  };

  beforeAll(async () => {
    const now = new Date();
    shop = await seedShop(t, now);
    await sendSignupsWithPlans(t, shop, now);
    base = await serve(t);
  }, 180_000);

  it('lists the seeded goals in their order with the figures the API answers', async () => {
    const { context, page } = await open(`/sites/${shop.site.id}/goals`);
    expect(await shownOrder(page)).toEqual(await apiOrder());
    const scope = { site_id: shop.site.snippet_key, date_range: '30d', timezone: 'UTC' };
    const visitors = (await statsQuery(t, { ...scope, metrics: ['visitors'] })).results[0]?.metrics[0] ?? 0;
    const byGoal = await statsQuery(t, {
      ...scope,
      metrics: ['conversions', 'visitors'],
      dimensions: ['event:goal'],
    });
    for (const goal of await listGoals(t, shop)) {
      const row = byGoal.results.find((r) => r.dimensions[0] === goal.name);
      const [completions = 0, converted = 0] = row?.metrics ?? [];
      expect(completions, goal.name).toBeGreaterThan(0);
      const shown = goalRows(page)
        .filter({ hasText: goal.display_name ?? goal.name })
        .locator('dd');
      expect(await shown.allTextContents()).toEqual([
        count(completions),
        count(converted),
        percent((converted / visitors) * 100),
      ]);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'goals');
    await context.close();
  });

  it('creates a goal, says in words why a taken name is refused, and edits its name and emoji', async () => {
    const { context, page } = await open(`/sites/${shop.site.id}/goals`);
    const form = page.getByRole('form', { name: 'Add a goal' });
    await form.getByLabel('Event name').fill('signup');
    await form.getByRole('button', { name: 'Add the goal' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toMatch(/already exists/);
    expect(await form.getByLabel('Event name').getAttribute('aria-invalid')).toBe('true');

    await form.getByLabel('Event name').fill('newsletter');
    await form.getByLabel('Display name').fill('Newsletter');
    await form.getByLabel('Emoji').fill('📰');
    await form.getByRole('button', { name: 'Add the goal' }).click();
    await expect.poll(() => shownOrder(page)).toContain('Newsletter');
    expect((await listGoals(t, shop)).find((g) => g.name === 'newsletter')).toMatchObject({
      display_name: 'Newsletter',
      emoji: '📰',
    });
    // A goal with no events yet reads as zero.
    expect(await goalRows(page).filter({ hasText: 'Newsletter' }).locator('dd').allTextContents()).toEqual([
      '0',
      '0',
      '0%',
    ]);

    await page.getByRole('button', { name: 'Edit Newsletter' }).click();
    const edit = page.getByRole('form', { name: 'Edit newsletter' });
    await edit.getByLabel('Emoji').fill('not an emoji');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => edit.getByRole('alert').textContent()).toMatch(/emoji/i);
    expect(await seriousViolations(page)).toEqual([]);
    await edit.getByLabel('Display name').fill('Newsletter sign-ups');
    await edit.getByLabel('Emoji').fill('✉️');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => shownOrder(page)).toContain('Newsletter sign-ups');
    expect((await listGoals(t, shop)).find((g) => g.name === 'newsletter')).toMatchObject({
      display_name: 'Newsletter sign-ups',
      emoji: '✉️',
    });
    await context.close();
  });

  it('reorders goals by dragging a handle and with the keyboard, and puts a refused order back', async () => {
    const { context, page } = await open(`/sites/${shop.site.id}/goals`);
    const before = await apiOrder();
    expect(await shownOrder(page)).toEqual(before);
    const last = before.at(-1) as string;

    await goalRows(page).last().locator('.goal-handle').dragTo(goalRows(page).first());
    const dragged = [last, ...before.slice(0, -1)];
    await expect.poll(apiOrder).toEqual(dragged);
    expect(await shownOrder(page)).toEqual(dragged);

    const first = dragged[0] as string;
    await page.getByRole('button', { name: `Move ${first} down` }).focus();
    await page.keyboard.press('Enter');
    const moved = [dragged[1], first, ...dragged.slice(2)];
    await expect.poll(apiOrder).toEqual(moved);
    expect(await page.getByRole('status').filter({ hasText: 'moved' }).textContent()).toBe(
      `${first} moved to position 2 of ${moved.length}.`,
    );

    // The server refuses the next order: the list shows the change, then goes back and says why.
    await page.route('**/v1/goals/reorder', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"error":"Internal server error"}',
      }),
    );
    await page.getByRole('button', { name: `Move ${first} up` }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/new order was not saved/);
    await expect.poll(() => shownOrder(page)).toEqual(moved);
    expect(await apiOrder()).toEqual(moved);
    await context.close();
  });

  it('archives a goal after asking, lists it as archived, and brings it back', async () => {
    const { context, page } = await open(`/sites/${shop.site.id}/goals`);
    await page.getByRole('button', { name: 'Archive Newsletter sign-ups' }).click();
    const question = page.getByRole('group', { name: 'Archive Newsletter sign-ups?' });
    await question.getByRole('button', { name: 'Archive' }).click();
    const archived = page.getByRole('region', { name: 'Archived' });
    await expect
      .poll(() => archived.getByRole('listitem').allTextContents())
      .toEqual([expect.stringContaining('Newsletter sign-ups')]);
    expect(await shownOrder(page)).not.toContain('Newsletter sign-ups');
    expect((await listGoals(t, shop, true)).find((g) => g.name === 'newsletter')?.archived_at).toBeTruthy();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'goals-archived');

    // At the site's goal limit the server refuses; the words of its answer are shown.
    await page.route('**/unarchive', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({
          error: 'conflict',
          code: 'goal_limit_reached',
          message: 'This site already has 200 active goals; archive one before adding another',
        }),
      }),
    );
    await archived.getByRole('button', { name: 'Unarchive Newsletter sign-ups' }).click();
    await expect
      .poll(() => archived.getByRole('alert').textContent())
      .toMatch(/already has 200 active goals/);
    await page.unroute('**/unarchive');

    await archived.getByRole('button', { name: 'Unarchive Newsletter sign-ups' }).click();
    await expect.poll(() => shownOrder(page)).toContain('Newsletter sign-ups');
    expect(await archived.count()).toBe(0);
    expect((await listGoals(t, shop)).some((g) => g.name === 'newsletter')).toBe(true);
    await context.close();
  });

  it('shows a goal’s series, property breakdown and people, and a person’s visits', async () => {
    const { context, page } = await open(`/sites/${shop.site.id}/goals`);
    await page.getByRole('link', { name: 'Sign-ups', exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/sites/${shop.site.id}/goals/signup`);
    await settled(page);

    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    const series = await t.request({
      method: 'GET',
      url: `/v1/goals/timeseries?site_id=${shop.site.snippet_key}&from=${from}&to=${today}`,
      headers: bearer(t.owner.apiKey),
    });
    const total = series.json().series.find((s: { goal_name: string }) => s.goal_name === 'signup').total;
    const chartRows = page.getByRole('table', { name: 'Completions over time' }).locator('tbody tr');
    expect(await chartRows.count()).toBe(30);
    const perDay = (await chartRows.locator('td').allTextContents()).map((text) =>
      Number(text.replace(/,/g, '')),
    );
    expect(perDay.reduce((sum, n) => sum + n, 0)).toBe(total);

    const plans = page.getByRole('table', { name: 'Values of plan' });
    expect(await plans.getByRole('row').allTextContents()).toEqual([
      'ValueCount',
      'pro3',
      'team2',
      'starter1',
    ]);

    const visitors = await t.request({
      method: 'GET',
      url: `/v1/goals/signup/visitors?site_id=${shop.site.snippet_key}&from=${from}&to=${today}&page_size=20`,
      headers: bearer(t.owner.apiKey),
    });
    const people = visitors.json();
    expect(await page.getByText(/people converted/).textContent()).toBe(
      `${people.total_count} people converted.`,
    );
    const list = page.getByRole('list', { name: 'People who converted' }).getByRole('listitem');
    expect(await list.count()).toBe(people.visitors.length);
    if (people.has_more) {
      await page.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => page.getByText(/^Page 2 of/).count()).toBe(1);
      await page.getByRole('button', { name: 'Previous' }).click();
      await settled(page);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'goals-goal');

    const person = people.visitors[0];
    await list.first().getByRole('link', { name: person.label.name }).click();
    await expect
      .poll(() => new URL(page.url()).pathname)
      .toBe(`/sites/${shop.site.id}/people/${person.handle}`);
    await settled(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(person.label.name);
    const trail = page.getByRole('list', { name: 'Visits and conversions, oldest first' });
    expect(
      await trail.getByRole('listitem').filter({ hasText: 'Converted: signup' }).count(),
    ).toBeGreaterThan(0);
    expect(
      await trail
        .getByRole('listitem')
        .filter({ hasText: /^.*Visit from/ })
        .count(),
    ).toBe(person.session_count);
    await trail.getByRole('button', { name: 'Show the pages' }).first().click();
    const steps = page.getByRole('list', { name: 'Pages and events of the visit' });
    await expect.poll(() => steps.getByRole('listitem').count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'goals-person');
    await context.close();
  });

  it('is readable at phone width and in the dark theme, without scrolling sideways', async () => {
    const person = await t.request({
      method: 'GET',
      url: `/v1/goals/signup/visitors?site_id=${shop.site.snippet_key}&page_size=1`,
      headers: bearer(t.owner.apiKey),
    });
    const handle = person.json().visitors[0].handle as string;
    const views = [
      ['goals-phone', `/sites/${shop.site.id}/goals`, { viewport: PHONE }],
      ['goals-dark', `/sites/${shop.site.id}/goals`, { dark: true }],
      ['goals-goal-phone', `/sites/${shop.site.id}/goals/signup`, { viewport: PHONE }],
      ['goals-goal-dark', `/sites/${shop.site.id}/goals/signup`, { dark: true }],
      ['goals-person-phone', `/sites/${shop.site.id}/people/${handle}`, { viewport: PHONE }],
      [
        'goals-person-dark',
        `/sites/${shop.site.id}/people/${handle}?range=7d`,
        { dark: true, viewport: PHONE },
      ],
    ] as const;
    for (const [name, path, options] of views) {
      const { context, page } = await open(path, options);
      expect(await seriousViolations(page), name).toEqual([]);
      expect(await scrollsSideways(page), `${name} scrolls sideways`).toBe(false);
      await screenshot(page, name);
      await context.close();
    }
  });

  it('says in words when the goals cannot be loaded, and loads them on retry', async () => {
    const context = await newContext(browser(), base, { cookie: t.owner.cookie });
    const page = await context.newPage();
    await page.route('**/v1/goals?*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"error":"Service unavailable"}',
      }),
    );
    await page.goto(`/sites/${shop.site.id}/goals`);
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load this' });
    await expect.poll(() => alert.textContent(), { timeout: 15_000 }).toMatch(/server had a problem/);
    expect(await seriousViolations(page)).toEqual([]);
    await page.unroute('**/v1/goals?*');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => shownOrder(page)).toEqual(await apiOrder());
    await context.close();
  });

  it('says how goals are sent when a site has none', async () => {
    const empty = await t.request({
      method: 'POST',
      url: '/v1/sites',
      headers: bearer(t.owner.apiKey),
      payload: { domain: 'empty.example.com' },
    });
    expect(empty.statusCode).toBe(201);
    const sites = await t.request({
      method: 'GET',
      url: '/v1/dashboard/sites',
      headers: { cookie: t.owner.cookie },
    });
    const site = sites.json().sites.find((s: { domain: string }) => s.domain === 'empty.example.com');
    const { context, page } = await open(`/sites/${site.uuid}/goals`);
    expect(await page.getByRole('heading', { name: 'No goals yet' }).count()).toBe(1);
    expect(await page.getByText("window.touchtrail.track('signup')").count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'goals-empty');
    await context.close();
  });
});
