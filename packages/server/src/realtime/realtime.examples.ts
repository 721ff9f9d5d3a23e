/** The example answer of `GET /v1/stats/realtime` for the OpenAPI document; it parses with its schema. */

const EXAMPLE_NOW = '2026-11-25T14:12:31.204Z';
const EXAMPLE_COUNTS = [
  [3, 2],
  [0, 0],
  [1, 1],
  [5, 3],
];

/** The example's 30 minutes up to EXAMPLE_NOW, the last few busy. */
const examplePerMinute = Array.from({ length: 30 }, (_, i) => {
  const [pageviews, visitors] = EXAMPLE_COUNTS[i - 26] ?? [0, 0];
  return {
    minute: new Date(Date.parse('2026-11-25T13:43:00Z') + i * 60_000).toISOString(),
    pageviews,
    visitors,
  };
});

export const realtimeExample = {
  visitors: 4,
  pages: [
    { page: '/pricing', visitors: 2 },
    { page: '/', visitors: 1 },
  ],
  sources: [
    { channel: 'ai', ai_source: 'chatgpt', visitors: 2 },
    { channel: 'search', ai_source: null, visitors: 1 },
    { channel: 'direct', ai_source: null, visitors: 1 },
  ],
  per_minute: examplePerMinute,
  as_of: EXAMPLE_NOW,
};
