/** Examples of the conversion listing for the OpenAPI document; each parses with its schema. */

export const SITE_UUID_EXAMPLE = '5a0f3c2e-8d4b-4e71-9c6a-1b2d3e4f5a6b';

export const conversionsPageExample = {
  conversions: [
    {
      event_id: 'pay_7c2e9a41-5b3d-4f6e-8a1c-2d3e4f5a6b7c',
      timestamp: '2026-11-25T09:21:40.000Z',
      event_name: 'payment',
      source_kind: 'ai',
      source_name: 'chatgpt.com',
      session_ai_source: 'chatgpt',
      country_code: 'DE',
      ai_source: 'chatgpt',
      confidence: 1,
      visitor_id_short: 'q7Lm2xZa',
      value_cents: 4900,
      currency: 'EUR',
      display_value: 49,
      rate_day: null,
      properties: { provider: 'stripe', renewal: false },
    },
    {
      event_id: 'eP2kq9Xw7LmZt4Rb1cVn8A',
      timestamp: '2026-11-25T09:15:38.004Z',
      event_name: 'signup',
      source_kind: 'non_ai',
      source_name: 'www.google.com',
      session_ai_source: 'search',
      country_code: 'AT',
      ai_source: 'search',
      confidence: 1,
      visitor_id_short: 'B3kd9QwE',
      value_cents: 0,
      currency: 'EUR',
      display_value: null,
      rate_day: null,
      properties: { plan: 'pro' },
    },
  ],
  page: 1,
  page_size: 50,
  has_more: false,
  total_count: 2,
  event_names: [
    { name: 'payment', count: 1 },
    { name: 'signup', count: 1 },
  ],
  display_currency: 'EUR',
  rates_as_of: '2026-11-27',
  rates_stale: false,
};
