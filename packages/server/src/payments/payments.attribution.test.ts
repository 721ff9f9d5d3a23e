/**
 * The contract with the attribution job, run for real: a payment it credits is netted to the
 * millionth by a full refund posted later, and a refund posted before it ran is applied by it.
 */
import { describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { postPayment, storedRows } from './payments.fixtures.js';

describe('payments and the attribution job', () => {
  const t = useTestApp();

  const revenueOf = (siteId: string) =>
    t.database.db
      .selectFrom('daily_revenue')
      .select(['day', 'model', 'source', 'gross_minor', 'refunded_minor'])
      .where('site_id', '=', siteId)
      .orderBy('day')
      .orderBy('model')
      .orderBy('source')
      .execute();

  it('nets a credited payment to zero per source with a later full refund; refunds posted earlier are applied by the job', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'shop.example.net' });
    const vid = newVisitorId();
    for (const referrer of [
      'https://chatgpt.com/',
      'https://www.google.com/',
      'https://www.perplexity.ai/',
    ]) {
      await collect(t, pageview(site.snippet_key, vid, 'https://shop.example.net/', referrer));
      t.clock.advance(HOUR_MS);
    }
    const base = { site_id: site.snippet_key, currency: 'USD', visitor_id: vid };
    await postPayment(t, t.owner.apiKey, { ...base, transaction_id: 'pi_a', amount: 100 });
    await postPayment(t, t.owner.apiKey, {
      ...base,
      transaction_id: 'pi_b',
      amount: 50,
      refunded_amount: 20,
    });
    await t.app.services.attribution.runAttributionBatch({ limit: 100 });

    const afterJob = await storedRows(t, site.id);
    expect(afterJob.payments.every((p) => p.attributed_at !== null)).toBe(true);
    expect(afterJob.refunds).toEqual([expect.objectContaining({ amount_minor: 2000, applied: true })]);

    t.clock.advance(2 * DAY_MS);
    await postPayment(t, t.owner.apiKey, { ...base, transaction_id: 'pi_a', amount: 100, refunded: true });
    await postPayment(t, t.owner.apiKey, { ...base, transaction_id: 'pi_b', amount: 50, refunded: true });
    const { refunds } = await storedRows(t, site.id);
    expect(refunds.map((r) => [r.amount_minor, r.applied])).toEqual([
      [2000, true],
      [10_000, true],
      [3000, true],
    ]);

    const revenue = await revenueOf(site.id);
    const refundDay = t.clock.now().toISOString().slice(0, 10);
    expect(revenue.some((r) => r.day === refundDay && r.gross_minor === 0 && r.refunded_minor > 0)).toBe(
      true,
    );
    // Per model and source, everything paid was taken back, to the millionth of a cent.
    const net = new Map<string, number>();
    for (const row of revenue) {
      const key = `${row.model}|${row.source}`;
      net.set(key, (net.get(key) ?? 0) + Math.round((row.gross_minor - row.refunded_minor) * 1e6));
    }
    expect([...net.values()].every((micro) => micro === 0)).toBe(true);
    expect(new Set(revenue.map((r) => r.model)).size).toBe(4);
    const linearSources = new Set(revenue.filter((r) => r.model === 'linear').map((r) => r.source));
    expect(linearSources).toEqual(new Set(['chatgpt', 'perplexity', 'search']));
  });
});
