/** Examples of the site export, for the OpenAPI document: an ndjson file of one record of each kind. */
export const exportQueryExample = { from: '2026-03-01', to: '2026-03-31', format: 'ndjson' };

const visitLine = {
  record: 'visit',
  id: '0b6f3c52-8e1d-4f7a-9c2e-5d4a7b81e6f0',
  visitor_id: 'Q2hhdEdQVHZpc2l0b3Iw',
  started_at: '2026-03-14T09:26:53.000Z',
  last_activity_at: '2026-03-14T09:31:10.000Z',
  entry_url: 'https://shop.example.com/pricing?utm_source=newsletter',
  exit_url: 'https://shop.example.com/checkout',
  source_kind: 'ai',
  session_ai_source: 'chatgpt',
  source_name: 'chatgpt.com',
  campaign: 'spring',
  utm_source: 'newsletter',
  utm_medium: 'email',
  utm_content: '',
  utm_term: '',
  ref: '',
  device_type: 'desktop',
  os: 'macOS',
  browser: 'Chrome',
  country_code: 'DE',
  city: 'Berlin',
  pageviews: 3,
  engaged_seconds: 164,
  is_new: true,
};

const eventLine = {
  record: 'event',
  id: 'kO3pV9w1XbR2cQ7nM4sT8a',
  type: 'event',
  name: 'plan_chosen',
  visitor_id: 'Q2hhdEdQVHZpc2l0b3Iw',
  visit_id: '0b6f3c52-8e1d-4f7a-9c2e-5d4a7b81e6f0',
  occurred_at: '2026-03-14T09:29:40.000Z',
  url: 'https://shop.example.com/pricing',
  properties: { plan: 'team' },
  value_minor: null,
  currency: null,
  origin: 'browser',
};

const paymentLine = {
  record: 'payment',
  provider: 'stripe',
  transaction_id: 'ch_3OqV8b2eZvKYlo2C1x9T4u7w',
  kind: 'payment',
  amount: '49.00',
  currency: 'EUR',
  refunded_amount: '0.00',
  renewal: false,
  customer_id: 'cus_PqR8sT2uVw',
  visitor_id: 'Q2hhdEdQVHZpc2l0b3Iw',
  paid_at: '2026-03-14T09:31:02.000Z',
  event_id: 'pay_7d2e9a41-3c6b-4f18-8e0a-b5c1d9f2a364',
};

export const ndjsonExportExample = [visitLine, eventLine, paymentLine]
  .map((line) => JSON.stringify(line))
  .join('\n');

export const csvExportExample =
  'provider,transaction_id,kind,amount,currency,refunded_amount,renewal,customer_id,visitor_id,paid_at,event_id\r\n' +
  'stripe,ch_3OqV8b2eZvKYlo2C1x9T4u7w,payment,49.00,EUR,0.00,false,cus_PqR8sT2uVw,Q2hhdEdQVHZpc2l0b3Iw,' +
  '2026-03-14T09:31:02.000Z,pay_7d2e9a41-3c6b-4f18-8e0a-b5c1d9f2a364\r\n';
