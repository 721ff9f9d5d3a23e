/**
 * Page reports filtered by a visit dimension read pageviews joined to their visits, bounded by
 * the visits' activity and, for the AI channel or assistants, read by the partial index of AI
 * visits (migrations/034). A visit that began before the range and went on into it still counts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import type { Filter } from './filters.js';
import { pageviewsPerVisitSql } from './pageview-grain.sql.js';

describe('page reports of AI visits', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;

  const view = async (at: string, vid: string, path: string, ref: string) => {
    t.clock.set(new Date(at));
    const response = await collect(t, pageview(site.snippet_key, vid, `https://${site.domain}${path}`, ref));
    expect(response.statusCode, response.body).toBe(202);
  };
  const pages = async (filters: unknown[]) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/stats/query',
      headers: bearer(t.owner.apiKey),
      payload: {
        site_id: site.snippet_key,
        metrics: ['visitors', 'visits', 'pageviews'],
        dimensions: ['event:page'],
        date_range: ['2026-05-02', '2026-05-02'],
        filters,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response
      .json()
      .results.map((row: { dimensions: string[]; metrics: number[] }) => [row.dimensions[0], ...row.metrics]);
  };

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'shop.example.com' });
    // From ChatGPT before midnight, on into the next day within the same visit.
    const night = newVisitorId();
    await view('2026-05-01T23:50:00Z', night, '/a', 'https://chatgpt.com/');
    await view('2026-05-02T00:10:00Z', night, '/b', `https://${'shop.example.com'}/a`);
    // From Google on the day itself.
    await view('2026-05-02T09:00:00Z', newVisitorId(), '/b', 'https://www.google.com/');
    t.clock.set(new Date('2026-05-03T12:00:00Z'));
  });

  it('counts the pageviews in the range of an AI visit that began the day before', async () => {
    expect(await pages([['is', 'visit:channel', ['ai']]])).toEqual([['/b', 1, 1, 1]]);
    expect(await pages([['is', 'visit:ai_source', ['chatgpt']]])).toEqual([['/b', 1, 1, 1]]);
    expect(await pages([['is_not', 'visit:channel', ['ai']]])).toEqual([['/b', 1, 1, 1]]);
    expect(await pages([])).toEqual([['/b', 2, 2, 2]]);
  });

  it('asks for AI visits in the shape of their partial index', async () => {
    // The index's predicate must appear as written for the planner to use it (bench/RESULTS.md
    // has the plans at full size; on these few rows any index is as good).
    const sqlOf = (filters: Filter[]) =>
      pageviewsPerVisitSql(
        {
          siteId: site.id,
          from: '2026-05-02',
          to: '2026-05-02',
          timezone: 'UTC',
          dimensions: ['event:page'],
          filters,
        },
        null,
      ).compile(t.database.db).sql;
    for (const filter of [
      { op: 'is', dimension: 'visit:channel', values: ['ai'] },
      { op: 'is', dimension: 'visit:ai_source', values: ['chatgpt', 'claude'] },
    ] as const) {
      const text = sqlOf([{ ...filter, values: [...filter.values] }]);
      expect(text).toContain("and v.source_kind = 'ai'");
      expect(text).toMatch(/v\.last_activity_at >= /);
    }
    for (const filter of [
      { op: 'is', dimension: 'visit:channel', values: ['ai', 'search'] },
      { op: 'is_not', dimension: 'visit:ai_source', values: ['chatgpt'] },
      { op: 'is', dimension: 'visit:country', values: ['FR'] },
    ] as const) {
      expect(sqlOf([{ ...filter, values: [...filter.values] }])).not.toContain("and v.source_kind = 'ai'");
    }
  });
});
