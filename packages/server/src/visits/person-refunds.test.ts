/**
 * A person's page lists the refunds of their payments beside the payments: two payments from
 * one visitor, one refunded in two parts, each refund naming its payment's conversion event.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { arrive } from '../attribution/attribution.fixtures.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { HOUR_MS } from '../lib/clock.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

describe('GET /v1/visitors/{handle}: refunds', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  const buyer = newVisitorId();

  const pay = async (body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, provider: 'shop', visitor_id: buyer, ...body },
    });
    expect(response.statusCode, response.body).toBe(202);
  };
  const get = async (url: string) => {
    const response = await t.request({ method: 'GET', url, headers: bearer(t.owner.apiKey) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'refunds.example.com' });
    t.clock.set(new Date('2026-04-14T09:00:00Z'));
    await arrive(t, site, buyer, 'chatgpt');
    await pay({ transaction_id: 'order-1', amount: 30, currency: 'EUR' });
    await pay({ transaction_id: 'order-2', amount: 12, currency: 'USD' });
    t.clock.advance(HOUR_MS);
    await pay({ transaction_id: 'order-1', amount: 30, currency: 'EUR', refunded_amount: 10 });
    t.clock.advance(HOUR_MS);
    await pay({ transaction_id: 'order-1', amount: 30, currency: 'EUR', refunded_amount: 30 });
  });

  it('lists each refund, oldest first, with the conversion of its payment', async () => {
    const window = '&from=2026-04-14&to=2026-04-14';
    const { sessions } = await get(`/v1/sessions?site_id=${site.snippet_key}${window}`);
    const person = await get(
      `/v1/visitors/${encodeURIComponent(sessions[0].visitor)}?site_id=${site.snippet_key}${window}`,
    );
    const euro = person.conversions.find((c: { currency: string }) => c.currency === 'EUR');
    expect(euro).toMatchObject({ value_cents: 3000 });
    expect(person.refunds).toEqual([
      {
        event_id: euro.event_id,
        refunded_at: '2026-04-14T10:00:00.000Z',
        amount_cents: 1000,
        currency: 'EUR',
      },
      {
        event_id: euro.event_id,
        refunded_at: '2026-04-14T11:00:00.000Z',
        amount_cents: 2000,
        currency: 'EUR',
      },
    ]);
  });
});
