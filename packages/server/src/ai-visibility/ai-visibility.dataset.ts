/**
 * The traffic of the AI visibility suite (2026-04-20 .. 05-11): seven visitors arriving from
 * ChatGPT, Perplexity, Google or nowhere, some more than once, on pages with query strings; a
 * signup and payments in USD, GBP (with ECB rates) and JPY (no rate), one refunded before
 * attribution ran; AI crawler hits of four operators and three purposes plus an unknown agent,
 * some outside the range and some whose raw rows retention has already removed; and another
 * site's traffic, never counted. Sent through the front doors at the test clock's time.
 */
import { expect } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { bearer, type TestContext } from '../test/app.js';

type Site = { id: string; snippet_key: string };
export type Source = 'chatgpt' | 'perplexity' | 'google' | 'direct';
export type Model = 'first_touch' | 'last_touch' | 'linear' | 'time_decay';
const REFERRERS: Record<Source, string> = {
  chatgpt: 'https://chatgpt.com/',
  perplexity: 'https://www.perplexity.ai/',
  google: 'https://www.google.com/',
  direct: '',
};
export const AGENTS = {
  GPTBot: [
    'OpenAI',
    'training',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  ],
  'OAI-SearchBot': [
    'OpenAI',
    'search',
    'Mozilla/5.0 (compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)',
  ],
  'ChatGPT-User': ['OpenAI', 'user', 'Mozilla/5.0 (compatible; ChatGPT-User/1.0; +https://openai.com/bot)'],
  ClaudeBot: ['Anthropic', 'training', 'Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)'],
  PerplexityBot: [
    'Perplexity',
    'search',
    'Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
  ],
  curl: ['', 'other', 'curl/8.0'],
} as const;
type Agent = keyof typeof AGENTS;

export const at = (text: string) => new Date(`${text}Z`);
export const NOW = at('2026-05-11T06:00:00');
export const RATES = { GBP: 0.85, USD: 1.1 };

export interface Visit {
  visitor: string;
  at: Date;
  source: Source;
  url: string;
  page: string;
}
export interface Conversion {
  visitor: string;
  at: Date;
  /** Payments: minor units and currency; a signup has none. */
  money?: { minor: number; currency: 'USD' | 'GBP' | 'JPY'; transaction: string };
}
export interface Hit {
  agent: Agent;
  path: string;
  at: Date;
  /** Removed from the raw hits as retention would. */
  isPurged?: boolean;
}

