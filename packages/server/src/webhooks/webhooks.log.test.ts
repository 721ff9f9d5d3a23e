/**
 * The delivery log: newest first, the `before` cursor across deliveries created in the same
 * millisecond, `next_before` null on a page that was not full, the status filter, query
 * validation, 30-day retention, and site erasure taking endpoints and deliveries with it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../lib/clock.js';
import { deliveryRows, insertFact, useWebhookTestApp } from './webhooks.test-app.js';

interface Delivery {
  id: string;
  created_at: string;
  status: string;
  event_type: string;
}

describe('webhook delivery log', () => {
  const w = useWebhookTestApp();
  let hookId: string;
  beforeAll(async () => {
    const receiver = await w.startReceiver();
    hookId = (await w.api.add(receiver.url)).id;
    // Seven facts dispatched in one pass, at one instant of the test clock.
    for (let i = 0; i < 7; i++) await insertFact(w.t, w.siteId);
    await w.t.app.services.webhooks.runDeliveriesOnce();
  });

  const page = async (query: string) => {
    const response = await w.api.deliveries(hookId, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { deliveries: Delivery[]; next_before: string | null };
  };

  it('pages newest first with the before cursor, never skipping or repeating', async () => {
    const seen: Delivery[] = [];
    let query = 'limit=3';
    const sizes: number[] = [];
    for (;;) {
      const { deliveries, next_before } = await page(query);
      sizes.push(deliveries.length);
      seen.push(...deliveries);
      if (next_before === null) break;
      expect(next_before).toBe(deliveries.at(-1)?.created_at);
      query = `limit=3&before=${encodeURIComponent(next_before)}`;
    }
    expect(sizes).toEqual([3, 3, 2]);
    expect(new Set(seen.map((d) => d.id)).size).toBe(8);
    const times = seen.map((d) => d.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set(times).size).toBe(8);
    expect(seen.at(-1)?.event_type).toBe('webhook.ping');
    expect(seen[0]?.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('sets next_before on a full page even when nothing follows, then an empty page', async () => {
    const full = await page('limit=8');
    expect(full.deliveries).toHaveLength(8);
    expect(full.next_before).not.toBeNull();
    const after = await page(`limit=8&before=${encodeURIComponent(full.next_before ?? '')}`);
    expect(after).toEqual({ deliveries: [], next_before: null });
    expect((await page('')).deliveries).toHaveLength(8);
  });

  it('filters by status', async () => {
    expect((await page('status=succeeded')).deliveries).toHaveLength(8);
    expect(await page('status=failed')).toEqual({ deliveries: [], next_before: null });
  });

  it.each(['limit=0', 'limit=101', 'limit=ten', 'status=done', 'before=yesterday', 'sort=asc'])(
    'answers 422 validation_failed to %s',
    async (query) => {
      const response = await w.api.deliveries(hookId, query);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ error: 'validation_failed' });
    },
  );

  it('keeps deliveries 30 days, then purges them and the dispatched outbox', async () => {
    w.t.clock.advance(29 * DAY_MS);
    expect(await w.t.app.services.webhooks.purgeExpired()).toEqual({ deliveries: 0, outbox: 0 });
    w.t.clock.advance(2 * DAY_MS);
    const fresh = await insertFact(w.t, w.siteId);
    await w.t.app.services.webhooks.runDeliveriesOnce();
    expect(await w.t.app.services.webhooks.purgeExpired()).toEqual({ deliveries: 8, outbox: 7 });
    const left = await deliveryRows(w.t, hookId);
    expect(left.map((row) => row.dedupe_key)).toEqual([fresh]);
  });

  it('erases endpoints and deliveries with the site', async () => {
    const response = await w.t.request({
      method: 'DELETE',
      url: `/v1/sites/${w.site.site_id}`,
      headers: { authorization: `Bearer ${w.owner.apiKey}` },
      payload: { confirm_domain: w.site.domain },
    });
    expect(response.statusCode).toBe(200);
    w.t.clock.advance(31 * DAY_MS);
    const report = await w.t.app.services.sites.runErasureOnce();
    expect(report.erased).toEqual([w.site.site_id]);
    const db = w.t.database.db;
    expect(await db.selectFrom('webhooks').select('id').where('site_id', '=', w.siteId).execute()).toEqual(
      [],
    );
    expect(
      await db.selectFrom('webhook_deliveries').select('id').where('site_id', '=', w.siteId).execute(),
    ).toEqual([]);
  });
});
