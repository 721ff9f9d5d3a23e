/**
 * Contract rules of the goals area and the conversion listing (interface §2.2–§2.5, §2.8, §3.2,
 * §4.1, §4.5, §5, §7.1, §7.5, §8) that the other suites leave unpinned: expired keys, members
 * (not admins) writing goals, `site_id` on every goals request, the per-address budget shared
 * with the visitors report, property keys kept as sent, the 500 bodies, and the listing's
 * `total_count` null when the daily totals cannot be read, byte limit on properties, minor
 * units, exchange-rate days, `event_names` cap and paging edges.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { arrive, convert, serverEvent } from '../attribution/attribution.fixtures.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { DAY_MS } from '../lib/clock.js';
import { visitorsClient } from '../people/visitors.fixtures.js';
import { bearer, login, mintKey, type Owner, type TestApp, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { ALL_SCOPES, goalsClient, nextAddress, postServerEvents, siteWithKey } from './goals.fixtures.js';

const NOW = new Date('2026-05-20T12:00:00Z');

const expectInvalid = (response: { statusCode: number; json(): unknown }, status: 400 | 422, field: string) =>
  expect({ status: response.statusCode, body: response.json() }).toEqual({
    status,
    body: { error: 'validation_failed', message: expect.any(String), field },
  });

/** Adds a member (not an admin) to the owner's account and signs them in. */
async function addMember(t: TestApp, owner: Owner) {
  const member = { email: `member-${nextAddress()}@example.com`, password: 'member password 1' };
  const added = await t.request({
    method: 'POST',
    url: '/v1/account/members',
    headers: { cookie: owner.cookie },
    payload: { ...member, role: 'member' },
  });
  if (added.statusCode !== 201) throw new Error(`member not added: ${added.body}`);
  return login(t, member);
}

/** One app for the file; the blocks that read dates set the clock to NOW first. */
const t = useTestApp();

describe('goals contract', () => {
  beforeAll(() => t.clock.set(NOW));

  it('requires site_id on the reports and on reorder: 422 in the query, 400 in the body', async () => {
    const { site, api } = await siteWithKey(t, t.owner);
    const goal = (await api.create({ site_id: site.snippet_key, name: 'signup' })).json().goal;
    expectInvalid(await api.timeseries({}), 422, 'site_id');
    expectInvalid(await api.properties('signup', {}), 422, 'site_id');
    expectInvalid(await api.reorder({ goal_ids: [goal.id] }), 400, 'site_id');
  });

  it('lets a member who is not an admin manage goals, by session and by key', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const memberCookie = await addMember(t, t.owner);
    const memberKey = (await mintKey(t, memberCookie, { scopes: ['config:write', 'stats:read'] })).api_key;
    for (const [api, site_id] of [
      [goalsClient(t, { cookie: memberCookie }), site.id],
      [goalsClient(t, bearer(memberKey)), site.snippet_key],
    ] as const) {
      const created = await api.create({ site_id, name: `by_${api.address.replaceAll('.', '_')}` });
      expect(created.statusCode).toBe(201);
      const id = created.json().goal.id;
      expect((await api.update(id, { site_id, emoji: '🎯' })).statusCode).toBe(200);
      expect((await api.reorder({ site_id, goal_ids: [id] })).statusCode).toBe(200);
      expect((await api.archive(id, { site_id })).statusCode).toBe(204);
      expect((await api.unarchive(id, { site_id })).statusCode).toBe(200);
    }
  });

  it('returns property keys exactly as sent, even ones that look like personal data', async () => {
    const { site, key, api } = await siteWithKey(t, t.owner);
    const site_id = site.snippet_key;
    await postServerEvents(t, key, [
      { site_id, name: 'buy', properties: { 'jane@example.com': 'plan', '+49 170 1234567': 'x' } },
    ]);
    const body = (await api.properties('buy', { site_id })).json();
    expect(body.properties).toEqual([
      { key: '+49 170 1234567', values: [{ value: 'x', count: 1 }] },
      { key: 'jane@example.com', values: [{ value: 'plan', count: 1 }] },
    ]);
  });

  it('counts the goal visitors report against the 600-a-minute budget per address of the goals endpoints', async () => {
    const address = nextAddress();
    const anonymous = goalsClient(t, {}, address);
    for (let i = 0; i < 600; i++) {
      expect((await anonymous.send('GET', '/v1/goals/signup/visitors')).statusCode).toBe(401);
    }
    const { site, key } = await siteWithKey(t, t.owner);
    const limited = await goalsClient(t, bearer(key), address).list({ site_id: site.snippet_key });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      error: 'Too Many Requests',
      statusCode: 429,
      message: expect.any(String),
    });
  });

  it('fills the entry of a direct visit with empty strings where nothing is known', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'direct.example.com' });
    const vid = newVisitorId();
    await arrive(t, site, vid, 'direct', '/start');
    await convert(t, site, vid, 'signup');
    const reader = visitorsClient(t, bearer(t.owner.apiKey));
    const body = (await reader.goalVisitors('signup', { site_id: site.snippet_key })).json();
    expect(body.visitors).toHaveLength(1);
    expect(body.visitors[0].entry).toEqual({
      ai_source: 'direct',
      source_kind: 'unknown',
      source_name: '',
      campaign: '',
      ref: '',
      url: 'https://direct.example.com/start',
    });
    expect(body.visitors[0].client_revenue).toBeNull();
    expect(body.visitors[0].revenue).toEqual({
      total_cents: 0,
      currency: 'USD',
      conversion_count: 1,
      unconverted: [],
    });
  });
});

