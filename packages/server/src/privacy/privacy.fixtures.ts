/**
 * People for the privacy tests, written through the public ingest and payment endpoints: one
 * person over three visitor ids on three days (browser identifies by user id, a server event with
 * their email, a goal, a payment with a refund), linked so that every way of naming them reaches
 * the others.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../lib/clock.js';
import { newTransactionId, postPayment } from '../payments/payments.fixtures.js';
import { bearer, type TestApp } from '../test/app.js';

export interface SeededPerson {
  visitors: string[];
  userId: string;
  email: string;
  customerId: string;
  transactionId: string;
}

export interface SiteForSeeding {
  snippet_key: string;
  domain: string;
}

/** Seeds a person over three days from `start` (the clock ends a day after their last visit). */
export async function seedPerson(
  t: TestApp,
  site: SiteForSeeding,
  apiKey: string,
  label: string,
  start: Date,
): Promise<SeededPerson> {
  const tag = randomBytes(4).toString('hex');
  const person: SeededPerson = {
    visitors: [newVisitorId(), newVisitorId(), newVisitorId()],
    userId: `${label}-${tag}`,
    email: `${label}.${tag}@example.com`,
    customerId: `cus_${label}_${tag}`,
    transactionId: newTransactionId(),
  };
  const [first, second, third] = person.visitors as [string, string, string];
  const page = (path: string) => `https://${site.domain}${path}`;
  /** Checks the answer, then moves a minute on, so every row has its own time. */
  const ok = async (response: Promise<{ statusCode: number; body: string }>) => {
    const answer = await response;
    expect(answer.statusCode, answer.body).toBeLessThan(300);
    t.clock.advance(MINUTE_MS);
  };

  t.clock.set(start);
  await ok(collect(t, pageview(site.snippet_key, first, page('/pricing'), 'https://chatgpt.com/')));
  await ok(
    collect(t, {
      type: 'identify',
      site: site.snippet_key,
      vid: first,
      url: page('/pricing'),
      uid: person.userId,
    }),
  );

  t.clock.set(new Date(start.getTime() + DAY_MS));
  await ok(collect(t, pageview(site.snippet_key, second, page('/blog'), 'https://www.google.com/')));
  await ok(
    t.request({
      method: 'POST',
      url: '/v1/server/events',
      headers: bearer(apiKey),
      payload: { site_id: site.snippet_key, name: 'signup', visitor_id: second, email: person.email },
    }),
  );
  // Signed in on the second browser too: the link that ties the user id to the email.
  await ok(
    collect(t, {
      type: 'identify',
      site: site.snippet_key,
      vid: second,
      url: page('/blog'),
      uid: person.userId,
    }),
  );

  t.clock.set(new Date(start.getTime() + 2 * DAY_MS));
  await ok(collect(t, pageview(site.snippet_key, third, page('/checkout'), 'https://perplexity.ai/')));
  await ok(
    collect(t, {
      type: 'event',
      site: site.snippet_key,
      vid: third,
      url: page('/checkout'),
      name: 'purchase',
      props: { plan: 'pro' },
      value: 49,
      currency: 'EUR',
    }),
  );
  const payment = {
    site_id: site.snippet_key,
    transaction_id: person.transactionId,
    amount: 49,
    currency: 'EUR',
    provider: 'stripe',
    visitor_id: third,
    email: person.email,
    customer_id: person.customerId,
  };
  await ok(postPayment(t, apiKey, payment));
  t.clock.advance(HOUR_MS);
  await ok(postPayment(t, apiKey, { ...payment, refunded_amount: 10 }));
  t.clock.set(new Date(start.getTime() + 3 * DAY_MS));
  return person;
}
