/**
 * Money in a visitor row when values come in several currencies: on a USD site, one visitor from
 * ChatGPT pays 100 EUR and 25,000.50 ARS (no ECB rate) through the payments endpoint on a
 * Saturday, and sends a goal worth 1,500 JPY before any yen rate is stored (the row is read
 * through that goal: payments are not goals). Every event counts; euros convert at the rate the
 * revenue report uses, and the rest is listed per currency.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { arrive } from '../attribution/attribution.fixtures.js';
import { collect, newVisitorId } from '../ingest/ingest.fixtures.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { visitorsClient } from './visitors.fixtures.js';

const HOST = 'currencies.example.com';
const DAY = { from: '2026-04-11', to: '2026-04-11' };

describe('visitor rows in several currencies', () => {
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
  const rowOf = async (goal: string) => {
    const response = await visitorsClient(t, bearer(t.owner.apiKey)).goalVisitors(goal, {
      site_id: site.snippet_key,
      ...DAY,
    });
    expect(response.statusCode, response.body).toBe(200);
    const { visitors } = response.json();
    expect(visitors).toHaveLength(1);
    return visitors[0];
  };

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: HOST });
    // Saturday: Friday's rate applies, as in the revenue report.
    t.clock.set(new Date('2026-04-11T09:00:00Z'));
    await arrive(t, site, buyer, 'chatgpt');
    await pay({ transaction_id: 'eur-1', amount: 100, currency: 'EUR' });
    await pay({ transaction_id: 'ars-1', amount: 25000.5, currency: 'ARS' });
    await collect(t, {
      site: site.snippet_key,
      vid: buyer,
      url: `https://${HOST}/quote`,
      type: 'event',
      name: 'quote',
      value: 1500,
      currency: 'JPY',
    });
    await t.database.db
      .insertInto('exchange_rates')
      .values({ day: '2026-04-10', currency: 'USD', per_euro: 1.1711 })
      .execute();
    await t.app.services.attribution.runUntilIdle();
  });

  it('counts every conversion, converts what has a rate and lists the rest per currency', async () => {
    const row = await rowOf('quote');
    expect(row.revenue).toEqual({
      total_cents: 11711,
      currency: 'USD',
      conversion_count: 3,
      unconverted: [
        { currency: 'ARS', total_cents: 2500050 },
        { currency: 'JPY', total_cents: 1500 },
      ],
    });
    // The same euros, the same rate and day as GET /v1/revenue.
    const report = await t.request({
      method: 'GET',
      url: `/v1/revenue?site_id=${site.snippet_key}&from=${DAY.from}&to=${DAY.to}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(report.json().totals.gross).toBe(117.11);
    expect(report.json().unconverted).toEqual([
      { currency: 'ARS', gross: 25000.5, refunded: 0, net: 25000.5 },
    ]);
  });

  it('shows each conversion of the profile in its own currency and in the site’s, with the rate day', async () => {
    const client = visitorsClient(t, bearer(t.owner.apiKey));
    const { handle } = await rowOf('quote');
    const response = await client.profile(handle, { site_id: site.snippet_key, ...DAY });
    expect(response.statusCode, response.body).toBe(200);
    const byCurrency = Object.fromEntries(
      response.json().conversions.map((c: { currency: string }) => [c.currency, c]),
    );
    expect(byCurrency.EUR).toMatchObject({
      value_cents: 10000,
      display_value: 117.11,
      rate_day: '2026-04-10',
    });
    expect(byCurrency.ARS).toMatchObject({ value_cents: 2500050, display_value: null, rate_day: null });
    expect(byCurrency.JPY).toMatchObject({ value_cents: 1500, display_value: null, rate_day: null });
  });

  it('converts the yen once a rate on or before their day is stored', async () => {
    await t.database.db
      .insertInto('exchange_rates')
      .values({ day: '2026-04-09', currency: 'JPY', per_euro: 185.7 })
      .execute();
    // 1,500 JPY ÷ 185.7 × 1.1711 = 9.4596… USD.
    expect((await rowOf('quote')).revenue).toEqual({
      total_cents: 11711 + 946,
      currency: 'USD',
      conversion_count: 3,
      unconverted: [{ currency: 'ARS', total_cents: 2500050 }],
    });
    const { handle } = await rowOf('quote');
    const profile = await visitorsClient(t, bearer(t.owner.apiKey)).profile(handle, {
      site_id: site.snippet_key,
      ...DAY,
    });
    const yen = profile.json().conversions.find((c: { currency: string }) => c.currency === 'JPY');
    // The older of the two rates' days: the yen's of the 9th, the dollar's of the 10th.
    expect(yen).toMatchObject({ display_value: 9.46, rate_day: '2026-04-09' });
  });
});
