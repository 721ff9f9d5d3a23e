/**
 * The funnels pages in Chromium against the real app and a seeded shop: building a funnel step
 * by step, its figures against the API's, saving, reopening, the breakdown by channel and AI
 * assistant, editing and deleting. Each view is checked for accessibility and saved as
 * screenshots at desktop and phone widths. Browser suites run once, on the embedded database.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../test/app.js';
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
import { count, scrollsSideways } from './goals.e2e.fixtures.js';

const browser = useChromium();

interface StepFigures {
  visitors: number;
  conversion_from_first: number;
  conversion_from_previous: number;
  drop_off: number;
}
interface Report {
  steps: StepFigures[];
  breakdown: { value: string | null; steps: StepFigures[] }[] | null;
}

const STEPS = [
  { type: 'page', match: 'is', value: '/pricing' },
  { type: 'event', name: 'signup' },
  { type: 'event', name: 'purchase' },
];
const CHANNELS: Record<string, string> = {
  ai: 'AI assistants',
  search: 'Search',
  social: 'Social',
  email: 'Email',
  paid: 'Paid',
  referral: 'Referral',
  direct: 'Direct',
};
const ASSISTANTS: Record<string, string> = { chatgpt: 'ChatGPT', perplexity: 'Perplexity', claude: 'Claude' };
const share = (value: number) => `${value.toFixed(1).replace(/\.0$/, '')}%`;
const people = (n: number) => `${count(n)} ${n === 1 ? 'person' : 'people'}`;

/** Each step's figures as the report shows them in words. */
async function shownSteps(page: Page) {
  const steps = page.getByRole('list', { name: 'People at each step' }).getByRole('listitem');
  await expect.poll(() => steps.count()).toBeGreaterThan(0);
  return steps.evaluateAll((items) =>
    items.map((item) => ({
      people: item.querySelector('.funnel-step-people')?.textContent,
      figures: [...item.querySelectorAll('.funnel-step-figures > span:not(.median)')].map(
        (s) => s.textContent,
      ),
    })),
  );
}

function expectedSteps(report: Report) {
  return report.steps.map((step, i) => ({
    people: people(step.visitors),
    figures: [
      ...(i === 0
        ? []
        : [
            `${share(step.conversion_from_first)} of step 1`,
            ...(i > 1 ? [`${share(step.conversion_from_previous)} of step ${i}`] : []),
            `${count(step.drop_off)} dropped off since step ${i}`,
          ]),
    ],
  }));
}

/** The rows of a breakdown table: the value's name and the people at each step. */
const shownBreakdown = (page: Page, name: string) =>
  page
    .getByRole('region', { name })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [
        row.querySelector('th')?.textContent,
        ...[...row.querySelectorAll('td')].slice(0, -1).map((cell) => cell.textContent),
      ]),
    );

