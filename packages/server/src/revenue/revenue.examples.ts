/** The example answer of `GET /v1/revenue` for the OpenAPI document; it parses with its schema. */

const chatgpt = { source: 'chatgpt', gross: 147, refunded: 49, net: 98, conversions: 4, trials: 1 };
const search = { source: 'search', gross: 99, refunded: 0, net: 99, conversions: 2, trials: 0 };
const unmatched = { source: '', gross: 49, refunded: 0, net: 49, conversions: 1, trials: 0 };

export const revenueReportExample = {
  site_id: 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed',
  from: '2026-11-19',
  to: '2026-11-25',
  attribution_model: 'last_touch',
  currency: 'EUR',
  totals: { gross: 295, refunded: 49, net: 246, conversions: 7, trials: 1 },
  sources: [search, chatgpt, unmatched],
  days: [
    {
      date: '2026-11-20',
      gross: 196,
      refunded: 0,
      net: 196,
      conversions: 5,
      trials: 1,
      sources: [
        { source: 'chatgpt', gross: 147, refunded: 0, net: 147, conversions: 4, trials: 1 },
        { source: '', gross: 49, refunded: 0, net: 49, conversions: 1, trials: 0 },
      ],
    },
    {
      date: '2026-11-24',
      gross: 99,
      refunded: 49,
      net: 50,
      conversions: 2,
      trials: 0,
      sources: [search, { source: 'chatgpt', gross: 0, refunded: 49, net: -49, conversions: 0, trials: 0 }],
    },
  ],
  unconverted: [],
};
