/**
 * Checks `include.comparison` of `POST /v1/stats/query` against a plain computation over the
 * generated traffic of stats.dataset.ts.
 */
import { describe, expect, it } from 'vitest';
import { CHANNELS, type PlannedVisit } from './stats.dataset.js';
import { compared, dayIn, expectedBreakdown, useStatsDataset } from './stats.expected.js';

describe('POST /v1/stats/query with include.comparison, against a plain computation', () => {
  const { visits, inRange, onDay, query } = useStatsDataset();

  it('compares a total and a daily series with the previous period', async () => {
    const range = ['2026-03-06', '2026-03-10'] as const;
    const total = await query({ date_range: range, include: { comparison: 'previous_period' } });
    expect(total.meta.comparison_range).toEqual(['2026-03-01', '2026-03-05']);
    expect(total.results).toEqual([
      compared([], inRange('UTC', ...range), [], inRange('UTC', '2026-03-01', '2026-03-05')),
    ]);
    const daily = await query({
      date_range: range,
      dimensions: ['time:day'],
      include: { comparison: 'previous_period' },
    });
    const days = [...new Set(inRange('UTC', ...range).map((v) => dayIn('UTC', v.start)))].sort();
    expect(daily.results).toEqual(
      days.map((day) => {
        const before = `2026-03-0${Number(day.slice(8)) - 5}`;
        return compared([day], onDay(day), [before], onDay(before));
      }),
    );
  });

  it('matches weeks by offset and other dimensions by value, and compares a year back', async () => {
    const weekly = await query({
      date_range: ['2026-03-02', '2026-03-15'],
      dimensions: ['time:week'],
      include: { comparison: 'previous_period' },
    });
    expect(weekly.meta.comparison_range).toEqual(['2026-02-16', '2026-03-01']);
    expect(weekly.results).toEqual([
      compared(['2026-03-02'], inRange('UTC', '2026-03-02', '2026-03-08'), ['2026-02-16'], []),
      compared(
        ['2026-03-09'],
        inRange('UTC', '2026-03-09', '2026-03-15'),
        ['2026-02-23'],
        onDay('2026-03-01'),
      ),
    ]);
    const range = ['2026-03-06', '2026-03-10'] as const;
    const byChannel = await query({
      date_range: range,
      dimensions: ['visit:channel'],
      include: { comparison: 'previous_period' },
    });
    const earlier = inRange('UTC', '2026-03-01', '2026-03-05');
    expect(byChannel.results).toEqual(
      expectedBreakdown(inRange('UTC', ...range), (v) => CHANNELS[v.source]).map(({ dimensions }) => {
        const key = dimensions[0] as string | null;
        const of = (list: PlannedVisit[]) => list.filter((v) => CHANNELS[v.source] === key);
        return compared([key], of(inRange('UTC', ...range)), [key], of(earlier));
      }),
    );
    const yearBack = await query({
      date_range: ['2027-03-01', '2027-03-10'],
      include: { comparison: 'year_over_year' },
    });
    expect(yearBack.meta.comparison_range).toEqual(['2026-03-01', '2026-03-10']);
    expect(yearBack.results).toEqual([compared([], [], [], visits)]);
    const leap = await query({
      date_range: ['2028-02-29', '2028-02-29'],
      include: { comparison: 'year_over_year' },
    });
    expect(leap.meta.comparison_range).toEqual(['2027-02-28', '2027-02-28']);
  });

  it('matches hours on the same day offset and months by their count from the start', async () => {
    const hourly = await query({
      date_range: ['2026-03-04', '2026-03-05'],
      metrics: ['visits'],
      dimensions: ['time:hour'],
      include: { comparison: 'previous_period' },
    });
    const hourOf = (v: PlannedVisit) => `${v.start.toISOString().slice(0, 13).replace('T', ' ')}:00:00`;
    const now = inRange('UTC', '2026-03-04', '2026-03-05');
    const hours = [...new Set(now.map(hourOf))].sort();
    expect(hourly.results).toEqual(
      hours.map((hour) => {
        const before = `2026-03-0${Number(hour.slice(8, 10)) - 2}${hour.slice(10)}`;
        const count = (list: PlannedVisit[], at: string) => list.filter((v) => hourOf(v) === at).length;
        const [current, earlier] = [count(now, hour), count(visits, before)];
        const change = earlier === 0 ? null : Math.round(((current - earlier) / earlier) * 1000) / 10;
        return {
          dimensions: [hour],
          metrics: [current],
          comparison: { dimensions: [before], metrics: [earlier], change: [change] },
        };
      }),
    );
    expect(
      hourly.results.some((row: { comparison: { metrics: number[] } }) => row.comparison.metrics[0]),
    ).toBe(true);
    // 61 days back from 1 March starts on 30 December: month 0 of that range is December.
    const monthly = await query({
      date_range: ['2026-03-01', '2026-04-30'],
      dimensions: ['time:month'],
      include: { comparison: 'previous_period' },
    });
    expect(monthly.meta.comparison_range).toEqual(['2025-12-30', '2026-02-28']);
    expect(monthly.results).toEqual([compared(['2026-03-01'], visits, ['2025-12-01'], [])]);
  });
});
