/**
 * Examples of the ingest routes (the tracker's `POST /v1/collect` and `POST /v1/server/events`)
 * for the OpenAPI document; each parses with its schema.
 */

const SITE_KEY = 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed';
const VISITOR_ID = 'q7Lm2xZaR4tY9wKp';

/** A first pageview, arriving from ChatGPT. */
export const collectPageviewExample = {
  type: 'pageview',
  site: SITE_KEY,
  vid: VISITOR_ID,
  eid: 'Vb3nW8kQ1zXr5TmL',
  url: 'https://shop.example.com/pricing?utm_source=chatgpt.com',
  ref: 'https://chatgpt.com/',
  sw: 1440,
};

/** A custom event with properties and a value, from `touchtrail.track`. */
export const collectEventExample = {
  type: 'event',
  site: SITE_KEY,
  vid: VISITOR_ID,
  eid: 'Hs6dJ2pF9gYc4NaE',
  url: 'https://shop.example.com/signup',
  sw: 1440,
  name: 'signup',
  props: { plan: 'pro' },
  value: 49,
  currency: 'EUR',
};

/** Named examples of the collect body (`x-examples`). */
export const collectExamples = {
  pageview: { summary: 'A first pageview, arriving from ChatGPT', value: collectPageviewExample },
  event: { summary: 'A custom event with properties and a value', value: collectEventExample },
};

export const collectAcceptedExample = { accepted: true };

export const serverEventExample = {
  site_id: SITE_KEY,
  name: 'invoice_paid',
  visitor_id: VISITOR_ID,
  user_id: 'cus_81422',
  properties: { plan: 'pro', seats: 5 },
  value: 245,
  currency: 'EUR',
  event_id: 'inv_2026_11_004127',
  timestamp: '2026-11-25T09:21:40Z',
};

/** Named examples of the server events body (`x-examples`). */
export const serverEventExamples = {
  invoicePaid: {
    summary: 'A paid invoice, linking the visitor to your customer id',
    value: serverEventExample,
  },
};

export const serverEventRecordedExample = { status: 'recorded', event_id: 'inv_2026_11_004127' };
