/** Examples of the events routes' queries and answers for the OpenAPI document; each parses with its schema. */

/** Custom events of the last week whose sessions came from ChatGPT; the document shows it parameter by parameter. */
export const eventsQueryExample = {
  site_id: 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed',
  from: '2026-11-19',
  to: '2026-11-25',
  timezone: 'Europe/Berlin',
  type: 'custom',
  source: 'chatgpt',
  limit: '20',
};

const exampleEvent = {
  event_id: 'eP2kq9Xw7LmZt4Rb1cVn8A',
  type: 'custom',
  name: 'signup',
  timestamp: '2026-11-25T09:14:03.512Z',
  session_id: '0b7d4f5e-3c1a-4e8b-9f2d-6a5c4b3e2d1f',
  visitor: 'vh_3TSqdA1O8qJugyhfgobMyRjV9Dm1OByjopNczEgLgGLpAAmfCgs67QpIlsshxyJ0x6aAjJ-aIJD1c13r',
  page: '/pricing',
  properties: { plan: 'pro' },
  value_cents: 4900,
  currency: 'EUR',
  source: { channel: 'ai', ai_source: 'chatgpt' },
};

export const eventsAnswerExample = {
  events: [
    exampleEvent,
    {
      event_id: 'Jk4mW9pQ2xRt7LbZ1cVn8E',
      type: 'pageview',
      name: 'pageview',
      timestamp: '2026-11-25T09:13:41.090Z',
      session_id: '0b7d4f5e-3c1a-4e8b-9f2d-6a5c4b3e2d1f',
      visitor: exampleEvent.visitor,
      page: '/pricing',
      properties: {},
      value_cents: null,
      currency: null,
      source: { channel: 'ai', ai_source: 'chatgpt' },
    },
  ],
  next_before: 'WyIyMDI2LTExLTI1VDA5OjEzOjQxLjA5MDAwMFoiLCJKazRtVzlwUTJ4UnQ3TGJaMWNWbjhFIl0',
};

export const eventNamesExample = {
  names: [
    { name: 'signup', type: 'custom', events: 412, visitors: 398 },
    { name: 'payment', type: 'payment', events: 57, visitors: 51 },
    { name: 'invoice_paid', type: 'server', events: 23, visitors: 21 },
  ],
};
