/**
 * Checks `POST /v1/stats/query` against a plain computation over the generated traffic of
 * stats.dataset.ts: once over the raw visits, once with the days built into the rollups, which
 * must give the same answers (in UTC they read the rollups for every day but today).
 */
import { describe, expect, it } from 'vitest';
import { CHANNELS } from './stats.dataset.js';
import { asRow, dayIn, expectedBreakdown, isBounce, sum, useStatsDataset } from './stats.expected.js';

describe.each([
  { rollups: false, reading: 'the raw visits' },
  { rollups: true, reading: 'the rollups' },
])('POST /v1/stats/query, against a plain computation, reading $reading', ({ rollups }) => {
  const { visits, inRange, query } = useStatsDataset({ rollups });

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

  it('counts the same people over a range longer than a quarter, which counts them another way', async () => {
    // Up to 92 days visits are grouped per person (reporting/visit-grain.sql.ts); longer ranges count
    // distinct people. Both must give the plain answer.
    const long = ['2025-11-01', '2026-03-12'];
    const everything = inRange('UTC', long[0] as string, long[1] as string);
    expect(everything).toHaveLength(visits.length);
    const total = await query({ date_range: long });
    expect(total.results).toEqual([{ dimensions: [], metrics: asRow(everything) }]);
    const byChannel = await query({ date_range: long, dimensions: ['visit:channel'] });
    expect(byChannel.results).toEqual(expectedBreakdown(everything, (v) => CHANNELS[v.source]));
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

  it('applies contains (any case, any value) and matches (`*` only; %, _ and \\ literal)', async () => {
    const range = ['2026-03-01', '2026-03-10'];
    const total = async (filters: unknown[]) =>
      (await query({ date_range: range, filters })).results[0].metrics;
    expect(await total([['contains', 'visit:referrer', ['GOOGLE', 'plex']]])).toEqual(
      asRow(visits.filter((v) => ['google', 'perplexity'].includes(v.source))),
    );
    // A null referrer (direct) never contains anything, so `not` keeps it.
    expect(await total([['not', ['contains', 'visit:referrer', ['chat']]]])).toEqual(
      asRow(visits.filter((v) => v.source !== 'chatgpt')),
    );
    expect(await total([['matches', 'visit:entry_page', ['/blog/*', '/']]])).toEqual(
      asRow(visits.filter((v) => v.entry !== '/pricing')),
    );
    expect(await total([['matches', 'visit:entry_page', ['/*ing']]])).toEqual(
      asRow(visits.filter((v) => v.entry === '/pricing')),
    );
    for (const literal of ['/pricin_', '/pric%', '/pricing\\', '/PRICING', '/pricing/*']) {
      expect(await total([['matches', 'visit:entry_page', [literal]]])).toEqual(asRow([]));
    }
    expect(await total([['contains', 'visit:entry_page', ['_', '%']]])).toEqual(asRow([]));
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
