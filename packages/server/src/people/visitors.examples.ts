/** Examples of the visitor reports' answers for the OpenAPI document; each parses with its schema. */

export const VISITOR_HANDLE_EXAMPLE =
  'vh_Zp0cS1lA5OqG3yH0aT0YmKZrW9vVgQ8kGqk0Q4mJ1t7UuL2EeB1oI9wXyNcRfDsHaJ3bVtPlMnKe';
const LATEST_VISIT_ID = '0195e3a4-7c1b-7d2e-9f30-5a6b7c8d9e0f';

const chatgptEntry = {
  ai_source: 'chatgpt',
  source_kind: 'ai',
  source_name: 'chatgpt.com',
  campaign: '',
  ref: '',
  url: 'https://shop.example.com/pricing',
};
const macChrome = { device_type: 'desktop', os: 'macOS', browser: 'Chrome' };
const berlin = { country_code: 'DE', city: 'Berlin' };

export const visitorRowExample = {
  handle: VISITOR_HANDLE_EXAMPLE,
  label: { name: 'Amber Otter', initials: 'AO', short_id: 'k3x9qa' },
  first_seen: '2026-03-02T09:14:05.120Z',
  last_seen: '2026-03-28T17:40:11.903Z',
  session_count: 4,
  pageviews: 11,
  active_time_sec: 640,
  is_new: true,
  entry: chatgptEntry,
  device: macChrome,
  location: berlin,
  revenue: { total_cents: 4900, currency: 'EUR', conversion_count: 2, unconverted: [] },
  client_revenue: null,
  latest_session_id: LATEST_VISIT_ID,
};

export const goalVisitorsExample = {
  visitors: [visitorRowExample],
  goal_name: 'signup',
  from: '2026-03-22',
  to: '2026-03-28',
  page: 1,
  page_size: 50,
  has_more: false,
  total_count: 1,
  identity_merge_complete: true,
};

export const peopleListingExample = {
  visitors: [visitorRowExample],
  from: '2026-03-01',
  to: '2026-03-30',
  next_before: 'q2vX8m0cR4YtB1nW7pLsK9aEoD3hJ6fUiG5zQ0xVbN2yTcMwA8rS4eP1uH7kL3jF',
  identity_merge_complete: true,
};

export const visitorProfileExample = {
  ...visitorRowExample,
  from: '2026-03-22',
  to: '2026-03-28',
  identity_merge_complete: true,
  visits: [
    {
      id: LATEST_VISIT_ID,
      started_at: '2026-03-28T17:31:02.448Z',
      last_activity_at: '2026-03-28T17:40:11.903Z',
      pageviews: 3,
      active_time_sec: 204,
      entry: { ...chatgptEntry, url: 'https://shop.example.com/blog/ai-analytics' },
      device: macChrome,
      location: berlin,
    },
  ],
  conversions: [
    {
      event_id: 'pay_7c2e9a41-5b3d-4f6e-8a1c-2d3e4f5a6b7c',
      name: 'payment',
      occurred_at: '2026-03-28T17:39:50.000Z',
      value_cents: 4900,
      currency: 'EUR',
      display_value: 49,
      rate_day: null,
    },
    {
      event_id: 'eP2kq9Xw7LmZt4Rb1cVn8A',
      name: 'signup',
      occurred_at: '2026-03-28T17:35:12.511Z',
      value_cents: null,
      currency: null,
      display_value: null,
      rate_day: null,
    },
  ],
  refunds: [
    {
      event_id: 'pay_7c2e9a41-5b3d-4f6e-8a1c-2d3e4f5a6b7c',
      refunded_at: '2026-03-30T09:12:00.000Z',
      amount_cents: 1900,
      currency: 'EUR',
    },
  ],
};
