/**
 * The contract of `POST /v1/stats/query` at its edges: every bad input is a 422 in the sites
 * area's coded shape naming the field, a site out of reach is 404, and credentials are checked
 * as on the other report routes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { statsQueryBodyExample } from './stats.schemas.js';

describe('POST /v1/stats/query, contract', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId);
  });

  const query = (body: Record<string, unknown>, headers: Record<string, string> = bearer(t.owner.apiKey)) =>
    t.request({ method: 'POST', url: '/v1/stats/query', headers, payload: body });
  const valid = () => ({ site_id: site.snippet_key, metrics: ['visits'], date_range: '7d' });

  it('answers a valid query, every default filled in', async () => {
    const response = await query(valid());
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.results).toEqual([{ dimensions: [], metrics: [0] }]);
    expect(body.query).toMatchObject({
      site_id: site.snippet_key,
      metrics: ['visits'],
      dimensions: [],
      filters: [],
      order_by: [['visits', 'desc']],
      timezone: 'UTC',
      limit: 100,
      offset: 0,
      include: { total_rows: false, comparison: null },
    });
    expect(body.meta).not.toHaveProperty('comparison_range');
    expect(body.meta.date_range).toEqual(body.query.date_range);
  });

  it('answers the request the OpenAPI document shows', async () => {
    const response = await query({ ...statsQueryBodyExample, site_id: site.snippet_key });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ results: [], meta: { total_rows: 0 } });
  });

  it.each([
    ['an unknown body field', { compare: 'previous_period' }, 'compare'],
    ['an unknown include key', { include: { totals: true } }, 'include.totals'],
    ['an unknown comparison', { include: { comparison: 'last_week' } }, 'include.comparison'],
    ['no site', { site_id: undefined }, 'site_id'],
    ['no metrics', { metrics: [] }, 'metrics'],
    ['an unknown metric', { metrics: ['visits', 'happiness'] }, 'metrics.1'],
    ['a visit-shaped metric by page', { metrics: ['bounce_rate'], dimensions: ['event:page'] }, 'metrics.0'],
    ['visits by goal', { metrics: ['visits'], dimensions: ['event:goal'] }, 'metrics.0'],
    ['pages and goals together', { dimensions: ['event:page', 'event:goal'] }, 'dimensions.1'],
    ['a conversion rate by page', { metrics: ['conversion_rate'], dimensions: ['event:page'] }, 'metrics.0'],
    ['revenue by country', { metrics: ['revenue_net'], dimensions: ['visit:country'] }, 'metrics.0'],
    ['revenue by hour', { metrics: ['revenue_net'], dimensions: ['time:hour'] }, 'metrics.0'],
    [
      'revenue filtered by page',
      { metrics: ['revenue_net'], filters: [['is', 'event:page', ['/']]] },
      'filters',
    ],
    ['an empty property key', { dimensions: ['event:props:'] }, 'dimensions.0'],
    [
      'a property key over 100 characters',
      { dimensions: [`event:props:${'k'.repeat(101)}`] },
      'dimensions.0',
    ],
    ['an unknown attribution model', { attribution_model: 'random' }, 'attribution_model'],
    ['a metric twice', { metrics: ['visits', 'visits'] }, 'metrics.1'],
    ['an unknown dimension', { dimensions: ['visit:planet'] }, 'dimensions.0'],
    ['two time dimensions', { dimensions: ['time:day', 'time:week'] }, 'dimensions.1'],
    ['a filter that is not a list', { filters: ['visit:channel=ai'] }, 'filters.0'],
    ['an unknown filter operator', { filters: [['like', 'visit:channel', ['ai']]] }, 'filters.0.0'],
    [
      'a pattern over 200 characters',
      { filters: [['matches', 'visit:entry_page', ['*'.repeat(201)]]] },
      'filters.0.2',
    ],
    [
      'more than 50 patterns',
      { filters: [['contains', 'visit:referrer', Array.from({ length: 51 }, (_, i) => `p${i}`)]] },
      'filters.0.2',
    ],
    ['a pattern that is not a string', { filters: [['matches', 'visit:entry_page', [null]]] }, 'filters.0.2'],
    ['an unknown filter dimension', { filters: [['is', 'visit:planet', ['mars']]] }, 'filters.0.1'],
    ['a filter on time', { filters: [['is', 'time:day', ['2026-01-01']]] }, 'filters.0.1'],
    ['filter values that are not strings', { filters: [['is', 'visit:country', [1]]] }, 'filters.0.2'],
    ['empty filter values', { filters: [['is', 'visit:country', []]] }, 'filters.0.2'],
    [
      'a bad filter inside a group',
      {
        filters: [
          [
            'and',
            [
              ['is', 'visit:country', ['DE']],
              ['is', 'visit:x', ['y']],
            ],
          ],
        ],
      },
      'filters.0.1.1.1',
    ],
    ['an empty group', { filters: [['or', []]] }, 'filters.0'],
    ['an unknown date keyword', { date_range: '90d' }, 'date_range'],
    ['a date that does not exist', { date_range: ['2026-02-30', '2026-03-01'] }, 'date_range.0'],
    ['dates in the wrong order', { date_range: ['2026-03-02', '2026-03-01'] }, 'date_range'],
    ['a range over five years', { date_range: ['2020-01-01', '2025-01-01'] }, 'date_range'],
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, 'timezone'],
    ['an offset instead of a zone', { timezone: '+01:00' }, 'timezone'],
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit over 1000', { limit: 1001 }, 'limit'],
    ['a fractional limit', { limit: 2.5 }, 'limit'],
    ['a negative offset', { offset: -1 }, 'offset'],
    ['ordering by a name not requested', { order_by: [['pageviews', 'desc']] }, 'order_by.0.0'],
    ['a bad order direction', { order_by: [['visits', 'up']] }, 'order_by.0.1'],
  ])('answers 422 to %s', async (_name, change, field) => {
    const response = await query({ ...valid(), ...change });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it.each([
    [{ metrics: ['visits', 'not_a_metric'] }, 'metrics.1: unknown metric "not_a_metric"'],
    [{ dimensions: ['visit:nope'] }, 'dimensions.0: unknown dimension "visit:nope"'],
    [
      { timezone: 'Mars/Olympus' },
      'timezone: unknown timezone "Mars/Olympus"; use an IANA time zone name such as Europe/Berlin or UTC',
    ],
    [{ filters: [['is', 'visit:nope', ['x']]] }, 'filters.0.1: unknown filter dimension "visit:nope"'],
    [
      { filters: [['like', 'visit:channel', ['ai']]] },
      'filters.0.0: unknown filter operator "like"; one of is, is_not, contains, matches, or a group: and, or, not',
    ],
    [
      { order_by: [['pageviews', 'desc']] },
      'order_by.0.0: "pageviews" is not one of the requested metrics or dimensions',
    ],
  ])('names the offending value in the 422 to %j', async (change, message) => {
    const response = await query({ ...valid(), ...change });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ error: 'validation_failed', message, field: expect.any(String) });
  });

  it('takes a range of exactly five years less a day', async () => {
    const response = await query({ ...valid(), date_range: ['2020-01-01', '2024-12-31'] });
    expect(response.statusCode).toBe(200);
    expect(response.json().meta.date_range).toEqual(['2020-01-01', '2024-12-31']);
  });

  it('answers 404 for another account’s site, and for a site UUID sent with a key', async () => {
    const rival = await insertAccount(t);
    const theirs = await insertSite(t, rival.accountId);
    const response = await query({ ...valid(), site_id: theirs.snippet_key });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'not_found' });
    expect((await query({ ...valid(), site_id: site.id })).statusCode).toBe(404);
  });

  it('lets a dashboard session name the site by UUID, and answers the snippet key', async () => {
    const response = await query({ ...valid(), site_id: site.id }, { cookie: t.owner.cookie });
    expect(response.statusCode).toBe(200);
    expect(response.json().query.site_id).toBe(site.snippet_key);
  });

  it('needs stats:read, and credentials', async () => {
    const noStats = await mintKey(t, t.owner.cookie, { scopes: ['ingest:write'] });
    const refused = await query(valid(), bearer(noStats.api_key));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'insufficient_scope', required_scope: 'stats:read' });
    const anonymous = await query(valid(), {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ error: 'unauthorized' });
  });
});
