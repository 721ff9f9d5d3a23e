/** The example answer of `GET /v1/revenue` for the OpenAPI document; it parses with its schema. */

// A payment in Argentine pesos, a currency without an ECB rate, stays in its own currency.
const pesos = [{ currency: 'ARS', gross: 25000, refunded: 0, net: 25000 }];

const chatgpt = {
  source: 'chatgpt',
  gross: 147,
  refunded: 49,
  net: 98,
  conversions: 4,
  trials: 1,
  unconverted: [],
};
const search = {
  source: 'search',
  gross: 99,
  refunded: 0,
  net: 99,
  conversions: 3,
  trials: 0,
  unconverted: pesos,
};
const direct = {
  source: 'direct',
  gross: 49,
  refunded: 0,
  net: 49,
  conversions: 1,
  trials: 0,
  unconverted: [],
};

export const revenueReportExample = {
  site_id: 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed',
  from: '2026-11-19',
  to: '2026-11-25',
  attribution_model: 'last_touch',
  currency: 'EUR',
  totals: { gross: 295, refunded: 49, net: 246, conversions: 8, trials: 1 },
  sources: [search, chatgpt, direct],
  days: [
    {
      date: '2026-11-20',
      gross: 196,
      refunded: 0,
      net: 196,
      conversions: 5,
      trials: 1,
      unconverted: [],
      sources: [
        { source: 'chatgpt', gross: 147, refunded: 0, net: 147, conversions: 4, trials: 1, unconverted: [] },
        { source: 'direct', gross: 49, refunded: 0, net: 49, conversions: 1, trials: 0, unconverted: [] },
      ],
    },
    {
      date: '2026-11-24',
      gross: 99,
      refunded: 49,
      net: 50,
      conversions: 3,
      trials: 0,
      unconverted: pesos,
      sources: [
        search,
        { source: 'chatgpt', gross: 0, refunded: 49, net: -49, conversions: 0, trials: 0, unconverted: [] },
      ],
    },
  ],
  unconverted: pesos,
};
