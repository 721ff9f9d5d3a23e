/**
 * The stats query beyond visits, on a small hand-made site whose every figure is worked out
 * below: identities merged into people, pages and exit pages, campaign tags, conversion events
 * with goals, properties and values in two currencies (one without an exchange rate), payments
 * and a refund credited under two models. The expected values are counted from the plan of the
 * traffic, not from the database.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { identify } from '../attribution/attribution.fixtures.js';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { MINUTE_MS } from '../lib/clock.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

const REFERRERS = {
  chatgpt: 'https://chatgpt.com/',
  google: 'https://www.google.com/',
  perplexity: 'https://www.perplexity.ai/',
  direct: '',
};
const UTM = '?utm_source=Newsletter&utm_medium=email&utm_campaign=spring&utm_content=hero&utm_term=shoes';

describe('POST /v1/stats/query, conversions, pages, people and revenue', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  const a1 = newVisitorId();
  const a2 = newVisitorId();
  const b = newVisitorId();
  const c = newVisitorId();
  const d = newVisitorId();

  const send = async (at: string, payload: Record<string, unknown>) => {
    t.clock.set(new Date(at));
    const response = await collect(t, payload);
    if (response.statusCode !== 202) throw new Error(`collect: ${response.body}`);
  };
  /** One visit: pages a minute apart, the first from `from`. */
  const visit = async (at: string, vid: string, from: keyof typeof REFERRERS, paths: string[]) => {
    for (const [i, path] of paths.entries()) {
      const url = `https://${site.domain}${path}`;
      const ref = i === 0 ? REFERRERS[from] : `https://${site.domain}${paths[i - 1]}`;
      t.clock.set(new Date(Date.parse(at) + i * MINUTE_MS));
      const response = await collect(t, pageview(site.snippet_key, vid, url, ref));
      if (response.statusCode !== 202) throw new Error(`pageview: ${response.body}`);
    }
  };
  const event = (at: string, vid: string, path: string, name: string, extra: object = {}) =>
    send(at, {
      type: 'event',
      site: site.snippet_key,
      vid,
      url: `https://${site.domain}${path}`,
      name,
      ...extra,
    });
  const pay = async (at: string, body: Record<string, unknown>) => {
    t.clock.set(new Date(at));
    const response = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, provider: 'stripe', currency: 'EUR', ...body },
    });
    if (response.statusCode !== 202) throw new Error(`payment: ${response.body}`);
  };

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'shop.example.com' });
    await t.database.db.updateTable('sites').set({ currency: 'EUR' }).where('id', '=', site.id).execute();
    // Person A on two browsers, one signed-in user: ChatGPT then Google.
    await visit('2026-04-01T10:00:00Z', a1, 'chatgpt', ['/', '/pricing', '/signup']);
    await event('2026-04-01T10:02:30Z', a1, '/signup', 'signup', { props: { plan: 'pro' }, value: 20 });
    await send('2026-04-01T10:02:40Z', {
      type: 'identify',
      site: site.snippet_key,
      vid: a1,
      url: `https://${site.domain}/signup`,
      uid: 'user-1',
    });
    await visit('2026-04-02T09:00:00Z', a2, 'google', ['/blog']);
    await event('2026-04-02T09:00:30Z', a2, '/blog', 'signup', { props: { plan: 'free' } });
    await identify(t, site, a2, 'user-1');
    // B bounces; C from Perplexity downloads, paid in a currency the ECB has no rate for.
    await visit('2026-04-02T11:00:00Z', b, 'direct', ['/']);
    await visit('2026-04-03T12:00:00Z', c, 'perplexity', ['/pricing', '/']);
    await event('2026-04-03T12:00:30Z', c, '/pricing', 'download', { value: 5000, currency: 'ARS' });
    // D from a tagged newsletter link.
    await visit('2026-04-03T13:00:00Z', d, 'direct', [`/${UTM}`, '/pricing']);
    // A pays 100 EUR, 30 of it refunded.
    await pay('2026-04-03T15:00:00Z', { transaction_id: 'pi_1', amount: 100, visitor_id: a1 });
    await t.app.services.attribution.runUntilIdle();
    await pay('2026-04-03T16:00:00Z', {
      transaction_id: 'pi_1',
      amount: 100,
      visitor_id: a1,
      refunded_amount: 30,
    });
    t.clock.set(new Date('2026-04-04T12:00:00Z'));
  });

  const query = async (body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/stats/query',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, date_range: ['2026-04-01', '2026-04-03'], ...body },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const rows = async (body: Record<string, unknown>) =>
    (await query(body)).results.map((row: { dimensions: unknown[]; metrics: number[] }) => [
      ...row.dimensions,
      ...row.metrics,
    ]);

  it('counts a person on two browsers once, and every visit', async () => {
    const body = await query({ metrics: ['visitors', 'visits', 'pageviews', 'events', 'conversions'] });
    // People: A (two browsers), B, C, D. Conversions: two signups, a download, a payment.
    expect(body.results).toEqual([{ dimensions: [], metrics: [4, 5, 9, 3, 4] }]);
    expect(body.meta).toMatchObject({ currency: 'EUR', approximate: [] });
    expect(body.meta).not.toHaveProperty('total_rows');
    expect(body.meta).not.toHaveProperty('unconverted');
    expect(body.query.attribution_model).toBe('last_touch');
  });

  it('breaks pages down by pageview, with their people and visits', async () => {
    expect(await rows({ metrics: ['pageviews', 'visitors', 'visits'], dimensions: ['event:page'] })).toEqual([
      ['/', 4, 4, 4],
      ['/pricing', 3, 3, 3],
      ['/blog', 1, 1, 1],
      ['/signup', 1, 1, 1],
    ]);
  });

  it('breaks visits down by exit page, campaign tags and new or returning', async () => {
    expect(await rows({ metrics: ['visits'], dimensions: ['visit:exit_page'] })).toEqual([
      ['/', 2],
      ['/blog', 1],
      ['/pricing', 1],
      ['/signup', 1],
    ]);
    expect(
      await rows({
        metrics: ['visits'],
        dimensions: ['visit:utm_source', 'visit:utm_medium', 'visit:utm_campaign'],
        filters: [
          ['is', 'visit:utm_content', ['hero']],
          ['is', 'visit:utm_term', ['shoes']],
        ],
      }),
    ).toEqual([['newsletter', 'email', 'spring', 1]]);
    expect(await rows({ metrics: ['visits'], dimensions: ['visit:new_vs_returning'] })).toEqual([['new', 5]]);
  });

  it('breaks conversions down by goal and property, people merged', async () => {
    expect(
      await rows({ metrics: ['conversions', 'visitors', 'conversion_rate'], dimensions: ['event:goal'] }),
    ).toEqual([
      ['signup', 2, 1, 25],
      ['download', 1, 1, 25],
      // The payment came from the server, outside any visit.
      ['payment', 1, 1, 0],
    ]);
    expect(
      await rows({
        metrics: ['conversions'],
        dimensions: ['event:props:plan'],
        filters: [['is', 'event:goal', ['signup']]],
      }),
    ).toEqual([
      ['free', 1],
      ['pro', 1],
    ]);
  });

  it('gives the conversion rate by channel over that channel’s visitors', async () => {
    // D came from the newsletter link: its medium makes it email.
    expect(await rows({ metrics: ['visitors', 'conversion_rate'], dimensions: ['visit:channel'] })).toEqual([
      ['ai', 2, 100],
      ['direct', 1, 0],
      ['email', 1, 0],
      ['search', 1, 100],
    ]);
    const overall = await query({ metrics: ['conversion_rate'] });
    expect(overall.results[0].metrics).toEqual([50]);
  });

  it('filters visits by the pages and goals in them', async () => {
    expect(await rows({ metrics: ['visits'], filters: [['is', 'event:page', ['/signup']]] })).toEqual([[1]]);
    // Only A's Google visit never showed the home page (D landed on it with campaign tags).
    expect(await rows({ metrics: ['visits'], filters: [['is_not', 'event:page', ['/']]] })).toEqual([[1]]);
    expect(await rows({ metrics: ['visitors'], filters: [['is', 'event:goal', ['download']]] })).toEqual([
      [1],
    ]);
    expect(
      await rows({
        metrics: ['pageviews'],
        dimensions: ['event:page'],
        filters: [['contains', 'event:page', ['pric']]],
      }),
    ).toEqual([['/pricing', 3]]);
  });

  it('sums goal values in the site currency and sets aside what has no rate', async () => {
    const body = await query({ metrics: ['goal_value', 'events'], dimensions: ['event:goal'] });
    expect(
      body.results.map((row: { dimensions: string[]; metrics: number[] }) => [
        ...row.dimensions,
        ...row.metrics,
      ]),
    ).toEqual([
      ['signup', 2000, 2],
      ['download', 0, 1],
    ]);
    expect(body.meta.unconverted).toEqual([{ metric: 'goal_value', currency: 'ARS', amount: 500000 }]);
  });

  it('credits revenue net of refunds under the model asked', async () => {
    const last = await query({ metrics: ['revenue_net', 'revenue_refunded'], dimensions: ['visit:channel'] });
    expect(last.results).toEqual([{ dimensions: ['search'], metrics: [7000, 3000] }]);
    const first = await query({
      metrics: ['revenue_net'],
      dimensions: ['visit:ai_source'],
      attribution_model: 'first_touch',
    });
    expect(first.results).toEqual([{ dimensions: ['chatgpt'], metrics: [7000] }]);
    const aiOnly = await query({
      metrics: ['revenue_net', 'visits'],
      filters: [['is', 'visit:channel', ['ai']]],
      attribution_model: 'first_touch',
    });
    expect(aiOnly.results).toEqual([{ dimensions: [], metrics: [7000, 2] }]);
    const byDay = await query({ metrics: ['revenue_net', 'conversions'], dimensions: ['time:day'] });
    expect(byDay.results).toEqual([
      { dimensions: ['2026-04-01'], metrics: [0, 1] },
      { dimensions: ['2026-04-02'], metrics: [0, 1] },
      { dimensions: ['2026-04-03'], metrics: [7000, 2] },
    ]);
  });

  it('orders and pages merged rows, with the row count', async () => {
    const body = await query({
      metrics: ['conversions', 'visits'],
      dimensions: ['visit:channel'],
      order_by: [['visits', 'desc']],
      limit: 2,
      offset: 1,
      include: { total_rows: true },
    });
    // By visits: ai 2, then direct, email and search 1 each; the payment counts for search.
    expect(body.results).toEqual([
      { dimensions: ['direct'], metrics: [0, 1] },
      { dimensions: ['email'], metrics: [0, 1] },
    ]);
    expect(body.meta.total_rows).toBe(4);
  });

  it('adds conversion rate and value to the goal time series when asked, and only then', async () => {
    const url = `/v1/goals/timeseries?site_id=${site.snippet_key}&from=2026-04-01&to=2026-04-03`;
    const get = (query: string) =>
      t.request({ method: 'GET', url: url + query, headers: bearer(t.owner.apiKey) });
    const plain = (await get('')).json();
    expect(plain).not.toHaveProperty('currency');
    expect(plain.series[0]).not.toHaveProperty('conversion_rate');
    const response = await get('&include=conversion_rate,value');
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(
      body.series.map((one: Record<string, unknown>) => [
        one.goal_name,
        one.total,
        one.conversion_rate,
        one.value,
      ]),
    ).toEqual([
      ['download', 1, 25, 0],
      ['signup', 2, 25, 2000],
    ]);
    expect(body).toMatchObject({ currency: 'EUR', unconverted: [{ currency: 'ARS', amount: 500000 }] });
    const refused = await get('&include=revenue');
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ error: 'validation_failed', field: 'include.0' });
  });
});
