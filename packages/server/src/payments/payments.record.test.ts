import { describe, expect, it } from 'vitest';
import { emailPersonKey } from '../identity/person-key.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { HOUR_MS } from '../lib/clock.js';
import { useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { newTransactionId, postPayment, storedRows } from './payments.fixtures.js';

describe('POST /v1/server/payments: recording', () => {
  const t = useTestApp();

  it('records a payment as a conversion with its job, link and daily count; the same post again is a duplicate', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const vid = newVisitorId();
    const paidAt = new Date(t.clock.now().getTime() - 3 * HOUR_MS);
    const body = {
      site_id: site.snippet_key,
      transaction_id: 'pi_3Nf0001',
      amount: 49.99,
      currency: 'eur',
      provider: 'stripe',
      visitor_id: vid,
      email: 'Buyer@Example.com',
      customer_id: 'cus_9 buyer@example.com +44 20 7946 0958',
      timestamp: paidAt.toISOString(),
    };
    const first = await postPayment(t, t.owner.apiKey, body);
    expect(first.statusCode).toBe(202);
    const eventId = first.json().event_id;
    expect(first.json()).toEqual({ status: 'recorded', transaction_id: 'pi_3Nf0001', event_id: eventId });
    const again = await postPayment(t, t.owner.apiKey, { ...body, amount: 12 });
    expect(again.statusCode).toBe(202);
    // A duplicate answers the id of the payment already held.
    expect(again.json()).toEqual({ status: 'duplicate', transaction_id: 'pi_3Nf0001', event_id: eventId });

    const rows = await storedRows(t, site.id);
    expect(rows.payments).toHaveLength(1);
    const payment = rows.payments[0];
    const personKey = emailPersonKey(t.config.secretKey as string, 'buyer@example.com');
    expect(payment).toMatchObject({
      provider: 'stripe',
      kind: 'payment',
      amount_minor: 4999,
      currency: 'EUR',
      refunded_minor: 0,
      renewal: false,
      customer_id: 'cus_9 [REDACTED] [REDACTED]',
      visitor_id: vid,
      person_key: personKey,
      paid_at: paidAt,
      received_at: t.clock.now(),
      attributed_at: null,
    });
    expect(eventId).toBe(`pay_${payment?.id}`);
    expect(rows.events).toEqual([
      expect.objectContaining({
        event_id: `pay_${payment?.id}`,
        type: 'event',
        name: 'payment',
        origin: 'server',
        visitor_id: vid,
        person_key: personKey,
        occurred_at: paidAt,
        received_at: t.clock.now(),
        value_minor: 4999,
        currency: 'EUR',
        properties: { provider: 'stripe', renewal: false, customer_id: 'cus_9 [REDACTED] [REDACTED]' },
      }),
    ]);
    expect(rows.completions).toEqual([
      { site_id: site.id, day: paidAt.toISOString().slice(0, 10), name: 'payment', completions: 1 },
    ]);
    expect(rows.jobs).toEqual([
      expect.objectContaining({
        event_id: `pay_${payment?.id}`,
        status: 'pending',
        run_after: t.clock.now(),
      }),
    ]);
    expect(rows.links).toEqual([expect.objectContaining({ person_key: personKey, visitor_id: vid })]);

    const everything = JSON.stringify(rows).toLowerCase();
    expect(everything).not.toContain('buyer@example.com');
    expect(everything).not.toContain('7946');
    // Neither a refused post nor a served one writes the email to the log.
    await postPayment(t, t.owner.apiKey, { ...body, transaction_id: 'pi_bad', amount: -1 });
    expect(t.logs()).toContain('"statusCode":422');
    expect(t.logs().toLowerCase()).not.toContain('buyer@example.com');
  });

  it('keys idempotency on site + provider + transaction_id (default provider `api`)', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const base = { site_id: site.snippet_key, transaction_id: 'order-77', amount: 10, currency: 'USD' };
    expect((await postPayment(t, t.owner.apiKey, base)).json().status).toBe('recorded');
    expect((await postPayment(t, t.owner.apiKey, { ...base, provider: 'api' })).json().status).toBe(
      'duplicate',
    );
    expect((await postPayment(t, t.owner.apiKey, { ...base, provider: 'paddle' })).json().status).toBe(
      'recorded',
    );
    const other = await insertSite(t, t.owner.accountId);
    expect(
      (await postPayment(t, t.owner.apiKey, { ...base, site_id: other.snippet_key })).json().status,
    ).toBe('recorded');
    const rows = await storedRows(t, site.id);
    expect(rows.payments.map((p) => p.provider).sort()).toEqual(['api', 'paddle']);
    expect(rows.completions).toEqual([expect.objectContaining({ name: 'payment', completions: 2 })]);
  });

  it('records trials (amount 0, or is_free_trial) as conversions named trial with zero revenue', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const post = (extra: object) =>
      postPayment(t, t.owner.apiKey, {
        site_id: site.snippet_key,
        currency: 'USD',
        transaction_id: newTransactionId(),
        ...extra,
      });
    expect((await post({ amount: 0 })).json().status).toBe('trial');
    expect((await post({ amount: 19, is_free_trial: true })).json().status).toBe('trial');
    expect((await post({ amount: 19, is_free_trial: false })).json().status).toBe('recorded');
    const rows = await storedRows(t, site.id);
    expect(rows.payments.map((p) => [p.kind, p.amount_minor]).sort()).toEqual([
      ['payment', 1900],
      ['trial', 0],
      ['trial', 0],
    ]);
    expect(rows.events.filter((e) => e.name === 'trial').map((e) => e.value_minor)).toEqual([0, 0]);
    expect(rows.completions.map((c) => [c.name, c.completions]).sort()).toEqual([
      ['payment', 1],
      ['trial', 2],
    ]);
    expect(rows.jobs).toHaveLength(3);
  });

  it('stores renewals, and records without visitor or email (unattributed) or with the email alone', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const base = { site_id: site.snippet_key, amount: 1200, currency: 'JPY' };
    await postPayment(t, t.owner.apiKey, {
      ...base,
      transaction_id: 'sub-1-m2',
      renewal: true,
      visitor_id: null,
      email: null,
    });
    await postPayment(t, t.owner.apiKey, { ...base, transaction_id: 'sub-2-m1', email: 'solo@example.org' });
    const rows = await storedRows(t, site.id);
    const renewal = rows.payments.find((p) => p.transaction_id === 'sub-1-m2');
    expect(renewal).toMatchObject({ renewal: true, amount_minor: 1200, visitor_id: null, person_key: null });
    const renewalEvent = rows.events.find((e) => e.event_id === `pay_${renewal?.id}`);
    expect(renewalEvent?.properties).toEqual({ provider: 'api', renewal: true });
    expect(rows.payments.find((p) => p.transaction_id === 'sub-2-m1')?.person_key).toMatch(/^e:/);
    expect(rows.links).toEqual([]);
  });

  it('sends no CORS headers, not even to a preflight', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const response = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: { authorization: `Bearer ${t.owner.apiKey}`, origin: 'https://evil.example' },
      payload: { site_id: site.snippet_key, transaction_id: 'cors-1', amount: 1, currency: 'USD' },
    });
    expect(response.statusCode).toBe(202);
    const preflight = await t.request({
      method: 'OPTIONS',
      url: '/v1/server/payments',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    for (const headers of [response.headers, preflight.headers]) {
      expect(Object.keys(headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    }
  });
});
