/**
 * Checks `POST /v1/stats/query` against a plain computation over the generated traffic of
 * stats.dataset.ts, sent through `/v1/collect` with the clock moved to each moment.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../ingest/ingest.fixtures.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { CHANNELS, generateVisits, type PlannedVisit, requestsOf } from './stats.dataset.js';

// The plain computation the answers are checked against.
const dayIn = (timezone: string, at: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const isBounce = (v: PlannedVisit) => v.engaged.length === 1 && !v.hasCustomEvent && sum(v.engaged) < 10;

function expectedMetrics(visits: PlannedVisit[]) {
  const pageviews = sum(visits.map((v) => v.engaged.length));
  const share = (part: number) => (visits.length === 0 ? 0 : part / visits.length);
  return {
    visitors: new Set(visits.map((v) => v.visitor)).size,
    visits: visits.length,
    pageviews,
    views_per_visit: Math.round(share(pageviews) * 100) / 100,
    bounce_rate: Math.round(share(visits.filter(isBounce).length) * 1000) / 10,
    visit_duration: Math.round(share(sum(visits.map((v) => sum(v.engaged))))),
  };
}
const METRIC_NAMES = [
  'visitors',
  'visits',
  'pageviews',
  'views_per_visit',
  'bounce_rate',
  'visit_duration',
] as const;
const asRow = (visits: PlannedVisit[]) => METRIC_NAMES.map((name) => expectedMetrics(visits)[name]);

/** Rows grouped by `keyOf`, ordered as the endpoint orders by default: visitors desc, then the value. */
function expectedBreakdown(visits: PlannedVisit[], keyOf: (v: PlannedVisit) => string | null) {
  const groups = new Map<string | null, PlannedVisit[]>();
  for (const visit of visits) groups.set(keyOf(visit), [...(groups.get(keyOf(visit)) ?? []), visit]);
  return [...groups.entries()]
    .sort(
      ([keyA, a], [keyB, b]) =>
        expectedMetrics(b).visitors - expectedMetrics(a).visitors || compareValues(keyA, keyB),
    )
    .map(([key, members]) => ({ dimensions: [key], metrics: asRow(members) }));
}

/** Ascending, nulls last, as the endpoint breaks ties. */
const compareValues = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;

