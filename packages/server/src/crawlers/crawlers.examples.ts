/**
 * Examples of the crawler routes (hits, report, bot tokens) for the OpenAPI document; each parses
 * with its schema.
 */

const SITE_KEY = 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed';
export const BOT_TOKEN_ID_EXAMPLE = '3a7c9e1f-2b4d-4f6a-8c0e-1d3f5a7b9c2e';
const PLAINTEXT_TOKEN = 'tt_bot_Xq7Lm2Rt9Vb4Nc8Zk1Pw6Hs3Jd5Fg0YeAuCiOo2Kx4w';

export const crawlerHitsExample = {
  site_id: SITE_KEY,
  hits: [
    {
      user_agent:
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
      path: '/pricing',
      status: 200,
      timestamp: '2026-11-25T09:02:11.000Z',
      ip: '20.171.207.14',
    },
    {
      user_agent: 'Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
      path: '/docs/setup?ref=sidebar',
      status: 301,
      timestamp: '2026-11-25T09:02:14.520Z',
    },
  ],
};

export const crawlerHitsAcceptedExample = { accepted: 2 };

export const crawlerReportExample = {
  site_id: SITE_KEY,
  from: '2026-11-19',
  to: '2026-11-25',
  attribution_model: 'last_touch',
  currency: 'EUR',
  crawlers: [
    {
      crawler: 'GPTBot',
      operator: 'OpenAI',
      purpose: 'training',
      hits: 412,
      verified_hits: 398,
      spoofed_hits: 3,
      days: [
        { date: '2026-11-24', hits: 230 },
        { date: '2026-11-25', hits: 182 },
      ],
    },
    {
      crawler: 'ChatGPT-User',
      operator: 'OpenAI',
      purpose: 'user',
      hits: 57,
      verified_hits: 57,
      spoofed_hits: 0,
      days: [{ date: '2026-11-25', hits: 57 }],
    },
  ],
  purposes: [
    { purpose: 'training', hits: 412 },
    { purpose: 'user', hits: 57 },
  ],
  top_paths: [
    { path: '/pricing', hits: 121, non_2xx_hits: 0 },
    { path: '/docs/setup', hits: 64, non_2xx_hits: 12 },
  ],
  operators: [
    {
      operator: 'OpenAI',
      assistants: ['chatgpt'],
      hits: 469,
      pages_fetched: 88,
      non_2xx_hits: 71,
      non_2xx_paths: 4,
      assistant_visits: 412,
      conversions: 37,
      payments: 4,
      gross: 196,
      refunded: 49,
      net: 147,
      unconverted: [],
      unconverted_revenue_days: 0,
    },
  ],
  address_checks: [
    { crawler: 'GPTBot', ranges: 28, fetched_at: '2026-11-25T03:00:12.845Z', in_use: true },
    { crawler: 'ChatGPT-User', ranges: 11, fetched_at: '2026-11-25T03:00:13.102Z', in_use: true },
  ],
};

export const botTokenListExample = {
  bot_tokens: [
    {
      id: BOT_TOKEN_ID_EXAMPLE,
      name: 'Edge middleware (production)',
      prefix: PLAINTEXT_TOKEN.slice(0, 14),
      snippet_key: SITE_KEY,
      created_at: '2026-11-02T11:20:05.117Z',
      last_used_at: '2026-11-25T09:02:15.000Z',
      revoked_at: null,
    },
  ],
};

export const createBotTokenExample = { site_id: SITE_KEY, name: 'Edge middleware (production)' };

export const createdBotTokenExample = {
  id: BOT_TOKEN_ID_EXAMPLE,
  snippet_key: SITE_KEY,
  name: 'Edge middleware (production)',
  plaintext_token: PLAINTEXT_TOKEN,
  created_at: '2026-11-02T11:20:05.117Z',
};

export const revokedBotTokenExample = { id: BOT_TOKEN_ID_EXAMPLE, revoked_at: '2026-11-25T10:44:31.920Z' };
