/**
 * The plain computation the stats answers are checked against, and the app with the traffic of
 * stats.dataset.ts sent through `/v1/collect` (the clock moved to each moment), shared by the
 * correctness suites.
 */
import { beforeAll, expect } from 'vitest';
import { collect } from '../ingest/ingest.fixtures.js';
import { VISIT_METRICS } from '../reporting/stats-vocabulary.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { generateVisits, type PlannedVisit, requestsOf } from './stats.dataset.js';

export const dayIn = (timezone: string, at: Date) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
export const isBounce = (v: PlannedVisit) =>
  v.engaged.length === 1 && !v.hasCustomEvent && sum(v.engaged) < 10;

export function expectedMetrics(visits: PlannedVisit[]) {
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
export const asRow = (visits: PlannedVisit[]) => VISIT_METRICS.map((name) => expectedMetrics(visits)[name]);

/** Rows grouped by `keyOf`, ordered as the endpoint orders by default: visitors desc, then the value. */
export function expectedBreakdown(visits: PlannedVisit[], keyOf: (v: PlannedVisit) => string | null) {
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
export const compareValues = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;

/** A row with `include.comparison`: change in percent with one decimal, null from zero. */
export function compared(
  dimensions: (string | null)[],
  now: PlannedVisit[],
  before: (string | null)[],
  then: PlannedVisit[],
) {
  const metrics = asRow(now);
  const earlier = asRow(then);
  const change = metrics.map((value, i) => {
    const from = earlier[i] as number;
    return from === 0 ? null : Math.round(((value - from) / from) * 1000) / 10;
  });
  return { dimensions, metrics, comparison: { dimensions: before, metrics: earlier, change } };
}

/**
 * The test app holding the dataset, with `query` answering for its site (every metric unless
 * told). With `rollups`, the rollup job then builds every day but the last (reporting/rollups/), so
 * the answers come from the rollups and the raw visits together.
 */
export function useStatsDataset({ rollups = false }: { rollups?: boolean } = {}) {
  const t = useTestApp();
  const visits = generateVisits();
  let site: Awaited<ReturnType<typeof insertSite>>;
  const inRange = (timezone: string, from: string, to: string) =>
    visits.filter((v) => dayIn(timezone, v.start) >= from && dayIn(timezone, v.start) <= to);
  const onDay = (day: string) => inRange('UTC', day, day);

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId);
    for (const { at, payload } of requestsOf(visits, site)) {
      t.clock.set(at);
      const response = await collect(t, payload);
      if (response.statusCode !== 202)
        throw new Error(`collect answered ${response.statusCode}: ${response.body}`);
    }
    t.clock.set(new Date('2026-03-12T12:00:00Z'));
    if (rollups) {
      const report = await t.app.services.statsRollups.runOnce();
      // From the first visit to the 11th: the 12th, today, has not ended.
      expect(report).toEqual({ built: 11, months: 0, stale: 0, waiting: 0, counted: 0, goalDays: 11 });
    }
  });

  const query = async (body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/stats/query',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, metrics: VISIT_METRICS, ...body },
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    // Small groups: the rollups' people are exact lists.
    expect(answer.meta.approximate).toEqual([]);
    return answer;
  };

  return { visits, inRange, onDay, query };
}