describe('POST /v1/stats/query, against a plain computation', () => {
  const t = useTestApp();
  const visits = generateVisits();
  let site: Awaited<ReturnType<typeof insertSite>>;
  const inRange = (timezone: string, from: string, to: string) =>
    visits.filter((v) => dayIn(timezone, v.start) >= from && dayIn(timezone, v.start) <= to);

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId);
    for (const { at, payload } of requestsOf(visits, site)) {
      t.clock.set(at);
      const response = await collect(t, payload);
      if (response.statusCode !== 202)
        throw new Error(`collect answered ${response.statusCode}: ${response.body}`);
    }
    t.clock.set(new Date('2026-03-12T12:00:00Z'));
  });

  const query = async (body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/stats/query',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, metrics: METRIC_NAMES, ...body },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('has the cases the dataset promises', () => {
    expect(visits.some(isBounce)).toBe(true);
    expect(visits.some((v) => v.engaged.length === 1 && v.hasCustomEvent && sum(v.engaged) < 10)).toBe(true);
    expect(visits.some((v) => v.engaged.length > 1 && sum(v.engaged) > 0)).toBe(true);
    expect(new Set(visits.map((v) => v.visitor)).size).toBeLessThan(visits.length);
    expect(new Set(visits.map((v) => v.source))).toEqual(
      new Set(['chatgpt', 'perplexity', 'google', 'direct']),
    );
  });

  it('aggregates a custom range', async () => {
    const body = await query({ date_range: ['2026-03-03', '2026-03-08'] });
    expect(body.results).toEqual([
      { dimensions: [], metrics: asRow(inRange('UTC', '2026-03-03', '2026-03-08')) },
    ]);
  });

  it('resolves 7d to the seven days ending today and `all` to the first visit', async () => {
    const week = await query({ date_range: '7d' });
    expect(week.meta.date_range).toEqual(['2026-03-06', '2026-03-12']);
    expect(week.results[0].metrics).toEqual(asRow(inRange('UTC', '2026-03-06', '2026-03-12')));
    const all = await query({ date_range: 'all', metrics: ['visits'] });
    const first = visits.map((v) => dayIn('UTC', v.start)).sort()[0];
    expect(all.meta.date_range).toEqual([first, '2026-03-12']);
    expect(all.results[0].metrics).toEqual([visits.length]);
  });

  it('gives a daily series in UTC', async () => {
    const body = await query({ date_range: ['2026-03-01', '2026-03-10'], dimensions: ['time:day'] });
    const days = [...new Set(visits.map((v) => dayIn('UTC', v.start)))].sort();
    expect(body.results).toEqual(
      days.map((day) => ({
        dimensions: [day],
        metrics: asRow(visits.filter((v) => dayIn('UTC', v.start) === day)),
      })),
    );
  });

  it('buckets days and the range in a time zone, across the change to summer time', async () => {
    const zone = 'America/New_York';
    const body = await query({
      date_range: ['2026-03-02', '2026-03-09'],
      dimensions: ['time:day'],
      timezone: zone,
    });
    const inZone = inRange(zone, '2026-03-02', '2026-03-09');
    const days = [...new Set(inZone.map((v) => dayIn(zone, v.start)))].sort();
    expect(days.length).toBeGreaterThan(3);
    expect(inZone.some((v) => dayIn(zone, v.start) !== dayIn('UTC', v.start))).toBe(true);
    expect(body.results).toEqual(
      days.map((day) => ({
        dimensions: [day],
        metrics: asRow(inZone.filter((v) => dayIn(zone, v.start) === day)),
      })),
    );
  });

  it('breaks down by channel and by AI assistant, and filters to the AI channel', async () => {
    const range = ['2026-03-01', '2026-03-10'];
    const byChannel = await query({ date_range: range, dimensions: ['visit:channel'] });
    expect(byChannel.results).toEqual(expectedBreakdown(visits, (v) => CHANNELS[v.source]));
    const aiOnly = visits.filter((v) => CHANNELS[v.source] === 'ai');
    const byAssistant = await query({
      date_range: range,
      dimensions: ['visit:ai_source'],
      filters: [['is', 'visit:channel', ['ai']]],
    });
    expect(byAssistant.results).toEqual(expectedBreakdown(aiOnly, (v) => v.source));
    const everyAssistant = await query({ date_range: range, dimensions: ['visit:ai_source'] });
    expect(everyAssistant.results).toEqual(
      expectedBreakdown(visits, (v) => (CHANNELS[v.source] === 'ai' ? v.source : null)),
    );
  });

  it('applies is_not, or and not groups', async () => {
    const range = ['2026-03-01', '2026-03-10'];
    const notDirect = await query({
      date_range: range,
      filters: [['not', ['is', 'visit:channel', ['direct']]]],
    });
    expect(notDirect.results[0].metrics).toEqual(asRow(visits.filter((v) => v.source !== 'direct')));
    const either = await query({
      date_range: range,
      filters: [
        [
          'or',
          [
            ['is', 'visit:ai_source', ['chatgpt']],
            ['is', 'visit:referrer', ['google.com']],
          ],
        ],
      ],
    });
    expect(either.results[0].metrics).toEqual(
      asRow(visits.filter((v) => ['chatgpt', 'google'].includes(v.source))),
    );
    const notAssistant = await query({
      date_range: range,
      filters: [['is_not', 'visit:ai_source', ['chatgpt']]],
    });
    expect(notAssistant.results[0].metrics).toEqual(asRow(visits.filter((v) => v.source !== 'chatgpt')));
  });

  it('breaks down by entry page, ordered and paged as asked, with the row count', async () => {
    const body = await query({
      date_range: ['2026-03-01', '2026-03-10'],
      metrics: ['pageviews', 'visits'],
      dimensions: ['visit:entry_page'],
      order_by: [['visit:entry_page', 'desc']],
      limit: 2,
      offset: 1,
      include: { total_rows: true },
    });
    const pages = [...new Set(visits.map((v) => v.entry))].sort().reverse();
    expect(body.meta.total_rows).toBe(pages.length);
    expect(body.results).toEqual(
      pages.slice(1, 3).map((page) => {
        const members = visits.filter((v) => v.entry === page);
        return { dimensions: [page], metrics: [sum(members.map((v) => v.engaged.length)), members.length] };
      }),
    );
  });
});
