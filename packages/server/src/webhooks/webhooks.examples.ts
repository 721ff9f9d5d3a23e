/** Examples of the webhook routes' requests and answers for the OpenAPI document; each parses with its schema. */

export const SITE_KEY_EXAMPLE = 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed';
export const WEBHOOK_ID_EXAMPLE = '8c3f1a2b-5d6e-4f70-9a8b-7c6d5e4f3a2b';

const webhook = {
  id: WEBHOOK_ID_EXAMPLE,
  site_id: SITE_KEY_EXAMPLE,
  url: 'https://hooks.shop.example.com/touchtrail',
  event_types: ['ai_session.classified', 'conversion.attributed'],
  enabled: true,
  verification_status: 'verified',
  created_at: '2026-11-03T10:12:45.301Z',
  updated_at: '2026-11-03T10:12:45.301Z',
};

export const webhookListExample = { webhooks: [webhook] };

export const createWebhookExample = {
  url: 'https://hooks.shop.example.com/touchtrail',
  event_types: ['ai_session.classified', 'conversion.attributed'],
};

export const createdWebhookExample = {
  ...webhook,
  secret: 'whsec_Qm9vT3p2N1hKc0t4V2J5TDhaMkVxUnRZNWNVaDBnQWk=',
};

export const updateWebhookExample = { enabled: false };

export const updatedWebhookExample = { ...webhook, enabled: false, updated_at: '2026-11-25T08:40:02.118Z' };

/** The body of a `conversion.attributed` delivery, as the delivery log shows it. */
const conversionAttributedExample = {
  type: 'conversion.attributed',
  id: 'whd_7Hq2LmX9pR4tZ8cV1bN6kW3y',
  created_at: '2026-11-25T09:21:40.000Z',
  data: {
    site_id: SITE_KEY_EXAMPLE,
    event_id: 'pay_7c2e9a41-5b3d-4f6e-8a1c-2d3e4f5a6b7c',
    event_name: 'payment',
    occurred_at: '2026-11-25T09:21:40.000Z',
    value_cents: 4900,
    currency: 'EUR',
    transaction_id: 'pi_3QxR7bK2aLmN8cDe0fGh1iJk',
    provider: 'stripe',
    renewal: false,
    refunded_cents: 0,
    credits: {
      first_touch: [{ source: 'search', source_kind: 'non_ai', share: 1 }],
      last_touch: [{ source: 'chatgpt', source_kind: 'ai', share: 1 }],
      linear: [
        { source: 'chatgpt', source_kind: 'ai', share: 0.5 },
        { source: 'search', source_kind: 'non_ai', share: 0.5 },
      ],
      time_decay: [
        { source: 'chatgpt', source_kind: 'ai', share: 0.71 },
        { source: 'search', source_kind: 'non_ai', share: 0.29 },
      ],
    },
  },
};

export const deliveriesPageExample = {
  deliveries: [
    {
      id: '1e2d3c4b-5a69-4788-96a5-b4c3d2e1f0a9',
      webhook_id: WEBHOOK_ID_EXAMPLE,
      event_type: 'conversion.attributed',
      envelope_id: 'whd_7Hq2LmX9pR4tZ8cV1bN6kW3y',
      dedupe_key: 'pay_7c2e9a41-5b3d-4f6e-8a1c-2d3e4f5a6b7c',
      status: 'retrying',
      attempt_count: 2,
      response_status: 502,
      last_error: 'HTTP 502: Bad Gateway',
      next_attempt_at: '2026-11-25T09:32:10.000Z',
      last_attempt_at: '2026-11-25T09:22:10.412Z',
      created_at: '2026-11-25T09:21:41.208311Z',
      payload: JSON.stringify(conversionAttributedExample),
    },
  ],
  next_before: null,
};

export const testResultExample = {
  ok: true,
  status_code: 200,
  latency_ms: 143,
  response_snippet: '{"received":true}',
  verification_status: 'verified',
};

export const rotatedSecretExample = {
  id: WEBHOOK_ID_EXAMPLE,
  secret: 'whsec_ZGs4TjJxV3BMN3ZSM2NYbTlCeUU1dEdoMEtqNlVmQTE=',
};

/** What Touchtrail POSTs to an endpoint, one per event type (the document's `webhooks` section). */
export const webhookEventExamples: Record<string, unknown> = {
  'ai_session.classified': {
    type: 'ai_session.classified',
    id: 'whd_Tn4pQ8xW2mZ6rK1vB9cL5hYe',
    created_at: '2026-11-25T09:14:03.120Z',
    data: {
      site_id: SITE_KEY_EXAMPLE,
      visit_id: '0b9d3c52-6f1e-4c4a-9a57-2f3e8d1c7a10',
      ai_source: 'chatgpt',
      source_kind: 'ai',
      source_name: 'chatgpt.com',
      entry_url: 'https://shop.example.com/pricing',
      campaign: '',
      country_code: 'DE',
      device_type: 'desktop',
      is_new_visitor: true,
      started_at: '2026-11-25T09:14:03.120Z',
    },
  },
  'conversion.attributed': conversionAttributedExample,
  'conversion.refunded': {
    type: 'conversion.refunded',
    id: 'whd_Vb8kQ3nM6xT1rL9pZ4wC2hYd',
    created_at: '2026-11-27T14:05:12.000Z',
    data: {
      site_id: SITE_KEY_EXAMPLE,
      event_id: 'pay_7c2e9a41-5b3d-4f6e-8a1c-2d3e4f5a6b7c',
      transaction_id: 'pi_3QxR7bK2aLmN8cDe0fGh1iJk',
      provider: 'stripe',
      refunded_cents: 1950,
      currency: 'EUR',
      refunded_at: '2026-11-27T14:05:12.000Z',
      credits: {
        first_touch: [{ source: 'search', source_kind: 'non_ai', share: 1, refunded_cents: 1950 }],
        last_touch: [{ source: 'chatgpt', source_kind: 'ai', share: 1, refunded_cents: 1950 }],
        linear: [
          { source: 'chatgpt', source_kind: 'ai', share: 0.5, refunded_cents: 975 },
          { source: 'search', source_kind: 'non_ai', share: 0.5, refunded_cents: 975 },
        ],
        time_decay: [
          { source: 'chatgpt', source_kind: 'ai', share: 0.71, refunded_cents: 1384.5 },
          { source: 'search', source_kind: 'non_ai', share: 0.29, refunded_cents: 565.5 },
        ],
      },
    },
  },
  'webhook.ping': {
    type: 'webhook.ping',
    id: 'whd_Jq2sV7nB4xR9kL3mW8cT1pYa',
    created_at: '2026-11-25T09:30:12.004Z',
    data: { site_id: '5a0f3c2e-8d4b-4e71-9c6a-1b2d3e4f5a6b', webhook_id: WEBHOOK_ID_EXAMPLE },
  },
};
