/**
 * `GET /v1/goals/:name/properties` on small hand-made datasets, posted through the real ingest path (browser
 * events through `/v1/collect`, dated events through `/v1/server/events`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId } from '../ingest/ingest.fixtures.js';
import { useTestApp } from '../test/app.js';
import { type ServerEventBody, siteWithEvents } from './goals.fixtures.js';

const NOW = new Date('2026-03-10T12:00:00Z');
const at = (day: string, time = '10:00:00') => `${day}T${time}Z`;

describe('goal properties', () => {
  const t = useTestApp();
  beforeAll(() => t.clock.set(NOW));

  const siteWith = (events: Omit<ServerEventBody, 'site_id'>[]) => siteWithEvents(t, t.owner, events);

  describe('GET /v1/goals/:name/properties', () => {
    it('counts distinct events per value, most common first, keys and values as stored', async () => {
      const { api, site_id } = await siteWith([
        {
          name: 'buy',
          event_id: 'order-1',
          properties: { plan: 'pro', 'Plan Größe': '🍕', qty: 3, gift: true },
        },
        {
          name: 'buy',
          event_id: 'order-1',
          properties: { plan: 'pro', 'Plan Größe': '🍕', qty: 3, gift: true },
        },
        { name: 'buy', properties: { plan: 'team', qty: 3, gift: false, note: null } },
        { name: 'buy', properties: { plan: 'team', contact: 'jane@example.com' } },
        { name: 'buy', properties: { plan: 'Team' } },
        { name: 'buy', timestamp: at('2026-02-01'), properties: { plan: 'old' } },
        { name: 'other', properties: { plan: 'elsewhere' } },
      ]);
      const vid = newVisitorId();
      const payload = {
        type: 'event',
        site: site_id,
        vid,
        url: 'https://shop.example/',
        name: 'buy',
        props: { plan: 'team' },
      };
      await collect(t, { ...payload, eid: 'browser-retry-1' });
      await collect(t, { ...payload, eid: 'browser-retry-1' });

      const response = await api.properties('buy', { site_id });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        from: '2026-03-04',
        to: '2026-03-10',
        goal_name: 'buy',
        properties: [
          { key: 'Plan Größe', values: [{ value: '🍕', count: 1 }] },
          { key: 'contact', values: [{ value: '[REDACTED]', count: 1 }] },
          {
            key: 'gift',
            values: [
              { value: 'false', count: 1 },
              { value: 'true', count: 1 },
            ],
          },
          {
            key: 'plan',
            values: [
              { value: 'team', count: 3 },
              { value: 'Team', count: 1 },
              { value: 'pro', count: 1 },
            ],
          },
          { key: 'qty', values: [{ value: '3', count: 2 }] },
        ],
      });
      const older = (await api.properties('buy', { site_id, from: '2026-02-01', to: '2026-02-01' })).json();
      expect(older.properties).toEqual([{ key: 'plan', values: [{ value: 'old', count: 1 }] }]);
    });

    it('answers an empty breakdown for a goal nobody completed, not 404', async () => {
      const { api, site_id } = await siteWith([]);
      expect((await api.properties('unknown_goal', { site_id })).json()).toEqual({
        from: '2026-03-04',
        to: '2026-03-10',
        goal_name: 'unknown_goal',
        properties: [],
      });
    });

    it('shows at most 10 values per key, yet reads every value within the 200-pair budget', async () => {
      // a: 12 values (12 pairs read, 10 shown); b: 250 values with counts 2 for b_000..b_009, 1
      // after; budget left for b: 188 pairs; c never read.
      const events = [
        ...Array.from({ length: 12 }, (_, i) => ({ name: 'buy', properties: { a: `a_${i}`, c: 'x' } })),
        ...Array.from({ length: 250 }, (_, i) => ({
          name: 'buy',
          properties: { b: `b_${String(i).padStart(3, '0')}` },
        })),
        ...Array.from({ length: 10 }, (_, i) => ({
          name: 'buy',
          properties: { b: `b_${String(i).padStart(3, '0')}` },
        })),
      ];
      const { api, site_id } = await siteWith(events);
      const body = (await api.properties('buy', { site_id })).json();
      expect(body.properties.map((property: { key: string }) => property.key)).toEqual(['a', 'b']);
      expect(body.properties[0].values).toHaveLength(10);
      expect(body.properties[1].values).toEqual(
        Array.from({ length: 10 }, (_, i) => ({ value: `b_${String(i).padStart(3, '0')}`, count: 2 })),
      );
    });

    it('lets a first key with 200 or more values use the whole budget', async () => {
      const events = Array.from({ length: 200 }, (_, i) => ({
        name: 'buy',
        properties: { aaa: `v${String(i).padStart(3, '0')}`, zzz: 'only' },
      }));
      const { api, site_id } = await siteWith(events);
      const body = (await api.properties('buy', { site_id })).json();
      expect(body.properties).toHaveLength(1);
      expect(body.properties[0]).toMatchObject({ key: 'aaa' });
      expect(body.properties[0].values).toHaveLength(10);
    });
  });
});
