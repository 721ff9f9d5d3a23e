/**
 * `GET /v1/ai-visibility` against a plain computation (ai-visibility.expected.ts) over the
 * traffic of ai-visibility.dataset.ts, its paging and filters, and its contract at the edges.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { sendDataset, v1 } from './ai-visibility.dataset.js';
import { type ExpectedRow, expected } from './ai-visibility.expected.js';

describe('GET /v1/ai-visibility', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;

  const report = (query: string, headers: Record<string, string> = bearer(t.owner.apiKey)) =>
    t.request({ method: 'GET', url: `/v1/ai-visibility?${query}`, headers });
  const ok = async (query: string) => {
    const response = await report(`site_id=${site.snippet_key}&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'vis.example.com' });
    const other = await insertSite(t, t.owner.accountId, { domain: 'other.example.com' });
    await sendDataset(t, site, other);
  });

  it.each(['first_touch', 'last_touch', 'linear', 'time_decay'] as const)(
    'matches a plain computation under %s',
    async (model) => {
      const body = await ok(`from=2026-05-01&to=2026-05-10&attribution_model=${model}`);
      const want = expected({ from: '2026-05-01', to: '2026-05-10', zone: 'UTC', model });
      expect(body.pages).toEqual(want.pages);
      expect(body.meta).toEqual({
        date_range: ['2026-05-01', '2026-05-10'],
        timezone: 'UTC',
        attribution_model: model,
        currency: 'USD',
        total_rows: want.pages.length,
        unconverted: want.unconverted,
        unplaced: { conversions: 0, revenue_net_cents: 0 },
      });
    },
  );

  it('has the cases the dataset promises', () => {
    const linear = expected({ from: '2026-05-01', to: '2026-05-10', zone: 'UTC', model: 'linear' });
    const pricing = linear.pages.find((p) => p.page === '/pricing');
    expect(pricing?.revenue_net_cents).toBeGreaterThan(0);
    // A split conversion counts once, on one page, while its money goes to every page it touched.
    const docsA = linear.pages.find((p) => p.page === '/docs/a');
    expect(docsA?.revenue_net_cents).toBeGreaterThan(0);
    expect(docsA?.conversions).toBe(0);
    expect(linear.pages.every((p) => Number.isInteger(p.conversions))).toBe(true);
    expect(linear.pages.some((p) => p.crawler_hits.by_operator.some((o) => o.purpose === 'unknown'))).toBe(
      true,
    );
    expect(linear.unconverted).toEqual([{ currency: 'JPY', revenue_net_cents: 3000 }]);
    const last = expected({ from: '2026-05-01', to: '2026-05-10', zone: 'UTC', model: 'last_touch' });
    expect(last.pages.find((p) => p.page === '/pricing')?.revenue_net_cents).toBe(0);
  });

  it('adds up to the AI part of the revenue report', async () => {
    const body = await ok('from=2026-05-01&to=2026-05-10&attribution_model=linear');
    const revenue = await t.request({
      method: 'GET',
      url: `/v1/revenue?site_id=${site.snippet_key}&from=2026-05-01&to=2026-05-10&attribution_model=linear`,
      headers: bearer(t.owner.apiKey),
    });
    const ai = revenue
      .json()
      .sources.filter((s: { source: string }) => s.source === 'chatgpt' || s.source === 'perplexity')
      .reduce((sum: number, s: { net: number }) => sum + s.net, 0);
    const pages = body.pages.reduce(
      (sum: number, p: { revenue_net_cents: number }) => sum + p.revenue_net_cents,
      0,
    );
    // Each page rounds to the cent; the report rounds once.
    expect(Math.abs(pages - Math.round(ai * 100))).toBeLessThanOrEqual(2);
  });

  it('counts visits, conversions and money in a time zone; crawler hits stay on UTC days', async () => {
    const body = await ok('from=2026-05-01&to=2026-05-10&attribution_model=linear&timezone=America/New_York');
    const want = expected({
      from: '2026-05-01',
      to: '2026-05-10',
      zone: 'America/New_York',
      model: 'linear',
    });
    expect(body.pages).toEqual(want.pages);
    expect(body.meta.timezone).toBe('America/New_York');
    expect(body.pages.find((p: { page: string }) => p.page === '/blog/x').ai_visits.total).toBe(2);
  });

  it('keeps to pages crawled but never visited from an assistant, and pages with limit and offset', async () => {
    const notVisited = await ok('from=2026-05-01&to=2026-05-10&not_visited=true');
    const want = expected({
      from: '2026-05-01',
      to: '2026-05-10',
      zone: 'UTC',
      model: 'last_touch',
    }).pages.filter((p) => p.crawler_hits.total > 0 && p.ai_visits.total === 0);
    expect(notVisited.pages).toEqual(want);
    expect(notVisited.pages.map((p: { page: string }) => p.page)).toEqual(['/docs/b', '/legacy', '/docs/c']);
    expect(notVisited.meta.total_rows).toBe(3);

    const all = await ok('from=2026-05-01&to=2026-05-10');
    const second = await ok('from=2026-05-01&to=2026-05-10&limit=2&offset=2');
    expect(second.pages).toEqual(all.pages.slice(2, 4));
    expect(second.meta.total_rows).toBe(all.pages.length);
    expect((await ok('from=2026-05-01&to=2026-05-10&offset=50')).pages).toEqual([]);
  });

  it('defaults to the last 30 days in the zone and the site’s model', async () => {
    const body = await ok('');
    expect(body.meta).toMatchObject({
      date_range: ['2026-04-12', '2026-05-11'],
      attribution_model: 'last_touch',
    });
    // 20:00 on the 10th in Honolulu.
    const zoned = await ok('timezone=Pacific/Honolulu');
    expect(zoned.meta.date_range).toEqual(['2026-04-11', '2026-05-10']);
  });

  it('answers an empty report for a site without data, by UUID for a session', async () => {
    const quiet = await insertSite(t, t.owner.accountId, { domain: 'quiet.example.com' });
    const response = await report(`site_id=${quiet.id}`, { cookie: t.owner.cookie });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ pages: [], meta: { total_rows: 0, unconverted: [] } });
  });

  it.each([
    ['an unknown parameter', 'filters=[]', 'filters'],
    ['no site', 'SKIP', 'site_id'],
    ['a date that does not exist', 'from=2026-02-30', 'from'],
    ['a date in another format', 'to=10/05/2026', 'to'],
    ['dates in the wrong order', 'from=2026-05-10&to=2026-05-01', 'from'],
    ['a range over 365 days', 'from=2025-05-10&to=2026-05-10', 'from'],
    ['an unknown time zone', 'timezone=Mars/Olympus', 'timezone'],
    ['an over-long time zone', `timezone=${'A'.repeat(65)}`, 'timezone'],
    ['an unknown model', 'attribution_model=position_based', 'attribution_model'],
    ['not_visited not a boolean', 'not_visited=yes', 'not_visited'],
    ['limit 0', 'limit=0', 'limit'],
    ['limit over 1000', 'limit=1001', 'limit'],
    ['a fractional limit', 'limit=2.5', 'limit'],
    ['a negative offset', 'offset=-1', 'offset'],
  ])('answers 422 to %s', async (_name, query, field) => {
    const response = await report(query === 'SKIP' ? '' : `site_id=${site.snippet_key}&${query}`);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it('takes a range of exactly 365 days', async () => {
    expect((await ok('from=2025-05-11&to=2026-05-10')).meta.date_range).toEqual(['2025-05-11', '2026-05-10']);
  });

  it('answers 404 for another account’s site and a UUID sent with a key; 403 without stats:read', async () => {
    const rival = await insertSite(t, (await insertAccount(t)).accountId);
    expect((await report(`site_id=${rival.snippet_key}`)).statusCode).toBe(404);
    expect((await report(`site_id=${site.id}`)).statusCode).toBe(404);
    const noStats = await mintKey(t, t.owner.cookie, { scopes: ['ingest:write'] });
    const refused = await report(`site_id=${site.snippet_key}`, bearer(noStats.api_key));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'insufficient_scope', required_scope: 'stats:read' });
    expect((await report(`site_id=${site.snippet_key}`, {})).statusCode).toBe(401);
  });

  // Last: it deletes a visit.
  it('counts credit whose visit is gone as unplaced, in no row', async () => {
    const before = await ok('from=2026-05-01&to=2026-05-10&attribution_model=first_touch');
    await t.database.db
      .deleteFrom('visits')
      .where('site_id', '=', site.id)
      .where('visitor_id', '=', v1)
      .where('session_ai_source', '=', 'chatgpt')
      .execute();
    const after = await ok('from=2026-05-01&to=2026-05-10&attribution_model=first_touch');
    const pricing = (body: { pages: ExpectedRow[] }) => body.pages.find((p) => p.page === '/pricing');
    expect(after.meta.unplaced).toEqual({ conversions: 1, revenue_net_cents: 10000 });
    expect(pricing(after)?.conversions).toBe((pricing(before)?.conversions ?? 0) - 1);
    expect(pricing(after)?.revenue_net_cents).toBe((pricing(before)?.revenue_net_cents ?? 0) - 10000);
  });
});
