/**
 * Conversions by source count for whom attribution credits them, as their revenue does: a
 * payment recorded from a backend, with no visit of its own, counts for the channel of the
 * visits before it; under linear the source with the largest share; with no visit, direct.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

describe('POST /v1/stats/query, conversions by their credited source', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  const buyer = newVisitorId();
  const reader = newVisitorId();

  const view = async (at: string, vid: string, referrer: string) => {
    t.clock.set(new Date(at));
    const response = await collect(t, pageview(site.snippet_key, vid, `https://${site.domain}/`, referrer));
    expect(response.statusCode, response.body).toBe(202);
  };
  const pay = async (at: string, body: Record<string, unknown>) => {
    t.clock.set(new Date(at));
    const response = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, provider: 'stripe', currency: 'EUR', ...body },
    });
    expect(response.statusCode, response.body).toBe(202);
  };

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'shop.example.com' });
    await t.database.db.updateTable('sites').set({ currency: 'EUR' }).where('id', '=', site.id).execute();
    // The buyer searches twice, then comes back from ChatGPT and pays from the backend.
    await view('2026-06-01T08:00:00Z', buyer, 'https://www.google.com/');
    await view('2026-06-01T11:00:00Z', buyer, 'https://www.google.com/');
    await view('2026-06-01T14:00:00Z', buyer, 'https://chatgpt.com/');
    await pay('2026-06-02T09:00:00Z', { transaction_id: 'pi_ai', amount: 49, visitor_id: buyer });
    // Someone never seen pays too; a reader from Google signs up during the visit.
    await pay('2026-06-02T10:00:00Z', { transaction_id: 'pi_new', amount: 20, visitor_id: newVisitorId() });
    await view('2026-06-02T12:00:00Z', reader, 'https://www.google.com/');
    t.clock.set(new Date('2026-06-02T12:00:30Z'));
    const signup = await collect(t, {
      type: 'event',
      site: site.snippet_key,
      vid: reader,
      url: `https://${site.domain}/`,
      name: 'signup',
    });
    expect(signup.statusCode, signup.body).toBe(202);
    await t.app.services.attribution.runUntilIdle();
    t.clock.set(new Date('2026-06-03T12:00:00Z'));
  });

  const rows = async (body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/stats/query',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, date_range: ['2026-06-01', '2026-06-02'], ...body },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json()
      .results.map((row: { dimensions: unknown[]; metrics: number[] }) => [
        ...row.dimensions,
        ...row.metrics,
      ]);
  };

  it('counts a backend payment for the channel its revenue goes to, and one without a visit as direct', async () => {
    expect(
      await rows({
        metrics: ['conversions', 'revenue_net'],
        dimensions: ['visit:channel'],
        order_by: [['visit:channel', 'asc']],
      }),
    ).toEqual([
      ['ai', 1, 4900],
      ['direct', 1, 2000],
      ['search', 1, 0],
    ]);
    expect(
      await rows({ metrics: ['conversions', 'revenue_net'], filters: [['is', 'visit:channel', ['ai']]] }),
    ).toEqual([[1, 4900]]);
  });

  it('counts it for its assistant and its source kind', async () => {
    expect(
      await rows({
        metrics: ['conversions', 'revenue_net'],
        dimensions: ['visit:ai_source'],
        filters: [['is', 'visit:ai_source', ['chatgpt']]],
      }),
    ).toEqual([['chatgpt', 1, 4900]]);
    expect(
      await rows({
        metrics: ['conversions'],
        dimensions: ['visit:source_kind'],
        order_by: [['visit:source_kind', 'asc']],
      }),
    ).toEqual([
      ['ai', 1],
      ['non_ai', 2],
    ]);
  });

  it('counts it for the largest share when credit is split', async () => {
    // Linear: two of the buyer's three visits were from Google.
    expect(
      await rows({
        metrics: ['conversions', 'revenue_net'],
        dimensions: ['visit:channel'],
        order_by: [['visit:channel', 'asc']],
        attribution_model: 'linear',
      }),
    ).toEqual([
      ['ai', 0, 1633],
      ['direct', 1, 2000],
      ['search', 2, 3267],
    ]);
  });

  it('gives the conversion rate of the people converting during a visit, by channel', async () => {
    expect(
      await rows({
        metrics: ['visitors', 'conversion_rate'],
        dimensions: ['visit:channel'],
        order_by: [['visit:channel', 'asc']],
      }),
    ).toEqual([
      ['ai', 1, 0],
      ['search', 2, 50],
    ]);
  });
});
