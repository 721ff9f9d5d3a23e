/**
 * What the goal and funnel browser tests add to the seeded shop: a few sign-ups sent with a
 * `plan` property, so the goal page has a property breakdown to show.
 */
import type { Page } from 'playwright-core';
import { CHROME_UA, collect, newVisitorId } from '../ingest/ingest.fixtures.js';
import { MINUTE_MS } from '../lib/clock.js';
import { bearer, type TestContext } from '../test/app.js';
import type { SeededShop } from './dashboard.seed.js';

const PLANS = ['pro', 'pro', 'pro', 'team', 'team', 'starter'];

export async function sendSignupsWithPlans(t: TestContext, shop: SeededShop, now: Date) {
  for (const [i, plan] of PLANS.entries()) {
    const vid = newVisitorId();
    const start = now.getTime() - (i + 2) * 60 * MINUTE_MS;
    const url = `https://${shop.site.domain}/pricing`;
    const send = async (at: number, payload: Record<string, unknown>) => {
      t.clock.set(new Date(at));
      const response = await collect(
        t,
        { site: shop.site.snippet_key, vid, url, ...payload },
        { userAgent: CHROME_UA },
      );
      if (response.statusCode !== 202) throw new Error(`collect: ${response.body}`);
    };
    await send(start, { type: 'pageview', ref: 'https://chatgpt.com/' });
    await send(start + MINUTE_MS, { type: 'event', name: 'signup', props: { plan } });
  }
  t.clock.set(now);
  await t.app.services.attribution.runUntilIdle();
}

/** The goals of the shop as the API lists them (archived ones too when asked). */
export async function listGoals(t: TestContext, shop: SeededShop, includeArchived = false) {
  const response = await t.request({
    method: 'GET',
    url: `/v1/goals?site_id=${shop.site.snippet_key}${includeArchived ? '&include_archived=true' : ''}`,
    headers: bearer(t.owner.apiKey),
  });
  return response.json().goals as {
    id: string;
    name: string;
    display_name: string | null;
    emoji: string | null;
    archived_at: string | null;
  }[];
}

export async function statsQuery(t: TestContext, body: Record<string, unknown>) {
  const response = await t.request({
    method: 'POST',
    url: '/v1/stats/query',
    headers: bearer(t.owner.apiKey),
    payload: body,
  });
  if (response.statusCode !== 200) throw new Error(`stats: ${response.body}`);
  return response.json() as { results: { dimensions: string[]; metrics: number[] }[] };
}

/** What the dashboard's figures read: `formatCount` and `formatPercent` of lib/format.ts. */
export const count = (value: number) => new Intl.NumberFormat('en').format(value);
export const percent = (value: number) => `${value.toFixed(value >= 10 || value === 0 ? 0 : 1)}%`;

/** Whether the page is wider than its window. */
export const scrollsSideways = async (page: Page) =>
  (await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')) > 0;