describe('goals contract: an expired key', () => {
  it('answers 401 on every goals endpoint and on the goal visitors report', async () => {
    const { site } = await siteWithKey(t, t.owner);
    const site_id = site.snippet_key;
    const expiresAt = new Date(t.clock.now().getTime() + DAY_MS).toISOString();
    const { api_key } = await mintKey(t, t.owner.cookie, { scopes: ALL_SCOPES, expires_at: expiresAt });
    const goal = (await goalsClient(t, bearer(api_key)).create({ site_id, name: 'signup' })).json().goal;
    t.clock.advance(2 * DAY_MS);
    const api = goalsClient(t, bearer(api_key));
    for (const response of [
      await api.list({ site_id }),
      await api.create({ site_id, name: 'later' }),
      await api.update(goal.id, { site_id, emoji: '🎯' }),
      await api.reorder({ site_id, goal_ids: [goal.id] }),
      await api.archive(goal.id, { site_id }),
      await api.unarchive(goal.id, { site_id }),
      await api.timeseries({ site_id }),
      await api.properties('signup', { site_id }),
      await api.send('GET', '/v1/goals/signup/visitors', { site_id }),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: 'Unauthorized',
        statusCode: 401,
        message: expect.any(String),
      });
    }
  });
});

describe('goals and conversions contract: a failing database', () => {
  const renamed = async (table: string, run: () => Promise<void>) => {
    await t.database.db.schema.alterTable(table).renameTo(`${table}_away`).execute();
    try {
      await run();
    } finally {
      await t.database.db.schema.alterTable(`${table}_away`).renameTo(table).execute();
    }
  };

  it('answers a goals failure with 500 {error: "Internal server error", statusCode: 500}', async () => {
    const { site, api } = await siteWithKey(t, t.owner);
    await renamed('goals', async () => {
      const response = await api.list({ site_id: site.snippet_key });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: 'Internal server error', statusCode: 500 });
    });
  });

  it('answers a conversion listing failure with 500 {error: "Failed to load conversions"} and no statusCode', async () => {
    const site = await insertSite(t, t.owner.accountId);
    await renamed('events', async () => {
      const response = await t.request({
        method: 'GET',
        url: `/v1/conversions?site_id=${site.id}`,
        headers: { cookie: t.owner.cookie },
      });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: 'Failed to load conversions' });
    });
  });

  it('still lists conversions when the daily totals cannot be read: total_count null', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const id = await serverEvent(t, t.owner.apiKey, { site_id: site.snippet_key, name: 'signup' });
    await renamed('daily_goal_completions', async () => {
      const response = await t.request({
        method: 'GET',
        url: `/v1/conversions?site_id=${site.id}`,
        headers: { cookie: t.owner.cookie },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        total_count: null,
        event_names: [],
        conversions: [{ event_id: id }],
      });
    });
  });
});

