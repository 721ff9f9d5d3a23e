/**
 * `GET /v1/goals/timeseries` on small hand-made datasets, posted through the real ingest path (browser
 * events through `/v1/collect`, dated events through `/v1/server/events`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId } from '../ingest/ingest.fixtures.js';
import { useTestApp } from '../test/app.js';
import { type GoalsClient, type ServerEventBody, siteWithEvents, siteWithKey } from './goals.fixtures.js';

const NOW = new Date('2026-03-10T12:00:00Z');
const at = (day: string, time = '10:00:00') => `${day}T${time}Z`;

describe('goal timeseries', () => {
  const t = useTestApp();
  beforeAll(() => t.clock.set(NOW));

  const siteWith = (events: Omit<ServerEventBody, 'site_id'>[]) => siteWithEvents(t, t.owner, events);

  describe('GET /v1/goals/timeseries', () => {
    let api: GoalsClient;
    let site_id: string;
    beforeAll(async () => {
      ({ api, site_id } = await siteWith([
        { name: 'signup', timestamp: at('2026-03-03', '23:59:59') },
        { name: 'signup', timestamp: at('2026-03-04', '00:00:00') },
        { name: 'signup', timestamp: at('2026-03-04'), event_id: 'retried-1' },
        { name: 'signup', timestamp: at('2026-03-04'), event_id: 'retried-1' },
        { name: 'signup', timestamp: at('2026-03-07') },
        { name: 'signup', timestamp: at('2026-03-10', '23:59:59') },
        { name: 'signup', timestamp: at('2026-03-11', '01:00:00') },
        { name: 'old_goal', timestamp: at('2026-01-15') },
        { name: 'buy', timestamp: at('2026-03-09') },
      ]));
      await api.create({ site_id, name: 'never_fired' });
      const vid = newVisitorId();
      await collect(t, { type: 'event', site: site_id, vid, url: 'https://shop.example/', name: 'buy' });
    });

    it('defaults to today and the six days before, lists only goals that fired, skips empty days', async () => {
      const response = await api.timeseries({ site_id });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        from: '2026-03-04',
        to: '2026-03-10',
        series: [
          {
            goal_name: 'buy',
            points: [
              { date: '2026-03-09', completions: 1 },
              { date: '2026-03-10', completions: 1 },
            ],
            total: 2,
          },
          {
            goal_name: 'signup',
            points: [
              { date: '2026-03-04', completions: 2 },
              { date: '2026-03-07', completions: 1 },
              { date: '2026-03-10', completions: 1 },
            ],
            total: 4,
          },
        ],
      });
    });

    it('takes from and to as inclusive UTC days; to alone moves the default from', async () => {
      const single = (await api.timeseries({ site_id, from: '2026-03-03', to: '2026-03-03' })).json();
      expect(single.series).toEqual([
        { goal_name: 'signup', points: [{ date: '2026-03-03', completions: 1 }], total: 1 },
      ]);
      const earlier = (await api.timeseries({ site_id, to: '2026-01-20' })).json();
      expect(earlier).toMatchObject({ from: '2026-01-14', to: '2026-01-20' });
      expect(earlier.series.map((series: { goal_name: string }) => series.goal_name)).toEqual(['old_goal']);
      const ahead = (await api.timeseries({ site_id, from: '2026-03-11', to: '2026-03-11' })).json();
      expect(ahead.series).toEqual([
        { goal_name: 'signup', points: [{ date: '2026-03-11', completions: 1 }], total: 1 },
      ]);
      const year = await api.timeseries({ site_id, from: '2025-03-11', to: '2026-03-10' });
      expect(year.statusCode).toBe(200);
    });

    it('follows the registry order: sort_order, then name', async () => {
      const signup = (await api.list({ site_id }))
        .json()
        .goals.find((goal: { name: string }) => goal.name === 'signup');
      await api.update(signup.id, { site_id, sort_order: 0 });
      const buy = (await api.list({ site_id }))
        .json()
        .goals.find((goal: { name: string }) => goal.name === 'buy');
      await api.update(buy.id, { site_id, sort_order: 5 });
      const names = (await api.timeseries({ site_id }))
        .json()
        .series.map((s: { goal_name: string }) => s.goal_name);
      expect(names).toEqual(['signup', 'buy']);
    });

    it('answers an empty series for a site with no goals', async () => {
      const empty = await siteWithKey(t, t.owner);
      expect((await empty.api.timeseries({ site_id: empty.site.snippet_key })).json()).toEqual({
        from: '2026-03-04',
        to: '2026-03-10',
        series: [],
      });
    });
  });
});
