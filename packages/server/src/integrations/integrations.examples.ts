/** Examples of the processor connection routes, for the OpenAPI document. */
export const CONNECTION_ID_EXAMPLE = '6f1c2a7e-93b4-4d0a-9a51-3c8e2f7b1d44';

export const connectExample = {
  provider: 'stripe',
  signing_secret: 'whsec_3f9Ck2mVx81LqPz0Rt7yBn4Hw6Ja5Ds',
  name: 'Stripe live account',
};

export const connectionExample = {
  id: CONNECTION_ID_EXAMPLE,
  provider: 'stripe',
  name: 'Stripe live account',
  receive_url: `https://stats.example.com/v1/integrations/stripe/${CONNECTION_ID_EXAMPLE}`,
  created_at: '2026-03-14T09:26:53.000Z',
  last_event_at: '2026-03-16T18:02:11.000Z',
  last_error: null,
  last_error_at: null,
  events_received: 42,
};

export const newConnectionExample = {
  ...connectionExample,
  last_event_at: null,
  events_received: 0,
};

export const receivedExample = { received: true, duplicate: false, payments: 1 };

/** A Stripe event as Stripe sends it (trimmed), for the receiving endpoint's document. */
export const processorEventExample = {
  id: 'evt_1QfB2cLkdIwHu7ix0Y3bXz9K',
  object: 'event',
  type: 'checkout.session.completed',
  created: 1773480413,
  data: {
    object: {
      id: 'cs_live_a1B2c3D4',
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      payment_intent: 'pi_3QfB2bLkdIwHu7ix1kq8Zr5T',
      amount_total: 4900,
      currency: 'eur',
      client_reference_id: 'q7Lm2xZaR4tY9wKp',
      customer_details: { email: 'buyer@example.com' },
      metadata: {},
    },
  },
};
