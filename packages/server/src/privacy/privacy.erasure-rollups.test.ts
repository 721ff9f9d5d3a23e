/**
 * Erasure takes the person's property values out of the goal properties report: the daily
 * property counts lose what their events added (a unique order reference goes altogether), other
 * people's counts stay, and a run that stops part-way and repeats a batch subtracts once.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { goalsClient, postServerEvents, siteWithKey } from '../goals/goals.fixtures.js';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { DAY_MS, MINUTE_MS } from '../lib/clock.js';
import { bearer, useTestApp } from '../test/app.js';
import { PRIVACY_LEASE_MS } from './privacy-jobs.js';

const NOW = new Date('2026-03-10T12:00:00Z');

interface PropertyRow {
  key: string;
  values: { value: string; count: number }[];
}

describe('privacy erasure of property values', () => {
  // The rollups are PostgreSQL's source: with ClickHouse on, it answers these reports instead.
  const t = useTestApp({}, { clickhouse: false });
  beforeAll(() => t.clock.set(NOW));

  /** A site with Bob's two purchases (dated two days ago) and the person's goals, sent both ways. */
  async function seed(purchases: number) {
    const { site, key } = await siteWithKey(t, t.owner);
    const api = goalsClient(t, bearer(key));
    const tag = randomBytes(4).toString('hex');
    const vid = newVisitorId();
    const refs = Array.from({ length: purchases }, (_, i) => `ord_${tag}_${i}`);
    const twoDaysAgo = new Date(NOW.getTime() - 2 * DAY_MS).toISOString();
    await postServerEvents(
      t,
      key,
      [1, 2].map((n) => ({
        site_id: site.snippet_key,
        name: 'buy',
        timestamp: twoDaysAgo,
        properties: { plan: 'pro', order_ref: `bob_${n}` },
      })),
      1,
    );
    // The first purchase in the browser, the others from the site's server, a day earlier.
    const [first, ...others] = refs as [string, ...string[]];
    t.clock.set(NOW);
    expect(
      (await collect(t, pageview(site.snippet_key, vid, 'https://shop.example/cart'))).statusCode,
    ).toBeLessThan(300);
    const browserGoal = {
      type: 'event',
      site: site.snippet_key,
      vid,
      url: 'https://shop.example/cart',
      name: 'buy',
      props: { plan: 'pro', order_ref: first },
    };
    expect((await collect(t, browserGoal)).statusCode).toBeLessThan(300);
    await postServerEvents(
      t,
      key,
      others.map((ref) => ({
        site_id: site.snippet_key,
        name: 'buy',
        visitor_id: vid,
        timestamp: new Date(NOW.getTime() - DAY_MS).toISOString(),
        properties: { plan: 'pro', order_ref: ref },
      })),
      1,
    );
    t.clock.set(new Date(NOW.getTime() + 5 * MINUTE_MS));
    const properties = async (): Promise<PropertyRow[]> => {
      const response = await api.properties('buy', { site_id: site.snippet_key });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().properties;
    };
    return { site, vid, refs, properties };
  }

  const erase = async (siteId: string, vid: string) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/privacy/requests',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: siteId, type: 'erasure', subject: { kind: 'visitor_id', value: vid } },
    });
    expect(response.statusCode, response.body).toBe(202);
    return response.json().id as string;
  };
  const stepOf = async (id: string) =>
    (
      await t.database.db
        .selectFrom('privacy_requests')
        .select('step')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).step;
  const storedValues = async (siteId: string) =>
    (
      await t.database.db
        .selectFrom('daily_goal_properties')
        .select('value')
        .where('site_id', '=', siteId)
        .execute()
    ).map((row) => row.value);

  const bobOnly: PropertyRow[] = [
    {
      key: 'order_ref',
      values: [
        { value: 'bob_1', count: 1 },
        { value: 'bob_2', count: 1 },
      ],
    },
    { key: 'plan', values: [{ value: 'pro', count: 2 }] },
  ];

  it('removes the person’s values from the goal properties report and keeps everyone else’s', async () => {
    const { site, vid, refs, properties } = await seed(2);
    const before = await properties();
    expect(before.find((row) => row.key === 'plan')?.values).toEqual([{ value: 'pro', count: 4 }]);
    expect(before.find((row) => row.key === 'order_ref')?.values.map((v) => v.value)).toEqual(
      expect.arrayContaining(refs),
    );

    const id = await erase(site.id, vid);
    expect((await t.app.services.privacyJobs.runPrivacyOnce()).completed).toEqual([id]);

    expect(await properties()).toEqual(bobOnly);
    for (const ref of refs) expect(await storedValues(site.id)).not.toContain(ref);
  });

  it('subtracts once when a batch is repeated after a crash, and never leaves a value behind', async () => {
    const { site, vid, refs, properties } = await seed(3);
    const id = await erase(site.id, vid);
    // One row a batch: run the steps before the events, then one batch of them.
    for (let batch = 0; (await stepOf(id)) !== 'events'; batch += 1) {
      expect(batch).toBeLessThan(50);
      await t.app.services.privacyJobs.runPrivacyOnce({ batchSize: 1, maxBatches: 1, workerId: 'w1' });
    }
    const goalsLeft = async () =>
      (
        await t.database.db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('site_id', '=', site.id)
          .where('type', '=', 'event')
          .where('visitor_id', '=', vid)
          .executeTakeFirstOrThrow()
      ).n;
    while (Number(await goalsLeft()) === 3)
      await t.app.services.privacyJobs.runPrivacyOnce({ batchSize: 1, maxBatches: 1, workerId: 'w1' });
    expect(await stepOf(id)).toBe('events');
    // Each event and its values went together: the report counts the person's events left.
    const partway = await properties();
    const left = Number(await goalsLeft());
    expect(left).toBeGreaterThan(0);
    expect(partway.find((row) => row.key === 'plan')?.values).toEqual([{ value: 'pro', count: 2 + left }]);
    expect(partway.find((row) => row.key === 'order_ref')?.values).toHaveLength(2 + left);

    // As if the worker died after that batch committed but before it recorded its step, still
    // holding its lease: the next worker starts over from the first step.
    await t.database.db
      .updateTable('privacy_requests')
      .set({
        step: null,
        locked_by: 'dead-worker',
        locked_until: new Date(t.clock.now().getTime() + PRIVACY_LEASE_MS),
      })
      .where('id', '=', id)
      .execute();
    expect((await t.app.services.privacyJobs.runPrivacyOnce()).completed).toEqual([]);
    t.clock.advance(PRIVACY_LEASE_MS);
    expect(
      (await t.app.services.privacyJobs.runPrivacyOnce({ batchSize: 1, workerId: 'w2' })).completed,
    ).toEqual([id]);

    expect(await properties()).toEqual(bobOnly);
    for (const ref of refs) expect(await storedValues(site.id)).not.toContain(ref);
  });

  it('deletes the rollup rows of pages and campaign tags only the person sent, and keeps the rest', async () => {
    const { site } = await siteWithKey(t, t.owner);
    const tag = randomBytes(4).toString('hex');
    const [ada, bob] = [newVisitorId(), newVisitorId()];
    const day = '2026-03-20';
    t.clock.set(new Date(`${day}T10:00:00Z`));
    const views: [string, string][] = [
      [ada, `https://shop.example/pricing?utm_campaign=ada-${tag}`],
      [ada, `https://shop.example/orders/ada-${tag}`],
      [bob, 'https://shop.example/pricing?utm_campaign=spring'],
      [bob, 'https://shop.example/pricing'],
    ];
    for (const [vid, url] of views) {
      expect((await collect(t, pageview(site.snippet_key, vid, url))).statusCode).toBeLessThan(300);
      t.clock.advance(MINUTE_MS);
    }
    t.clock.set(new Date('2026-03-22T12:00:00Z'));
    await t.app.services.statsRollups.runOnce();
    const report = async (dimension: string) => {
      const response = await t.request({
        method: 'POST',
        url: '/v1/stats/query',
        headers: bearer(t.owner.apiKey),
        payload: {
          site_id: site.snippet_key,
          metrics: ['visitors', 'pageviews'],
          date_range: [day, day],
          dimensions: [dimension],
        },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().results as { dimensions: string[]; metrics: number[] }[];
    };
    const valuesOf = async (dimension: string) => (await report(dimension)).map((row) => row.dimensions[0]);
    expect(await valuesOf('event:page')).toContain(`/orders/ada-${tag}`);
    expect(await valuesOf('visit:utm_campaign')).toContain(`ada-${tag}`);
    const total = await report('visit:country');
    const pricingBefore = (await report('event:page')).find((row) => row.dimensions[0] === '/pricing');

    const id = await erase(site.id, ada);
    expect((await t.app.services.privacyJobs.runPrivacyOnce({ batchSize: 1 })).completed).toEqual([id]);

    expect(await valuesOf('event:page')).toEqual(['/pricing']);
    expect(await valuesOf('visit:utm_campaign')).toEqual(['spring']);
    // Pages others viewed too, and categories, keep their counts.
    expect((await report('event:page')).find((row) => row.dimensions[0] === '/pricing')).toEqual(
      pricingBefore,
    );
    expect(await report('visit:country')).toEqual(total);
    const stored = await t.database.db
      .selectFrom('stats_visit_rollups')
      .select('value')
      .where('site_id', '=', site.id)
      .execute();
    expect(JSON.stringify(stored)).not.toContain(tag);
  });
});
