/**
 * Settlement fields: a charge in one currency that the processor paid out in another is counted
 * in what was paid out, refunds in their share of it, and a full refund takes back exactly that.
 */
import { describe, expect, it } from 'vitest';
import { arrive } from '../attribution/attribution.fixtures.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { settlementRefund } from './payment-write.js';
import { newTransactionId, postPayment, storedRows } from './payments.fixtures.js';

describe('settlementRefund', () => {
  it('splits the settlement over any sequence of refunds, adding up to all of it', () => {
    const payment = { amount_minor: 10_000, settlement_minor: 10_850, settlement_currency: 'USD' };
    expect(settlementRefund(payment, 0, 2_500)).toEqual({ amountMinor: 2_713, currency: 'USD' });
    expect(
      settlementRefund({ ...payment, settlement_minor: null, settlement_currency: null }, 0, 1),
    ).toBeNull();
    for (const steps of [
      [1, 1, 1, 9_997],
      [3_333, 3_333, 3_334],
      [7, 9_993],
    ]) {
      let total = 0;
      let settled = 0;
      for (const step of steps) {
        settled += settlementRefund(payment, total, total + step)?.amountMinor ?? Number.NaN;
        total += step;
      }
      expect(settled).toBe(10_850);
    }
    // Amounts near the ceiling stay exact (BigInt): 1e12 major units in cents.
    const huge = {
      amount_minor: 100_000_000_000_000,
      settlement_minor: 99_999_999_999_999,
      settlement_currency: 'EUR',
    };
    expect(settlementRefund(huge, 0, 100_000_000_000_000)?.amountMinor).toBe(99_999_999_999_999);
  });
});

describe('POST /v1/server/payments: settlement', () => {
  const t = useTestApp();

  it('counts revenue in the settlement, refunds before and after attribution in their share', async () => {
    const site = await insertSite(t, t.owner.accountId);
    t.clock.set(new Date('2026-06-01T09:00:00Z'));
    const vid = newVisitorId();
    await arrive(t, site, vid, 'chatgpt');
    t.clock.advance(HOUR_MS);
    const payment = {
      site_id: site.snippet_key,
      transaction_id: newTransactionId(),
      amount: 100,
      currency: 'eur',
      settlement_amount: 108.5,
      settlement_currency: 'usd',
      visitor_id: vid,
    };
    expect((await postPayment(t, t.owner.apiKey, payment)).json().status).toBe('recorded');
    // Before attribution: the job applies it, in its share of the settlement.
    expect((await postPayment(t, t.owner.apiKey, { ...payment, refunded_amount: 25 })).json().status).toBe(
      'refunded',
    );
    await t.app.services.attribution.runUntilIdle();
    t.clock.advance(DAY_MS);
    // After attribution, the rest: the endpoint applies it at once.
    expect((await postPayment(t, t.owner.apiKey, { ...payment, refunded: true })).json().status).toBe(
      'refunded',
    );

    const { payments, refunds } = await storedRows(t, site.id);
    expect(payments[0]).toMatchObject({
      amount_minor: 10_000,
      currency: 'EUR',
      settlement_minor: 10_850,
      settlement_currency: 'USD',
    });
    expect(refunds.map((refund) => [refund.amount_minor, refund.settlement_minor])).toEqual([
      [2_500, 2_713],
      [7_500, 8_137],
    ]);

    // No exchange rates are stored here: without the settlement, EUR would be unconverted.
    const report = await t.request({
      method: 'GET',
      url: `/v1/revenue?site_id=${site.snippet_key}&from=2026-06-01&to=2026-06-02&attribution_model=last_touch`,
      headers: bearer(t.owner.apiKey),
    });
    expect(report.statusCode, report.body).toBe(200);
    const body = report.json();
    expect(body.currency).toBe('USD');
    expect(body.unconverted).toEqual([]);
    expect(body.totals).toMatchObject({ gross: 108.5, refunded: 108.5, net: 0, conversions: 1 });
    expect(body.days.map((day: { date: string; refunded: number }) => [day.date, day.refunded])).toEqual([
      ['2026-06-01', 27.13],
      ['2026-06-02', 81.37],
    ]);
    expect(body.sources).toEqual([expect.objectContaining({ source: 'chatgpt', gross: 108.5 })]);
  });

  it('keeps the settlement of the first post; a later post cannot change it', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const payment = {
      site_id: site.snippet_key,
      transaction_id: newTransactionId(),
      amount: 10,
      currency: 'GBP',
    };
    await postPayment(t, t.owner.apiKey, { ...payment, settlement_amount: 12.7, settlement_currency: 'USD' });
    const again = await postPayment(t, t.owner.apiKey, {
      ...payment,
      settlement_amount: 99,
      settlement_currency: 'EUR',
    });
    expect(again.json().status).toBe('duplicate');
    const { payments } = await storedRows(t, site.id);
    expect(payments[0]).toMatchObject({ settlement_minor: 1_270, settlement_currency: 'USD' });
  });

  it.each([
    [{ settlement_amount: 10 }, 'settlement_currency'],
    [{ settlement_currency: 'USD' }, 'settlement_amount'],
    [{ settlement_amount: -1, settlement_currency: 'USD' }, 'settlement_amount'],
    [{ settlement_amount: '10', settlement_currency: 'USD' }, 'settlement_amount'],
    [{ settlement_amount: 10, settlement_currency: 'XXY' }, 'settlement_currency'],
    [{ settlement_amount: 1e13, settlement_currency: 'USD' }, 'settlement_amount'],
  ])('refuses %j with 422 naming the field, storing nothing', async (fields, field) => {
    const site = await insertSite(t, t.owner.accountId);
    const response = await postPayment(t, t.owner.apiKey, {
      site_id: site.snippet_key,
      transaction_id: newTransactionId(),
      amount: 10,
      currency: 'USD',
      ...fields,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      error: 'validation_failed',
      issues: [expect.objectContaining({ field })],
    });
    expect((await storedRows(t, site.id)).payments).toEqual([]);
  });
});
