/**
 * A small site for the agent tool set's tests: visits from ChatGPT, Google and directly over the
 * last days, a `signup` goal with a `plan` property, a paid order from the ChatGPT visitor with a
 * partial refund, a saved funnel, and GPTBot crawling three pages. Sent through
 * the real collect, payments and crawler endpoints with the clock moved to each moment.
 */
import { CHROME_UA, IPHONE_UA, newEventId, newVisitorId } from '../ingest/ingest.fixtures.js';
import { DAY_MS, MINUTE_MS } from '../lib/clock.js';
import { bearer, type Owner, type TestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

const GPTBOT_UA =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

export interface SeededSite {
  snippetKey: string;
  domain: string;
  funnelId: string;
  goalId: string;
}

export async function seedAgentSite(t: TestApp, owner: Owner): Promise<SeededSite> {
  const now = t.clock.now();
  const site = await insertSite(t, owner.accountId, { domain: 'shop.example.com', name: 'Acme Shop' });
  const key = site.snippet_key;
  const send = async (method: 'POST', url: string, payload: object, headers: Record<string, string> = {}) => {
    const response = await t.request({
      method,
      url,
      payload,
      headers: { ...bearer(owner.apiKey), ...headers },
    });
    if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const collect = async (at: number, agent: string, payload: Record<string, unknown>) => {
    t.clock.set(new Date(at));
    const response = await t.request({
      method: 'POST',
      url: '/v1/collect',
      headers: { 'content-type': 'text/plain', 'user-agent': agent, 'cf-ipcountry': 'DE' },
      payload: JSON.stringify({ eid: newEventId(), site: key, ...payload }),
    });
    if (response.statusCode !== 202) throw new Error(`collect: ${response.body}`);
  };

  const goal = await send('POST', '/v1/goals', { site_id: key, name: 'signup', display_name: 'Sign-ups' });
  const visits = [
    { ref: 'https://chatgpt.com/', daysAgo: 2, buys: true },
    { ref: 'https://chatgpt.com/', daysAgo: 1, buys: false },
    { ref: 'https://www.google.com/', daysAgo: 1, buys: false },
    { ref: '', daysAgo: 0, buys: false },
  ];
  let buyer = '';
  for (const [i, visit] of visits.entries()) {
    const vid = newVisitorId();
    const agent = i % 2 === 0 ? CHROME_UA : IPHONE_UA;
    // Today's visit starts a minute ago, so the realtime view sees it.
    const start = visit.daysAgo === 0 ? now.getTime() - MINUTE_MS : now.getTime() - visit.daysAgo * DAY_MS;
    const home = `https://${site.domain}/`;
    const pricing = `https://${site.domain}/pricing`;
    await collect(start, agent, { type: 'pageview', vid, url: home, ref: visit.ref });
    await collect(start + 10_000, agent, { type: 'pageview', vid, url: pricing, ref: home });
    await collect(start + 40_000, agent, { type: 'engagement', vid, url: pricing, engaged_ms: 30_000 });
    if (visit.daysAgo > 0) {
      const plan = i === 0 ? 'pro' : 'free';
      await collect(start + 50_000, agent, {
        type: 'event',
        vid,
        url: pricing,
        name: 'signup',
        props: { plan },
      });
    }
    if (visit.buys) buyer = vid;
  }
  const paidAt = now.getTime() - 2 * DAY_MS + 2 * MINUTE_MS;
  t.clock.set(new Date(paidAt));
  const order = {
    site_id: key,
    provider: 'stripe',
    transaction_id: 'pi_agent_1',
    currency: 'USD',
    visitor_id: buyer,
  };
  await send('POST', '/v1/server/payments', { ...order, amount: 49.9 });
  t.clock.set(new Date(paidAt + DAY_MS));
  await send('POST', '/v1/server/payments', { ...order, amount: 49.9, refunded_amount: 10 });

  t.clock.set(now);
  const funnel = await send('POST', '/v1/funnels', {
    site_id: key,
    name: 'Pricing to sign-up',
    steps: [
      { type: 'page', match: 'is', value: '/pricing' },
      { type: 'event', name: 'signup' },
    ],
  });
  const token = await send('POST', '/v1/account/bot-tokens', { site_id: key, name: 'web servers' });
  const hits = ['/', '/pricing', '/docs'].map((path, i) => ({
    user_agent: GPTBOT_UA,
    path,
    status: 200,
    timestamp: new Date(now.getTime() - (i + 1) * 60 * MINUTE_MS).toISOString(),
  }));
  const crawled = await t.request({
    method: 'POST',
    url: '/v1/crawler/hits',
    headers: bearer(token.plaintext_token),
    payload: { hits },
  });
  if (crawled.statusCode !== 202) throw new Error(`crawler hits: ${crawled.body}`);
  await t.app.services.crawlerHits.drain();
  await t.app.services.attribution.runUntilIdle();
  return { snippetKey: key, domain: site.domain, funnelId: funnel.funnel.id, goalId: goal.goal.id };
}
