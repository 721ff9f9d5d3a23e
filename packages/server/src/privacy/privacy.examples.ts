/** Examples of the privacy request routes, for the OpenAPI document. */
export const REQUEST_ID_EXAMPLE = '9b0e6f3c-2a4d-4c1e-8f7b-3d5a6e1c2b90';

export const createRequestExample = {
  site_id: '3f6c1a52-8d4e-4b7a-9c21-5e8f0d2b7a64',
  type: 'erasure',
  subject: { kind: 'email', value: 'ada@example.com' },
};

const matched = { visitors: 2, visits: 14, events: 61, identity_links: 3, payments: 1, refunds: 0 };

export const pendingRequestExample = {
  id: REQUEST_ID_EXAMPLE,
  site_id: 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed',
  type: 'erasure',
  status: 'pending',
  subject: { kind: 'email' },
  matched,
  requested_by: { user_id: '5d1b7e2a-0c3f-4a9d-b6e8-1f2a3b4c5d6e', key_id: null },
  created_at: '2026-11-25T10:02:11.000Z',
  completed_at: null,
  export_url: null,
  export_expires_at: null,
  error: null,
};

export const completedAccessExample = {
  ...pendingRequestExample,
  type: 'access',
  status: 'completed',
  completed_at: '2026-11-25T10:02:14.000Z',
  export_url: `/v1/privacy/requests/${REQUEST_ID_EXAMPLE}/export`,
  export_expires_at: '2026-12-02T10:02:14.000Z',
};

export const requestListExample = {
  requests: [completedAccessExample, pendingRequestExample],
  next_cursor: null,
};

/** An access export, shortened to one row of each kind. */
export const accessExportExample = {
  request_id: REQUEST_ID_EXAMPLE,
  generated_at: '2026-11-25T10:05:00.000Z',
  site: { id: 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed', domain: 'shop.example.com' },
  subject: { kind: 'email' },
  visitor_ids: ['Yc3qv0Jx1p8r2K5tZb7mWg'],
  identity_links: [
    { visitor_id: 'Yc3qv0Jx1p8r2K5tZb7mWg', identified_by: 'email', created_at: '2026-11-20T09:00:00.000Z' },
  ],
  visits: [
    {
      id: '0b6f1c2d-3e4f-4a5b-8c7d-9e0f1a2b3c4d',
      visitor_id: 'Yc3qv0Jx1p8r2K5tZb7mWg',
      started_at: '2026-11-20T08:58:12.000Z',
      last_activity_at: '2026-11-20T09:04:40.000Z',
      entry_url: 'https://shop.example.com/pricing',
      exit_url: 'https://shop.example.com/checkout',
      source_kind: 'ai',
      session_ai_source: 'chatgpt',
      source_name: 'ChatGPT',
      campaign: '',
      utm_source: '',
      utm_medium: '',
      utm_content: '',
      utm_term: '',
      ref: '',
      device_type: 'desktop',
      os: 'macOS',
      browser: 'Chrome',
      country_code: 'DE',
      city: 'Berlin',
      pageviews: 3,
      engaged_seconds: 214,
      is_new: true,
    },
  ],
  events: [
    {
      event_id: 'k2Jx9QpL0vT7rB3n',
      type: 'event',
      name: 'signup',
      visitor_id: 'Yc3qv0Jx1p8r2K5tZb7mWg',
      visit_id: '0b6f1c2d-3e4f-4a5b-8c7d-9e0f1a2b3c4d',
      occurred_at: '2026-11-20T09:03:00.000Z',
      url: 'https://shop.example.com/signup',
      properties: { plan: 'pro' },
      origin: 'browser',
      identified_by: null,
      value: null,
      currency: null,
    },
  ],
  payments: [
    {
      event_id: 'pay_7c2e9a41-5b3d-4f6e-8a1c-2d3e4f5a6b7c',
      provider: 'stripe',
      transaction_id: 'pi_3QxR7bK2aLmN8cDe0fGh1iJk',
      kind: 'payment',
      currency: 'EUR',
      renewal: false,
      customer_id: 'cus_R4n8Kq2',
      visitor_id: 'Yc3qv0Jx1p8r2K5tZb7mWg',
      amount: 49,
      refunded_amount: 0,
      paid_at: '2026-11-20T09:10:00.000Z',
      refunds: [],
    },
  ],
  attribution_credits: [
    {
      event_id: 'pay_7c2e9a41-5b3d-4f6e-8a1c-2d3e4f5a6b7c',
      model: 'last_touch',
      source: 'chatgpt',
      source_kind: 'ai',
      share: 1,
    },
  ],
};
