/**
 * A month of traffic for the dashboard's browser tests: a shop visited from ChatGPT, Perplexity,
 * Claude, Google, social, a newsletter and directly, from several countries and devices, with
 * signups and paid orders. Seeded, so every run sends the same traffic; sent through the real
 * collect and payments endpoints with the app's clock moved to each moment, then set back to now.
 */
import { CHROME_UA, IPHONE_UA, newEventId, newVisitorId } from '../ingest/ingest.fixtures.js';
import { DAY_MS, MINUTE_MS } from '../lib/clock.js';
import { bearer, type TestContext } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { seeded } from '../test/seeded.js';

const ANDROID_UA =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const FIREFOX_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const AGENTS = [CHROME_UA, CHROME_UA, IPHONE_UA, ANDROID_UA, FIREFOX_UA];
const COUNTRIES = ['US', 'US', 'DE', 'GB', 'FR', 'IN', 'BR', 'CA'];

/** Where visits come from, with how often (weights add up to 100). */
const SOURCES: { ref: string; query?: string; weight: number }[] = [
  { ref: 'https://chatgpt.com/', weight: 20 },
  { ref: 'https://www.perplexity.ai/', weight: 8 },
  { ref: 'https://claude.ai/', weight: 5 },
  { ref: 'https://www.google.com/', weight: 30 },
  { ref: 'https://t.co/abc', weight: 7 },
  { ref: '', query: '?utm_source=newsletter&utm_medium=email&utm_campaign=autumn-sale', weight: 8 },
  { ref: '', weight: 22 },
];
const PAGES = ['/', '/pricing', '/blog/ai-search-traffic', '/docs/install', '/products/notebook'];

export const SEED_DAYS = 28;

/** The source whose stretch of the 0–100 line `roll` falls in. */
function weighted(roll: number) {
  let rest = roll;
  for (const source of SOURCES) {
    rest -= source.weight;
    if (rest < 0) return source;
  }
  return SOURCES.at(-1) as (typeof SOURCES)[number];
}

export interface SeededShop {
  site: { id: string; snippet_key: string; domain: string };
  visits: number;
}

export async function seedShop(t: TestContext, now: Date): Promise<SeededShop> {
  const random = seeded(22);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  const site = await insertSite(t, t.owner.accountId, { domain: 'shop.example.com', name: 'Acme Shop' });
  for (const name of ['signup', 'purchase']) {
    const goal = await t.request({
      method: 'POST',
      url: '/v1/goals',
      headers: bearer(t.owner.apiKey),
      payload: {
        site_id: site.snippet_key,
        name,
        display_name: name === 'signup' ? 'Sign-ups' : 'Purchases',
      },
    });
    if (goal.statusCode !== 201) throw new Error(`goal: ${goal.body}`);
  }
  const collect = async (at: number, payload: Record<string, unknown>, agent: string, country: string) => {
    t.clock.set(new Date(at));
    const response = await t.request({
      method: 'POST',
      url: '/v1/collect',
      headers: { 'content-type': 'text/plain', 'user-agent': agent, 'cf-ipcountry': country },
      payload: JSON.stringify({ eid: newEventId(), site: site.snippet_key, ...payload }),
    });
    if (response.statusCode !== 202) throw new Error(`collect: ${response.body}`);
  };
  let visits = 0;
  let orders = 0;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let day = SEED_DAYS - 1; day >= 0; day--) {
    // More traffic lately, so the chart rises.
    const count = 6 + Math.floor(random() * 6) + Math.floor((SEED_DAYS - day) / 4);
    for (let n = 0; n < count; n++) {
      const start = today - day * DAY_MS + Math.floor(random() * 20) * 60 * MINUTE_MS;
      if (start > now.getTime() - 30 * MINUTE_MS) continue;
      const source = weighted(random() * 100);
      const vid = newVisitorId();
      const agent = pick(AGENTS);
      const country = pick(COUNTRIES);
      const pages = [pick(PAGES), ...(random() < 0.6 ? [pick(PAGES), pick(PAGES)] : [])];
      let previous = source.ref;
      for (const [i, page] of pages.entries()) {
        const url = `https://${site.domain}${page}${i === 0 ? (source.query ?? '') : ''}`;
        await collect(start + i * MINUTE_MS, { type: 'pageview', vid, url, ref: previous }, agent, country);
        await collect(
          start + i * MINUTE_MS + 40_000,
          { type: 'engagement', vid, url, engaged_ms: 35_000 },
          agent,
          country,
        );
        previous = url;
      }
      visits++;
      const last = `https://${site.domain}${pages.at(-1)}`;
      if (random() < 0.25)
        await collect(
          start + 3 * MINUTE_MS,
          { type: 'event', vid, url: last, name: 'signup' },
          agent,
          country,
        );
      if (random() < 0.12) {
        orders++;
        const amount = 20 + Math.floor(random() * 8) * 10;
        await collect(
          start + 4 * MINUTE_MS,
          { type: 'event', vid, url: last, name: 'purchase', value: amount, currency: 'USD' },
          agent,
          country,
        );
        t.clock.set(new Date(start + 5 * MINUTE_MS));
        const payment = await t.request({
          method: 'POST',
          url: '/v1/server/payments',
          headers: bearer(t.owner.apiKey),
          payload: {
            site_id: site.snippet_key,
            provider: 'stripe',
            transaction_id: `pi_${orders}`,
            amount,
            currency: 'USD',
            visitor_id: vid,
          },
        });
        if (payment.statusCode !== 202) throw new Error(`payment: ${payment.body}`);
      }
    }
  }
  t.clock.set(now);
  await t.app.services.attribution.runUntilIdle();
  return { site, visits };
}
