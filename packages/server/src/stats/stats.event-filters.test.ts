/**
 * Page and goal filters on visit metrics, as Plausible counts them (DESIGN.md §7): the visits
 * and people with a matching event, only the matching pageviews, and the bounce rate and views
 * per visit of the matching visits, whole. Every figure is counted from the plan below.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { MINUTE_MS } from '../lib/clock.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

const METRICS = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'views_per_visit'];
const PRICING = ['is', 'event:page', ['/pricing']];

describe('POST /v1/stats/query with page and goal filters', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;

  const visit = async (at: string, referrer: string, paths: string[], goal?: string) => {
    const vid = newVisitorId();
    for (const [i, path] of paths.entries()) {
      t.clock.set(new Date(Date.parse(at) + i * MINUTE_MS));
      const ref = i === 0 ? referrer : `https://${site.domain}${paths[i - 1]}`;
      const response = await collect(
        t,
        pageview(site.snippet_key, vid, `https://${site.domain}${path}`, ref),
      );
      expect(response.statusCode, response.body).toBe(202);
    }
    if (goal) {
      const last = paths.at(-1) as string;
      const url = `https://${site.domain}${last}`;
      const response = await collect(t, { type: 'event', site: site.snippet_key, vid, url, name: goal });
      expect(response.statusCode, response.body).toBe(202);
    }
  };

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'shop.example.com' });
    // The day before: one visit viewing /pricing twice.
    await visit('2026-05-01T10:00:00Z', 'https://www.google.com/', ['/pricing', '/', '/pricing']);
    // The day itself: four visits, eight pageviews.
    await visit('2026-05-02T09:00:00Z', 'https://www.google.com/', ['/', '/pricing', '/signup'], 'signup');
    await visit('2026-05-02T10:00:00Z', 'https://chatgpt.com/', ['/pricing', '/pricing/enterprise']);
    await visit('2026-05-02T11:00:00Z', '', ['/']);
    await visit('2026-05-02T12:00:00Z', 'https://www.google.com/', ['/blog', '/']);
    t.clock.set(new Date('2026-05-03T12:00:00Z'));
  });

  const query = async (body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/stats/query',
      headers: bearer(t.owner.apiKey),
      payload: {
        site_id: site.snippet_key,
        date_range: ['2026-05-02', '2026-05-02'],
        metrics: METRICS,
        ...body,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const rows = async (body: Record<string, unknown>) =>
    (await query(body)).results.map((row: { dimensions: unknown[]; metrics: number[] }) => [
      ...row.dimensions,
      ...row.metrics,
    ]);

  it('counts every pageview of every visit without a filter', async () => {
    expect(await rows({})).toEqual([[4, 4, 8, 25, 2]]);
  });

  it('counts the visits that viewed /pricing, and their views of /pricing only', async () => {
    expect(await rows({ filters: [PRICING] })).toEqual([[2, 2, 2, 0, 2.5]]);
    // Without people counted the visits are read another way; the pageviews are the same.
    expect(await rows({ metrics: ['visits', 'pageviews'], filters: [PRICING] })).toEqual([[2, 2]]);
  });

  it('counts every pageview that contains the pattern', async () => {
    expect(await rows({ filters: [['contains', 'event:page', ['PRICING']]] })).toEqual([[2, 2, 3, 0, 2.5]]);
  });

  it('counts the visits that never viewed /pricing, with all their pageviews', async () => {
    expect(await rows({ filters: [['is_not', 'event:page', ['/pricing']]] })).toEqual([[2, 2, 3, 50, 1.5]]);
  });

  it('counts the visits that reached a goal, with their pageviews', async () => {
    expect(await rows({ filters: [['is', 'event:goal', ['signup']]] })).toEqual([[1, 1, 3, 0, 3]]);
  });

  it('groups by a visit dimension the same way', async () => {
    const dimensions = ['visit:channel'];
    expect(await rows({ dimensions, filters: [PRICING] })).toEqual([
      ['ai', 1, 1, 1, 0, 2],
      ['search', 1, 1, 1, 0, 3],
    ]);
    expect(await rows({ dimensions, filters: [['contains', 'event:page', ['pricing']]] })).toEqual([
      ['ai', 1, 1, 2, 0, 2],
      ['search', 1, 1, 1, 0, 3],
    ]);
    expect(await rows({ dimensions, filters: [['is_not', 'event:page', ['/pricing']]] })).toEqual([
      ['direct', 1, 1, 1, 100, 1],
      ['search', 1, 1, 2, 0, 2],
    ]);
    expect(await rows({ dimensions, filters: [['is', 'event:goal', ['signup']]] })).toEqual([
      ['search', 1, 1, 3, 0, 3],
    ]);
  });

  it('counts the earlier period of a comparison the same way', async () => {
    const body = await query({ filters: [PRICING], include: { comparison: 'previous_period' } });
    expect(body.meta.comparison_range).toEqual(['2026-05-01', '2026-05-01']);
    expect(body.results).toEqual([
      {
        dimensions: [],
        metrics: [2, 2, 2, 0, 2.5],
        comparison: { dimensions: [], metrics: [1, 1, 2, 0, 3], change: [100, 100, 0, null, -16.7] },
      },
    ]);
  });
});