export const [v1, v2, v3, v4, v5, v6, v7] = Array.from({ length: 7 }, () => newVisitorId()) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
const visit = (visitor: string, when: string, source: Source, path: string): Visit => ({
  visitor,
  at: at(when),
  source,
  url: `https://vis.example.com${path}`,
  page: path.split(/[?#]/)[0] || '/',
});
export const VISITS: Visit[] = [
  visit(v7, '2026-04-20T10:00:00', 'chatgpt', '/old'),
  visit(v2, '2026-04-25T12:00:00', 'perplexity', '/docs/a'),
  visit(v1, '2026-05-02T09:00:00', 'chatgpt', '/pricing?utm_source=chatgpt.com'),
  visit(v2, '2026-05-03T08:00:00', 'chatgpt', '/blog/x#top'),
  visit(v1, '2026-05-04T10:00:00', 'google', '/'),
  visit(v3, '2026-05-05T14:00:00', 'chatgpt', '/pricing'),
  visit(v4, '2026-05-06T09:00:00', 'direct', '/'),
  visit(v5, '2026-05-07T16:00:00', 'perplexity', '/docs/a?q=1'),
  // 22:00 on the 10th in New York: in the range only when counted there.
  visit(v6, '2026-05-11T02:00:00', 'chatgpt', '/blog/x'),
];
export const CONVERSIONS: Conversion[] = [
  { visitor: v2, at: at('2026-05-03T08:05:00') },
  {
    visitor: v2,
    at: at('2026-05-03T09:00:00'),
    money: { minor: 4000, currency: 'GBP', transaction: 'pi_2' },
  },
  {
    visitor: v1,
    at: at('2026-05-04T10:30:00'),
    money: { minor: 12000, currency: 'USD', transaction: 'pi_1' },
  },
  {
    visitor: v3,
    at: at('2026-05-05T14:10:00'),
    money: { minor: 3000, currency: 'JPY', transaction: 'pi_3' },
  },
  { visitor: v4, at: at('2026-05-06T09:05:00') },
];
/** Refund of pi_1, posted after attribution. */
export const REFUND = { at: at('2026-05-06T12:00:00'), minor: 2000 };
export const hits = (agent: Agent, path: string, when: string, count: number, isPurged = false): Hit[] =>
  Array.from({ length: count }, () => ({ agent, path, at: at(when), isPurged }));
export const HITS: Hit[] = [
  ...hits('GPTBot', '/pricing', '2026-05-02T01:00:00', 3),
  ...hits('GPTBot', '/pricing?ref=a', '2026-05-03T01:00:00', 1),
  ...hits('OAI-SearchBot', '/pricing', '2026-05-04T01:00:00', 2),
  ...hits('ChatGPT-User', '/blog/x', '2026-05-03T07:59:00', 1),
  ...hits('ClaudeBot', '/docs/b', '2026-05-05T01:00:00', 5),
  ...hits('ClaudeBot', '/docs/a', '2026-05-05T01:00:00', 1),
  ...hits('PerplexityBot', '/docs/a', '2026-05-06T01:00:00', 2),
  ...hits('curl', '/pricing', '2026-05-06T01:00:00', 4),
  ...hits('GPTBot', '/pricing', '2026-04-20T01:00:00', 2),
  // Late on the 10th in UTC: counted on its UTC day whatever the zone.
  ...hits('PerplexityBot', '/docs/c', '2026-05-10T23:30:00', 1),
  ...hits('GPTBot', '/legacy', '2026-05-01T03:00:00', 3, true),
];

/** Sends the dataset to `site` (and a little to `other`), runs attribution, leaves the clock at NOW. */
export async function sendDataset(t: TestContext, site: Site, other: Site) {
  const pay = async (body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, provider: 'stripe', ...body },
    });
    expect(response.statusCode, response.body).toBe(202);
  };

  await t.database.db
    .insertInto('exchange_rates')
    .values(Object.entries(RATES).map(([currency, per_euro]) => ({ day: '2026-04-01', currency, per_euro })))
    .execute();
  const steps: { at: Date; run: () => Promise<unknown> }[] = [
    ...VISITS.map((v) => ({
      at: v.at,
      run: () => collect(t, pageview(site.snippet_key, v.visitor, v.url, REFERRERS[v.source])),
    })),
    ...CONVERSIONS.map((c) => ({
      at: c.at,
      run: () =>
        c.money
          ? pay({
              transaction_id: c.money.transaction,
              visitor_id: c.visitor,
              currency: c.money.currency,
              amount: c.money.minor / (c.money.currency === 'JPY' ? 1 : 100),
            })
          : collect(t, {
              type: 'event',
              site: site.snippet_key,
              vid: c.visitor,
              url: 'https://vis.example.com/thanks',
              name: 'signup',
            }),
    })),
    {
      at: REFUND.at,
      run: () =>
        pay({ transaction_id: 'pi_1', visitor_id: v1, currency: 'USD', amount: 120, refunded_amount: 20 }),
    },
    {
      at: at('2026-05-03T08:00:00'),
      run: () =>
        collect(
          t,
          pageview(other.snippet_key, newVisitorId(), 'https://other.example.com/pricing', REFERRERS.chatgpt),
        ),
    },
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const step of steps) {
    t.clock.set(step.at);
    await step.run();
  }
  t.clock.set(NOW);
  await t.app.services.attribution.runUntilIdle();

  const minted = await t.request({
    method: 'POST',
    url: '/v1/account/bot-tokens',
    headers: bearer(t.owner.apiKey),
    payload: { site_id: site.snippet_key },
  });
  const sendHits = async (siteHits: Hit[], token: string) => {
    const payload = {
      hits: siteHits.map((h) => ({
        user_agent: AGENTS[h.agent][2],
        path: h.path,
        timestamp: h.at.toISOString(),
      })),
    };
    const response = await t.request({
      method: 'POST',
      url: '/v1/crawler/hits',
      headers: bearer(token),
      payload,
    });
    expect(response.statusCode, response.body).toBe(202);
  };
  await sendHits(HITS, minted.json().plaintext_token);
  await t.database.db
    .deleteFrom('crawler_hits')
    .where('site_id', '=', site.id)
    .where('path', '=', '/legacy')
    .execute();
  const otherToken = await t.request({
    method: 'POST',
    url: '/v1/account/bot-tokens',
    headers: bearer(t.owner.apiKey),
    payload: { site_id: other.snippet_key },
  });
  await sendHits(hits('GPTBot', '/pricing', '2026-05-02T01:00:00', 7), otherToken.json().plaintext_token);
}
