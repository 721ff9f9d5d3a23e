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

const CRAWLER_AGENTS = [
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
];

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
        const engagedMs = pages.length === 1 && random() < 0.5 ? 4_000 : 35_000; // some visits bounce
        await collect(
          start + i * MINUTE_MS + 40_000,
          { type: 'engagement', vid, url, engaged_ms: engagedMs },
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
        // Every fifth order is partly refunded a day later.
        if (orders % 5 === 0) await refund(t, site.snippet_key, `pi_${orders}`, amount, vid, start + DAY_MS);
      }
    }
  }
  await seedCrawlerHits(t, site, now, random);
  t.clock.set(now);
  await t.app.services.attribution.runUntilIdle();
  return { site, visits };
}

/** Two weeks of AI crawler hits, reported with a bot token as the server middleware does. */
async function seedCrawlerHits(
  t: TestContext,
  site: { snippet_key: string },
  now: Date,
  random: () => number,
) {
  const created = await t.request({
    method: 'POST',
    url: '/v1/account/bot-tokens',
    headers: bearer(t.owner.apiKey),
    payload: { site_id: site.snippet_key, name: 'web servers' },
  });
  if (created.statusCode !== 201) throw new Error(`bot token: ${created.body}`);
  const token = created.json().plaintext_token as string;
  const hits = [];
  for (let day = 13; day >= 0; day--) {
    for (let n = 0; n < 6; n++) {
      const at = now.getTime() - day * DAY_MS - Math.floor(random() * 12) * 60 * MINUTE_MS;
      hits.push({
        user_agent: CRAWLER_AGENTS[Math.floor(random() * CRAWLER_AGENTS.length)] as string,
        path: PAGES[Math.floor(random() * PAGES.length)] as string,
        status: random() < 0.1 ? 404 : 200,
        timestamp: new Date(at).toISOString(),
      });
    }
  }
  t.clock.set(now);
  const response = await t.request({
    method: 'POST',
    url: '/v1/crawler/hits',
    headers: bearer(token),
    payload: { hits },
  });
  if (response.statusCode !== 202) throw new Error(`crawler hits: ${response.body}`);
}

async function refund(
  t: TestContext,
  siteKey: string,
  transactionId: string,
  amount: number,
  vid: string,
  at: number,
) {
  t.clock.set(new Date(Math.min(at, Date.now())));
  const response = await t.request({
    method: 'POST',
    url: '/v1/server/payments',
    headers: bearer(t.owner.apiKey),
    payload: {
      site_id: siteKey,
      provider: 'stripe',
      transaction_id: transactionId,
      amount,
      currency: 'USD',
      visitor_id: vid,
      refunded_amount: amount / 2,
    },
  });
  if (response.statusCode !== 202) throw new Error(`refund: ${response.body}`);
}
