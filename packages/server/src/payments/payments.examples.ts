/** Examples of `POST /v1/server/payments` for the OpenAPI document; each parses with its schema. */

const SITE_KEY = 'ttid_4kQp2ZrT9xVbN7mWcLs3Ed';

/** A first charge, matched by the visitor cookie. */
export const paymentExample = {
  site_id: SITE_KEY,
  transaction_id: 'pi_3QxR7bK2aLmN8cDe0fGh1iJk',
  amount: 49,
  currency: 'EUR',
  provider: 'stripe',
  visitor_id: 'q7Lm2xZaR4tY9wKp',
  email: 'buyer@shop.example.com',
  customer_id: 'cus_RkT8pQ2mWx4Lz9',
  timestamp: '2026-11-25T09:21:40Z',
};

/** A partial refund of that charge: the running total refunded so far. */
export const refundExample = {
  site_id: SITE_KEY,
  transaction_id: 'pi_3QxR7bK2aLmN8cDe0fGh1iJk',
  amount: 49,
  currency: 'EUR',
  provider: 'stripe',
  refunded_amount: 19.5,
};

/** Named examples of the payment body (`x-examples`). */
export const paymentExamples = {
  payment: {
    summary: 'A charge, matched to the buyer’s visits by the visitor cookie',
    value: paymentExample,
  },
  refund: { summary: 'A partial refund of that charge: the running total refunded', value: refundExample },
};

export const paymentRecordedExample = {
  status: 'recorded',
  transaction_id: 'pi_3QxR7bK2aLmN8cDe0fGh1iJk',
  event_id: 'pay_5b1e0c7a-93d2-4f68-8a41-2c6e9d0b7f35',
};
