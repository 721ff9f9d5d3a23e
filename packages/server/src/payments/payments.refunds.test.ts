import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import {
  allModels,
  attributeByHand,
  newTransactionId,
  postPayment,
  storedRows,
  sumOf,
} from './payments.fixtures.js';

describe('POST /v1/server/payments: refunds (§4.4 rules 1–6)', () => {
  const t = useTestApp();

  async function newPayment(extra: Record<string, unknown> = {}) {
    const site = await insertSite(t, t.owner.accountId);
    const body = {
      site_id: site.snippet_key,
      transaction_id: newTransactionId(),
      amount: 100,
      currency: 'USD',
      ...extra,
    };
    const posted = await postPayment(t, t.owner.apiKey, body);
    expect(posted.statusCode).toBe(202);
    const refund = async (fields: Record<string, unknown>) => {
      const response = await postPayment(t, t.owner.apiKey, { ...body, ...fields });
      expect(response.statusCode).toBe(202);
      // A refund answers the id of the payment it refunds.
      expect(response.json()).toEqual({
        status: 'refunded',
        transaction_id: body.transaction_id,
        event_id: posted.json().event_id,
      });
    };
    return { site, body, refund, rows: () => storedRows(t, site.id) };
  }

  it('treats refunded_amount as a running total: delta only, never above the payment, same total is a no-op', async () => {
    const { refund, rows } = await newPayment();
    await refund({ refunded_amount: 30 });
    await refund({ refunded_amount: 30 });
    await refund({ refunded_amount: 20 });
    await refund({ refunded_amount: 45.5 });
    await refund({ refunded: true, refunded_amount: 45.5 });
    await refund({ refunded_amount: 250 });
    await refund({ refunded: true });
    const { payments, refunds, events, completions } = await rows();
    expect(payments).toHaveLength(1);
    expect(refunds.map((r) => r.amount_minor)).toEqual([3000, 1550, 5450]);
    expect(payments[0]?.refunded_minor).toBe(10_000);
    expect(refunds.every((r) => r.payment_id === payments[0]?.id && r.applied === false)).toBe(true);
    // No second payment, and counts stay gross.
    expect(events).toHaveLength(1);
    expect(completions).toEqual([expect.objectContaining({ name: 'payment', completions: 1 })]);
  });

  it('refunds everything outstanding when refunded_amount is omitted: partial, then full', async () => {
    const { refund, rows } = await newPayment({ amount: 12.345, currency: 'KWD' });
    await refund({ refunded_amount: 2.005 });
    await refund({ refunded: true });
    await refund({ refunded: true });
    const { payments, refunds } = await rows();
    expect(refunds.map((r) => r.amount_minor)).toEqual([2005, 10_340]);
    expect(payments[0]).toMatchObject({ amount_minor: 12_345, refunded_minor: 12_345 });
  });

  it('dates a refund when it is posted, or at its timestamp', async () => {
    const { refund, rows } = await newPayment();
    t.clock.advance(3 * DAY_MS);
    await refund({ refunded_amount: 10 });
    const at = new Date(t.clock.now().getTime() - 5 * HOUR_MS);
    await refund({ refunded_amount: 25, timestamp: at.toISOString() });
    const { refunds, payments } = await rows();
    expect(refunds.map((r) => r.refunded_at)).toEqual([t.clock.now(), at]);
    expect(payments[0]?.paid_at).toEqual(new Date(t.clock.now().getTime() - 3 * DAY_MS));
  });

  it('records a refund whose payment was never posted together with it; the original later is a duplicate', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const refundedAt = new Date(t.clock.now().getTime() - HOUR_MS);
    const body = {
      site_id: site.snippet_key,
      transaction_id: 'pi_late',
      amount: 80,
      currency: 'EUR',
      provider: 'stripe',
    };
    const first = await postPayment(t, t.owner.apiKey, {
      ...body,
      refunded_amount: 30,
      timestamp: refundedAt.toISOString(),
    });
    expect(first.json()).toMatchObject({ status: 'refunded', transaction_id: 'pi_late' });
    const original = await postPayment(t, t.owner.apiKey, body);
    expect(original.json()).toMatchObject({ status: 'duplicate', transaction_id: 'pi_late' });
    const { payments, refunds, events, jobs } = await storedRows(t, site.id);
    expect(first.json().event_id).toBe(`pay_${payments[0]?.id}`);
    expect(original.json().event_id).toBe(first.json().event_id);
    expect(payments).toEqual([
      expect.objectContaining({
        amount_minor: 8000,
        refunded_minor: 3000,
        paid_at: refundedAt,
        kind: 'payment',
      }),
    ]);
    expect(refunds).toEqual([
      expect.objectContaining({ amount_minor: 3000, refunded_at: refundedAt, applied: false }),
    ]);
    expect(events.map((e) => e.event_id)).toEqual([`pay_${payments[0]?.id}`]);
    expect(jobs).toHaveLength(1);
  });

  it('answers refunded to a refund of a trial and takes nothing back', async () => {
    const { refund, rows } = await newPayment({ amount: 0 });
    await refund({ refunded: true });
    const { payments, refunds } = await rows();
    expect(payments[0]).toMatchObject({ kind: 'trial', refunded_minor: 0 });
    expect(refunds).toEqual([]);
  });

  it('subtracts a refund of an attributed payment from its credited sources on the refund’s day; past days stay', async () => {
    const { site, refund, rows } = await newPayment();
    const [payment] = (await rows()).payments;
    const credits = [
      ...allModels('chatgpt', 1).filter((c) => c.model !== 'linear' && c.model !== 'time_decay'),
      { model: 'linear' as const, source: 'chatgpt', share: 0.5 },
      { model: 'linear' as const, source: 'search', share: 0.5 },
      { model: 'time_decay' as const, source: 'chatgpt', share: 0.25 },
      { model: 'time_decay' as const, source: 'search', share: 0.75 },
    ];
    await attributeByHand(t, site.id, payment?.id as string, credits);
    const paidDay = t.clock.now().toISOString().slice(0, 10);
    t.clock.advance(2 * DAY_MS);
    const refundDay = t.clock.now().toISOString().slice(0, 10);
    await refund({ refunded_amount: 40 });
    await refund({ refunded_amount: 40 });

    const revenue = await t.database.db
      .selectFrom('daily_revenue')
      .select(['day', 'model', 'source', 'gross_minor', 'refunded_minor', 'conversions'])
      .where('site_id', '=', site.id)
      .orderBy('day')
      .orderBy('model')
      .orderBy('source')
      .execute();
    const onDay = (day: string) =>
      revenue.filter((r) => r.day === day).map((r) => [r.model, r.source, r.refunded_minor]);
    expect(onDay(paidDay)).toEqual(
      credits.map((c) => [c.model, c.source, 0]).sort((a, b) => `${a}`.localeCompare(`${b}`)),
    );
    expect(revenue.filter((r) => r.day === paidDay).every((r) => r.gross_minor > 0)).toBe(true);
    expect(onDay(refundDay)).toEqual([
      ['first_touch', 'chatgpt', 4000],
      ['last_touch', 'chatgpt', 4000],
      ['linear', 'chatgpt', 2000],
      ['linear', 'search', 2000],
      ['time_decay', 'chatgpt', 1000],
      ['time_decay', 'search', 3000],
    ]);
    expect(
      revenue.filter((r) => r.day === refundDay).every((r) => r.gross_minor === 0 && r.conversions === 0),
    ).toBe(true);
    const { refunds } = await rows();
    expect(refunds).toEqual([expect.objectContaining({ amount_minor: 4000, applied: true })]);
  });

  it('subtracts a refund of an attributed payment nobody was credited with from the unattributed row', async () => {
    const { site, refund, rows } = await newPayment({ amount: 5000, currency: 'JPY' });
    await attributeByHand(t, site.id, (await rows()).payments[0]?.id as string, []);
    await refund({ refunded: true });
    const revenue = await t.database.db
      .selectFrom('daily_revenue')
      .select(['model', 'source', 'gross_minor', 'refunded_minor', 'currency'])
      .where('site_id', '=', site.id)
      .orderBy('model')
      .execute();
    expect(revenue).toEqual(
      allModels('', 1).map(({ model }) => ({
        model,
        source: '',
        gross_minor: 5000,
        refunded_minor: 5000,
        currency: 'JPY',
      })),
    );
    expect(sumOf((await rows()).refunds.map((r) => r.amount_minor))).toBe(5000);
  });
});
