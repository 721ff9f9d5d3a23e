/** The example answer of `GET /v1/ai-visibility` for the OpenAPI document; it parses with its schema. */

export const aiVisibilityExample = {
  pages: [
    {
      page: '/pricing',
      crawler_hits: {
        total: 57,
        by_operator: [
          { operator: 'OpenAI', purpose: 'training', hits: 31 },
          { operator: 'OpenAI', purpose: 'user', hits: 14 },
          { operator: 'Anthropic', purpose: 'training', hits: 12 },
        ],
      },
      ai_visits: {
        total: 23,
        by_assistant: [
          { ai_source: 'chatgpt', visits: 19 },
          { ai_source: 'perplexity', visits: 4 },
        ],
      },
      conversions: 3,
      revenue_net_cents: 41900,
    },
    {
      page: '/docs/setup',
      crawler_hits: {
        total: 12,
        by_operator: [{ operator: 'Perplexity', purpose: 'search', hits: 12 }],
      },
      ai_visits: { total: 0, by_assistant: [] },
      conversions: 0,
      revenue_net_cents: 0,
    },
  ],
  meta: {
    date_range: ['2026-10-27', '2026-11-25'],
    timezone: 'Europe/Berlin',
    attribution_model: 'last_touch',
    currency: 'EUR',
    total_rows: 2,
    unconverted: [],
    unplaced: { conversions: 0, revenue_net_cents: 0 },
  },
};
