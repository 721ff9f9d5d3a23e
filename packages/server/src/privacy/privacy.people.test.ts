/**
 * Generated people: each with several visitor ids tied together by identify calls and
 * server events, payments and refunds. The access export of each, asked by a different kind of
 * id, is checked against what was generated; then one is erased, leaving no trace, and the
 * others' exports do not change.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { emailPersonKey, userPersonKey } from '../identity/person-key.js';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { HOUR_MS, MINUTE_MS } from '../lib/clock.js';
import { postPayment } from '../payments/payments.fixtures.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { findTraces } from './privacy.trace.query.js';

interface Person {
  userId: string;
  email: string;
  customerId: string;
  visitors: string[];
  payments: { transactionId: string; amount: number; refunded: number }[];
  events: number;
  links: number;
}

/** A small seeded generator, so a failure can be run again as it was. */
function generator(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % below;
  };
}

describe('privacy requests over generated people', () => {
  const t = useTestApp();
  const random = generator(20261128);
  let site: Awaited<ReturnType<typeof insertSite>>;
  const people: Person[] = [];
  const asOwner = { cookie: '' };

  async function generatePerson(index: number): Promise<Person> {
    const tag = `${index}-${randomBytes(3).toString('hex')}`;
    const person: Person = {
      userId: `user-${tag}`,
      email: `person.${tag}@example.org`,
      customerId: `cus_${tag}`,
      visitors: Array.from({ length: 2 + random(5) }, () => newVisitorId()),
      payments: [],
      events: 0,
      links: 0,
    };
    const url = `https://${site.domain}/p/${index}`;
    for (const [n, vid] of person.visitors.entries()) {
      await collect(t, pageview(site.snippet_key, vid, url));
      person.events += 1;
      // Every visitor signs in with the user id; every other one also gives the email.
      await collect(t, { type: 'identify', site: site.snippet_key, vid, url, uid: person.userId });
      person.events += 1;
      person.links += 1;
      if (n % 2 === 0) {
        const response = await t.request({
          method: 'POST',
          url: '/v1/server/events',
          headers: bearer(t.owner.apiKey),
          payload: { site_id: site.snippet_key, name: 'signup', visitor_id: vid, email: person.email },
        });
        expect(response.statusCode, response.body).toBe(202);
        person.events += 1;
        person.links += 1;
      }
      t.clock.advance(HOUR_MS);
    }
    for (let p = 0, count = random(3); p < count; p++) {
      const payment = {
        transactionId: `ch_${tag}_${p}`,
        amount: 10 + random(90),
        refunded: 0,
      };
      const body = {
        site_id: site.snippet_key,
        transaction_id: payment.transactionId,
        amount: payment.amount,
        currency: 'EUR',
        customer_id: person.customerId,
        email: person.email,
      };
      expect((await postPayment(t, t.owner.apiKey, body)).statusCode).toBe(202);
      person.events += 1;
      if (random(2) === 1) {
        payment.refunded = 1 + random(payment.amount);
        t.clock.advance(MINUTE_MS);
        expect(
          (await postPayment(t, t.owner.apiKey, { ...body, refunded_amount: payment.refunded })).statusCode,
        ).toBe(202);
      }
      person.payments.push(payment);
      // Payments are exported in the order they were paid.
      t.clock.advance(MINUTE_MS);
    }
    return person;
  }

  const ask = async (type: string, subject: { kind: string; value: string }) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/privacy/requests',
      headers: asOwner,
      payload: { site_id: site.id, type, subject },
    });
    expect(response.statusCode, response.body).toBe(202);
    return response.json();
  };
  const exportOf = async (subject: { kind: string; value: string }) => {
    const request = await ask('access', subject);
    await t.app.services.privacyJobs.runPrivacyOnce();
    const response = await t.request({
      method: 'GET',
      url: `/v1/privacy/requests/${request.id}/export`,
      headers: asOwner,
    });
    expect(response.statusCode).toBe(200);
    return { request, doc: response.json() };
  };
  const subjectsOf = (person: Person) => [
    { kind: 'email', value: person.email },
    { kind: 'user_id', value: person.userId },
    { kind: 'visitor_id', value: person.visitors.at(-1) as string },
    { kind: 'customer_id', value: person.customerId },
  ];

  beforeAll(async () => {
    asOwner.cookie = t.owner.cookie;
    site = await insertSite(t, t.owner.accountId, { domain: 'people.example.org' });
    t.clock.set(new Date('2026-05-04T08:00:00Z'));
    for (let i = 0; i < 5; i++) people.push(await generatePerson(i));
  });

  it('exports each person whole, by any of their ids, and nobody else', async () => {
    for (const [i, person] of people.entries()) {
      // A customer id finds only people who paid.
      const subjects = subjectsOf(person).filter(
        (s) => s.kind !== 'customer_id' || person.payments.length > 0,
      );
      const { request, doc } = await exportOf(
        subjects[i % subjects.length] as { kind: string; value: string },
      );
      expect(request.matched).toEqual({
        visitors: person.visitors.length,
        visits: person.visitors.length,
        events: person.events,
        identity_links: person.links,
        payments: person.payments.length,
        refunds: person.payments.filter((payment) => payment.refunded > 0).length,
      });
      expect([...doc.visitor_ids].sort()).toEqual([...person.visitors].sort());
      expect(doc.visits.map((visit: { visitor_id: string }) => visit.visitor_id)).toEqual(person.visitors);
      expect(doc.events).toHaveLength(person.events);
      expect(doc.identity_links).toHaveLength(person.links);
      expect(
        doc.payments.map((payment: { transaction_id: string; amount: number; refunded_amount: number }) => ({
          transactionId: payment.transaction_id,
          amount: payment.amount,
          refunded: payment.refunded_amount,
        })),
      ).toEqual(person.payments);
      const others = people.filter((other) => other !== person);
      for (const other of others)
        for (const id of [...other.visitors, other.email]) expect(JSON.stringify(doc)).not.toContain(id);
    }
  });

  it('erases one person without a trace and leaves the others as they were', async () => {
    const [gone, ...kept] = people as [Person, ...Person[]];
    const before = [];
    for (const person of kept) before.push(await exportOf({ kind: 'user_id', value: person.userId }));
    await ask('erasure', { kind: 'user_id', value: gone.userId });
    await t.app.services.privacyJobs.runPrivacyOnce({ batchSize: 3 });
    const secret = t.config.secretKey as string;
    const keys = [emailPersonKey(secret, gone.email), userPersonKey(secret, gone.userId)];
    expect(
      await findTraces(t.database.db, {
        strings: [...gone.visitors, ...keys, gone.customerId],
        people: [...gone.visitors.map((id) => `v:${id}`), ...keys.map((key) => `p:${key}`)],
      }),
    ).toEqual([]);
    for (const [i, person] of kept.entries()) {
      const after = await exportOf({ kind: 'user_id', value: person.userId });
      const { request_id: _a, generated_at: _b, ...now } = after.doc;
      const {
        request_id: _c,
        generated_at: _d,
        ...then
      } = (before[i] as { doc: Record<string, unknown> }).doc;
      expect(now).toEqual(then);
    }
  });
});