describe('conversions contract', () => {
  beforeAll(() => t.clock.set(NOW));

  const list = (siteId: string, query = '', cookie = t.owner.cookie) =>
    t.request({ method: 'GET', url: `/v1/conversions?site_id=${siteId}${query}`, headers: { cookie } });

  const ok = async (siteId: string, query = '') => {
    const response = await list(siteId, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('lists at most 100 event_names, most first, while total_count counts every name', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const names = Array.from({ length: 101 }, (_, i) => `name_${String(i).padStart(3, '0')}`);
    await postServerEvents(t, t.owner.apiKey, [
      ...names.map((name) => ({ site_id: site.snippet_key, name })),
      { site_id: site.snippet_key, name: 'name_100' },
    ]);
    const body = await ok(site.id);
    expect(body.total_count).toBe(102);
    expect(body.event_names).toHaveLength(100);
    expect(body.event_names[0]).toEqual({ name: 'name_100', count: 2 });
    expect(body.event_names.slice(1).every((entry: { count: number }) => entry.count === 1)).toBe(true);
  });

  it('nulls properties over 8,192 bytes of stored JSON, counting bytes, not characters', async () => {
    const site = await insertSite(t, t.owner.accountId);
    // {"a":"é…","b":"x…"}: 15 bytes of JSON around 4,088 bytes of é and the x's.
    const at = (xs: number) => ({ a: 'é'.repeat(2044), b: 'x'.repeat(xs) });
    const fits = await serverEvent(t, t.owner.apiKey, {
      site_id: site.snippet_key,
      name: 'fits',
      properties: at(4089),
    });
    const over = await serverEvent(t, t.owner.apiKey, {
      site_id: site.snippet_key,
      name: 'over',
      properties: at(4090),
    });
    expect(Buffer.byteLength(JSON.stringify(at(4089)))).toBe(8192);
    const rows = (await ok(site.id)).conversions;
    expect(rows.find((row: { event_id: string }) => row.event_id === fits).properties).toEqual(at(4089));
    expect(rows.find((row: { event_id: string }) => row.event_id === over).properties).toBeNull();
  });

  it('gives values in whole minor units and converts at the rate of the day or the latest before it', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const post = (name: string, value: number, currency: string) =>
      serverEvent(t, t.owner.apiKey, { site_id: site.snippet_key, name, value, currency });
    const yen = await post('yen', 1000, 'JPY');
    const dinar = await post('dinar', 1.234, 'KWD');
    const euro = await post('euro', 10, 'EUR');
    await t.database.db
      .insertInto('exchange_rates')
      .values([
        { day: '2026-05-18', currency: 'JPY', per_euro: 160 },
        { day: '2026-05-18', currency: 'USD', per_euro: 1.08 },
        // A later day's rate never applies to an earlier conversion.
        { day: '2026-05-21', currency: 'JPY', per_euro: 100 },
        { day: '2026-05-21', currency: 'USD', per_euro: 2 },
      ])
      .execute();
    const rows = (await ok(site.id)).conversions as { event_id: string }[];
    const row = (id: string) => rows.find((candidate) => candidate.event_id === id);
    expect(row(yen)).toMatchObject({ value_cents: 1000, currency: 'JPY', display_value: 6.75 });
    expect(row(dinar)).toMatchObject({ value_cents: 1234, currency: 'KWD', display_value: null });
    expect(row(euro)).toMatchObject({ value_cents: 1000, currency: 'EUR', display_value: 10.8 });
  });

  it('keeps listing the conversions of a site scheduled for deletion', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const id = await serverEvent(t, t.owner.apiKey, { site_id: site.snippet_key, name: 'signup' });
    await t.database.db
      .updateTable('sites')
      .set({ deleted_at: t.clock.now() })
      .where('id', '=', site.id)
      .execute();
    const body = await ok(site.id);
    expect(body.conversions.map((row: { event_id: string }) => row.event_id)).toEqual([id]);
    expect(body.total_count).toBe(1);
  });

  it('answers a member’s session, not only an admin’s', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const memberCookie = await addMember(t, t.owner);
    const response = await list(site.id, '', memberCookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ conversions: [], total_count: 0 });
  });

  it('takes page_size up to 200 and pages up to an offset of exactly 100000', async () => {
    const site = await insertSite(t, t.owner.accountId);
    expect(await ok(site.id, '&page_size=200')).toMatchObject({ page: 1, page_size: 200, has_more: false });
    expect(await ok(site.id, '&page=501&page_size=200')).toMatchObject({ page: 501, page_size: 200 });
    const past = await list(site.id, '&page=502&page_size=200');
    expectInvalid(past, 422, 'page');
  });

  it('takes an event_name of 1 to 64 characters: 422 for an empty one', async () => {
    const site = await insertSite(t, t.owner.accountId);
    expectInvalid(await list(site.id, '&event_name='), 422, 'event_name');
    expect((await ok(site.id, `&event_name=${'x'.repeat(64)}`)).conversions).toEqual([]);
  });
});
