/**
 * Correctness against an independent computation: the generated dataset of
 * goals.dataset.ts goes through the real ingest path, and every report answer is compared with
 * a straightforward count over the raw generated events.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';
import {
  expectedProperties,
  expectedTimeseries,
  type GeneratedEvent,
  generateDataset,
  toServerEvents,
} from './goals.dataset.js';
import { type GoalsClient, postServerEvents, siteWithKey } from './goals.fixtures.js';

const NOW = new Date('2026-06-15T12:00:00Z');
const WINDOWS: [string, { from?: string; to?: string }, string, string][] = [
  ['the default window', {}, '2026-06-09', '2026-06-15'],
  ['eleven weeks in the middle', { from: '2026-04-01', to: '2026-06-14' }, '2026-04-01', '2026-06-14'],
  ['a single day', { from: '2026-03-03', to: '2026-03-03' }, '2026-03-03', '2026-03-03'],
  ['365 days up to today', { from: '2025-06-16' }, '2025-06-16', '2026-06-15'],
  ['a window before any data', { from: '2025-01-01', to: '2025-12-31' }, '2025-01-01', '2025-12-31'],
];
const GOAL_NAMES = ['purchase', 'signup', 'trial_started', 'newsletter', 'download', 'contact_form'];

describe('goal reports against an independent computation', () => {
  const t = useTestApp();
  let api: GoalsClient;
  let site_id: string;
  let events: GeneratedEvent[];

  beforeAll(async () => {
    t.clock.set(NOW);
    const dataset = generateDataset();
    events = dataset.events;
    const main = await siteWithKey(t, t.owner);
    const other = await siteWithKey(t, t.owner);
    api = main.api;
    site_id = main.site.snippet_key;
    const sent = await postServerEvents(
      t,
      main.key,
      toServerEvents(site_id, [...events, ...dataset.retries]),
    );
    const duplicates = sent.filter((response) => response.json().status === 'duplicate').length;
    expect(duplicates).toBe(dataset.retries.length);
    await postServerEvents(t, other.key, toServerEvents(other.site.snippet_key, dataset.otherSite));
  }, 240_000);

  it('generated what the scan rule needs: a key over budget, a cut partway through, retries', () => {
    const { properties: signup } = expectedProperties(events, 'signup', '2026-04-01', '2026-06-14');
    expect(signup.map((property) => property.key)).toEqual(['aa_ref']);
    const { properties: purchase } = expectedProperties(events, 'purchase', '2026-04-01', '2026-06-14');
    expect(purchase.map((property) => property.key)).toEqual([
      'Größe',
      'coupon',
      'gift',
      'plan',
      'qty',
      'sku',
    ]);
    const { properties: download } = expectedProperties(events, 'download', '2026-04-01', '2026-06-14');
    expect(download.length).toBeGreaterThan(10);
    expect(download.length).toBeLessThan(40);
  });

  it.each(WINDOWS)('timeseries over %s', async (_label, query, from, to) => {
    const response = await api.timeseries({ site_id, ...query });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(expectedTimeseries(events, from, to));
  });

  it('timeseries totals add up to the distinct events of the window', async () => {
    const body = (await api.timeseries({ site_id, from: '2025-06-16' })).json();
    const total = body.series.reduce((sum: number, series: { total: number }) => sum + series.total, 0);
    expect(total).toBe(events.length);
  });

  describe.each(WINDOWS)('properties over %s', (_label, query, from, to) => {
    it.each(GOAL_NAMES)('of %s', async (name) => {
      const response = await api.properties(name, { site_id, ...query });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(expectedProperties(events, name, from, to));
    });
  });
});
