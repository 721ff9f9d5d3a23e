/**
 * The contract of `GET /v1/visitors` at its edges, on a small hand-made history: the answer's
 * shape and defaults, the cursor (opaque, bound to its site and sort, a 422 on `before` when
 * malformed), visits overlapping the window's start, every bad parameter a 422 in the sites
 * area's coded shape naming it, a site out of reach 404, a key without stats:read 403.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId } from '../ingest/ingest.fixtures.js';
import { MINUTE_MS } from '../lib/clock.js';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';

const HOST = 'people.example.com';

describe('GET /v1/visitors, contract', () => {
  const t = useTestApp({ INGEST_RATE_LIMIT: '0' });
  let site: { id: string; snippet_key: string };
  let other: { id: string; snippet_key: string };
  /** Five browsers, one a day from 2026-07-01; the third stays from 23:50 until past midnight. */
  const browsers = Array.from({ length: 5 }, () => newVisitorId());

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: HOST });
    other = await insertSite(t, t.owner.accountId, { domain: 'other.example.com' });
    for (const [day, vid] of browsers.entries()) {
      t.clock.set(new Date(Date.parse('2026-07-01T23:50:00Z') + day * 86_400_000));
      await collect(t, { type: 'pageview', site: site.snippet_key, vid, url: `https://${HOST}/` });
      if (day === 2) {
        t.clock.advance(20 * MINUTE_MS);
        await collect(t, { type: 'pageview', site: site.snippet_key, vid, url: `https://${HOST}/next` });
      }
    }
    await collect(t, {
      type: 'pageview',
      site: other.snippet_key,
      vid: browsers[0] as string,
      url: 'https://other.example.com/',
    });
    t.clock.set(new Date('2026-07-20T12:00:00Z'));
  });

  const keyWith = async (scopes: string[]) => bearer((await mintKey(t, t.owner.cookie, { scopes })).api_key);
  const list = async (query: Record<string, string>, headers?: Record<string, string>) =>
    t.request({
      method: 'GET',
      url: '/v1/visitors',
      headers: headers ?? (await keyWith(['stats:read'])),
      query,
    });
  const JULY = { from: '2026-07-01', to: '2026-07-31' };

  it('answers every person with a visit in the last 30 days by default, newest first', async () => {
    const response = await list({ site_id: site.snippet_key });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      from: '2026-06-21',
      to: '2026-07-20',
      next_before: null,
      identity_merge_complete: true,
    });
    expect(body.visitors).toHaveLength(5);
    const lastSeen = body.visitors.map((row: { last_seen: string }) => row.last_seen);
    expect(lastSeen).toEqual([...lastSeen].sort().reverse());
    expect(body.visitors[0]).toMatchObject({
      handle: expect.stringMatching(/^vh_/),
      session_count: 1,
      pageviews: 1,
      is_new: true,
      entry: { url: `https://${HOST}/` },
      revenue: { total_cents: 0, currency: 'USD', conversion_count: 0 },
      client_revenue: null,
      latest_session_id: expect.any(String),
    });
  });

  it('pages with an opaque cursor that works only for its own site and sort', async () => {
    const headers = await keyWith(['stats:read']);
    const first = (await list({ site_id: site.snippet_key, ...JULY, limit: '2' }, headers)).json();
    expect(first.visitors).toHaveLength(2);
    expect(first.next_before).toMatch(/^[A-Za-z0-9_-]+$/);
    // Neither a visitor id nor anything else readable is in the cursor.
    for (const vid of browsers)
      expect(Buffer.from(first.next_before, 'base64url').toString('latin1')).not.toContain(vid);
    const second = (
      await list({ site_id: site.snippet_key, ...JULY, limit: '2', before: first.next_before }, headers)
    ).json();
    const third = (
      await list({ site_id: site.snippet_key, ...JULY, limit: '2', before: second.next_before }, headers)
    ).json();
    expect(third.visitors).toHaveLength(1);
    expect(third.next_before).toBeNull();
    const handles = [first, second, third].flatMap((page) =>
      page.visitors.map((row: { handle: string }) => row.handle),
    );
    expect(new Set(handles).size).toBe(5);
    // A full last page says so: no cursor to a page that would be empty.
    const all = (await list({ site_id: site.snippet_key, ...JULY, limit: '5' }, headers)).json();
    expect(all).toMatchObject({ next_before: null });

    const elsewhere = await list({ site_id: other.snippet_key, before: first.next_before }, headers);
    const otherSort = await list(
      { site_id: site.snippet_key, sort: 'visits', before: first.next_before },
      headers,
    );
    for (const response of [elsewhere, otherSort]) {
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ error: 'validation_failed', field: 'before' });
    }
  });

  it('lists a visit that began the evening before the window and went on past midnight', async () => {
    const response = await list({ site_id: site.snippet_key, from: '2026-07-04', to: '2026-07-04' });
    // The fourth browser came at 23:50 that day; the third, still there from the evening before, last.
    expect(response.json().visitors).toMatchObject([
      { session_count: 1, pageviews: 1, last_seen: '2026-07-04T23:50:00.000Z' },
      { session_count: 1, pageviews: 2, last_seen: '2026-07-04T00:10:00.000Z' },
    ]);
  });

  it('filters on what happened during a visit too: a page viewed', async () => {
    const response = await list({
      site_id: site.snippet_key,
      ...JULY,
      filters: '[["is","event:page",["/next"]]]',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().visitors).toMatchObject([{ session_count: 1, pageviews: 2 }]);
  });

  it('answers an empty page for a window without visits, and for a filter nobody matches', async () => {
    for (const query of [
      { site_id: site.snippet_key, from: '2026-06-01', to: '2026-06-30' },
      { site_id: site.snippet_key, ...JULY, filters: '[["is","visit:channel",["ai"]]]', sort: 'revenue' },
    ]) {
      const response = await list(query);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        visitors: [],
        next_before: null,
        identity_merge_complete: true,
      });
    }
  });

  const cursorOf = async () =>
    (await list({ site_id: site.snippet_key, ...JULY, limit: '1' })).json().next_before as string;
  const flip = (text: string) => `${text.slice(0, 10)}${text[10] === 'A' ? 'B' : 'A'}${text.slice(11)}`;

  it.each([
    ['an unknown parameter', { page: '2' }, 'page'],
    ['an unknown sort', { sort: 'name' }, 'sort'],
    ['an ascending sort', { sort: '-visits' }, 'sort'],
    ['limit 0', { limit: '0' }, 'limit'],
    ['limit 101', { limit: '101' }, 'limit'],
    ['limit in words', { limit: 'ten' }, 'limit'],
    ['filters that are not JSON', { filters: 'channel=ai' }, 'filters'],
    ['filters that are not a list', { filters: '{"channel":"ai"}' }, 'filters'],
    [
      'more than 50 filters',
      { filters: JSON.stringify(Array(51).fill(['is', 'visit:country', ['DE']])) },
      'filters',
    ],
    ['over-long filters', { filters: 'x'.repeat(20_001) }, 'filters'],
    ['an unknown filter operator', { filters: '[["like","visit:channel",["ai"]]]' }, 'filters.0.0'],
    ['an unknown filter dimension', { filters: '[["is","visit:planet",["mars"]]]' }, 'filters.0.1'],
    ['filter values that are not strings', { filters: '[["is","visit:country",[1]]]' }, 'filters.0.2'],
    ['a cursor that is not base64url', { before: 'not a cursor!' }, 'before'],
    ['a cursor of the right alphabet but not ours', { before: 'A'.repeat(60) }, 'before'],
    ['an over-long cursor', { before: 'A'.repeat(401) }, 'before'],
    ['from not a date', { from: 'yesterday' }, 'from'],
    ['a day that does not exist', { to: '2026-02-30' }, 'to'],
    ['to with a time', { to: '2026-07-01T00:00:00Z' }, 'to'],
    ['from after to', { from: '2026-07-10', to: '2026-07-09' }, 'from'],
    ['a 366-day span', { from: '2025-07-01', to: '2026-07-01' }, 'from'],
    ['a site_id of the wrong shape', { site_id: 'site-1' }, 'site_id'],
  ])('answers 422 to %s', async (_name, query, field) => {
    const response = await list({ site_id: site.snippet_key, ...query });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ error: 'validation_failed', message: expect.any(String), field });
  });

  it('answers 422 to a cursor altered by one character, and to a missing site_id', async () => {
    const tampered = await list({
      site_id: site.snippet_key,
      ...JULY,
      limit: '1',
      before: flip(await cursorOf()),
    });
    expect(tampered.statusCode).toBe(422);
    expect(tampered.json()).toMatchObject({ field: 'before' });
    const missing = await list({});
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ error: 'validation_failed', field: 'site_id' });
  });

  it('accepts a 365-day span and the edges of limit', async () => {
    const queries: Record<string, string>[] = [
      { from: '2025-07-02', to: '2026-07-01' },
      { limit: '1' },
      { limit: '100' },
    ];
    for (const query of queries) {
      const response = await list({ site_id: site.snippet_key, ...query });
      expect(response.statusCode, JSON.stringify(query)).toBe(200);
    }
  });

  it('answers 401 without a credential and 403 naming stats:read to a key without it', async () => {
    const anonymous = await list({ site_id: site.snippet_key }, {});
    expect(anonymous.statusCode).toBe(401);
    const weak = await list({ site_id: site.snippet_key }, await keyWith(['ingest:write', 'config:write']));
    expect(weak.statusCode).toBe(403);
    expect(weak.json()).toMatchObject({ error: 'insufficient_scope', required_scope: 'stats:read' });
  });

  it('answers 404 for another account’s site and for a UUID sent with a key; a session may use the UUID', async () => {
    const rival = await insertAccount(t);
    const foreign = await insertSite(t, rival.accountId, { domain: 'rival.example.com' });
    for (const siteId of [foreign.snippet_key, 'ttid_0000000000000000000000', site.id]) {
      const response = await list({ site_id: siteId });
      expect(response.statusCode, siteId).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found' });
    }
    const bySession = await list({ site_id: site.id, ...JULY }, { cookie: t.owner.cookie });
    expect(bySession.statusCode).toBe(200);
    expect(bySession.json().visitors).toHaveLength(5);
  });

  it('leaves the profile route to handles: /v1/visitors/{handle} still answers a handle', async () => {
    const { visitors } = (await list({ site_id: site.snippet_key, ...JULY, limit: '1' })).json();
    const profile = await t.request({
      method: 'GET',
      url: `/v1/visitors/${visitors[0].handle}`,
      headers: await keyWith(['stats:read']),
      query: JULY,
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ handle: visitors[0].handle, session_count: 1 });
  });
});