describe.skipIf(ON_POSTGRES)('the funnels pages', () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  let base: string;
  let shop: SeededShop;
  const report = async (extra: Record<string, unknown> = {}) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/funnels/query',
      headers: bearer(t.owner.apiKey),
      payload: {
        site_id: shop.site.snippet_key,
        steps: STEPS,
        date_range: '30d',
        window_hours: 168,
        ...extra,
      },
    });
    expect(response.statusCode).toBe(200);
    return response.json() as Report;
  };
  const savedFunnels = async () => {
    const response = await t.request({
      method: 'GET',
      url: `/v1/funnels?site_id=${shop.site.snippet_key}`,
      headers: bearer(t.owner.apiKey),
    });
    return response.json().funnels as { id: string; name: string; steps: unknown[] }[];
  };

  beforeAll(async () => {
    shop = await seedShop(t, new Date());
    base = await serve(t);
  }, 180_000);

  it('builds a funnel, shows the API’s figures, saves, reopens, breaks it down, edits and deletes it', async () => {
    const context = await newContext(browser(), base, { cookie: t.owner.cookie });
    const page = await context.newPage();
    await page.goto(`/sites/${shop.site.id}/funnels`);
    await settled(page);
    expect(await page.getByRole('heading', { name: 'No funnels yet' }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'funnel-empty');

    await page.getByRole('link', { name: 'Build your first funnel' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/sites/${shop.site.id}/funnels/new`);
    // The second step starts empty: running says what is missing.
    await page.getByRole('button', { name: 'Run the funnel' }).click();
    expect(await page.getByText('Enter a page path, such as /pricing.').count()).toBe(1);

    await page.getByLabel('Step 1 path').fill('/pricing');
    await page.getByLabel('Step 2 kind').selectOption('event');
    await page.getByLabel('Step 2 event name').fill('signup');
    await page.getByRole('button', { name: 'Add a step' }).click();
    await page.getByLabel('Step 3 kind').selectOption('event');
    await page.getByLabel('Step 3 event name').fill('purchase');
    await page.getByRole('button', { name: 'Run the funnel' }).click();
    await settled(page);
    const expected = await report();
    expect(expected.steps[0]?.visitors).toBeGreaterThan(0);
    expect(await shownSteps(page)).toEqual(expectedSteps(expected));
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'funnel-new');

    await page.getByRole('button', { name: 'Save the funnel' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Name the funnel to save it.');
    await page.getByLabel('Funnel name').fill('Pricing to purchase');
    await page.getByRole('button', { name: 'Save the funnel' }).click();
    await expect
      .poll(() => new URL(page.url()).pathname)
      .toMatch(new RegExp(`^/sites/${shop.site.id}/funnels/[0-9a-f-]{36}$`));
    expect(await savedFunnels()).toMatchObject([{ name: 'Pricing to purchase', steps: STEPS }]);

    // Reopened from the list, it reports the same figures.
    await page.getByRole('link', { name: 'All funnels' }).click();
    await settled(page);
    await page.getByRole('link', { name: 'Pricing to purchase' }).click();
    await settled(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Pricing to purchase');
    expect(await page.getByLabel('Step 1 path').inputValue()).toBe('/pricing');
    expect(await page.getByLabel('Step 3 event name').inputValue()).toBe('purchase');
    expect(await shownSteps(page)).toEqual(expectedSteps(expected));

    const byChannel = await report({ breakdown: 'visit:channel' });
    expect(await shownBreakdown(page, 'Funnel by channel')).toEqual(
      (byChannel.breakdown ?? []).map((group) => [
        group.value === null ? 'Unknown' : (CHANNELS[group.value] ?? group.value),
        ...group.steps.map((s) => count(s.visitors)),
      ]),
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'funnel-saved');
    await page.getByRole('button', { name: 'AI assistant', exact: true }).click();
    await settled(page);
    const byAssistant = await report({ breakdown: 'visit:ai_source' });
    expect(await shownBreakdown(page, 'Funnel by ai assistant')).toEqual(
      (byAssistant.breakdown ?? []).map((group) => [
        group.value === null ? 'Not from an AI assistant' : (ASSISTANTS[group.value] ?? group.value),
        ...group.steps.map((s) => count(s.visitors)),
      ]),
    );
    await screenshot(page, 'funnel-assistants');

    // Editing: the last step goes, the name changes; the report says it is out of date until run.
    await page.getByRole('button', { name: 'Remove step 3' }).click();
    expect(await page.getByText('The steps changed since this report').count()).toBe(1);
    await page.getByLabel('Funnel name').fill('Pricing to a pro signup');
    await page.getByLabel('Step 2 property (optional)').fill('plan');
    await page.getByLabel('Step 2 property value').fill('pro');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await savedFunnels())[0]?.name).toBe('Pricing to a pro signup');
    expect((await savedFunnels())[0]?.steps).toEqual([
      STEPS[0],
      { ...STEPS[1], property: { key: 'plan', value: 'pro' } },
    ]);
    // The report runs again once the save answers.
    await expect
      .poll(() => page.getByRole('list', { name: 'People at each step' }).getByRole('listitem').count())
      .toBe(2);

    await page.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('group', { name: 'Delete this funnel?' })
      .getByRole('button', { name: 'Delete the funnel' })
      .click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/sites/${shop.site.id}/funnels`);
    await expect.poll(() => page.getByRole('heading', { name: 'No funnels yet' }).count()).toBe(1);
    expect(await savedFunnels()).toEqual([]);
    await context.close();
  });

  it('is readable at phone width and in the dark theme, without scrolling sideways', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/v1/funnels',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: shop.site.snippet_key, name: 'Pricing to purchase', steps: STEPS },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().funnel.id as string;
    const views = [
      ['funnel-list-phone', `/sites/${shop.site.id}/funnels`, { viewport: PHONE }],
      ['funnel-phone', `/sites/${shop.site.id}/funnels/${id}`, { viewport: PHONE }],
      ['funnel-dark', `/sites/${shop.site.id}/funnels/${id}`, { viewport: DESKTOP, dark: true }],
      ['funnel-new-phone-dark', `/sites/${shop.site.id}/funnels/new`, { viewport: PHONE, dark: true }],
    ] as const;
    for (const [name, path, options] of views) {
      const context = await newContext(browser(), base, { cookie: t.owner.cookie, ...options });
      const page = await context.newPage();
      await page.goto(path);
      await settled(page);
      expect(await seriousViolations(page), name).toEqual([]);
      expect(await scrollsSideways(page), `${name} scrolls sideways`).toBe(false);
      await screenshot(page, name);
      await context.close();
    }
  });
});
