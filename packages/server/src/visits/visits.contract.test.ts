/**
 * The contract of `GET /v1/sessions` and `GET /v1/sessions/{id}` at their edges: every bad input
 * is a 422 in the sites area's coded shape naming the field, an unknown session or a site out of
 * reach is 404, and credentials are checked as on the other report routes.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { encodeSessionCursor } from './session-cursor.js';

describe('GET /v1/sessions, contract', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  let theirs: Awaited<ReturnType<typeof insertSite>>;
  let theirSessionId: string;
  let ownSessionId: string;

  const get = (
    url: string,
    query: Record<string, string>,
    headers: Record<string, string> = bearer(t.owner.apiKey),
  ) => t.request({ method: 'GET', url, query, headers });
  const list = (query: Record<string, string>, headers?: Record<string, string>) =>
    get('/v1/sessions', { site_id: site.snippet_key, ...query }, headers);
  const sessionIdOf = async (siteKey: string, headers: Record<string, string>) => {
    const response = await get('/v1/sessions', { site_id: siteKey }, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().sessions[0].id as string;
  };

  beforeAll(async () => {
    t.clock.set(new Date('2026-06-10T12:00:00Z'));
    site = await insertSite(t, t.owner.accountId);
    const rival = await insertAccount(t);
    theirs = await insertSite(t, rival.accountId);
    for (const s of [site, theirs]) {
      const response = await collect(t, pageview(s.snippet_key, newVisitorId(), `https://${s.domain}/`));
      expect(response.statusCode).toBe(202);
    }
    ownSessionId = await sessionIdOf(site.snippet_key, bearer(t.owner.apiKey));
    // The rival's session, read straight from the table: no credential of ours reaches it.
    const visit = await t.database.db
      .selectFrom('visits')
      .select('id')
      .where('site_id', '=', theirs.id)
      .executeTakeFirstOrThrow();
    theirSessionId = visit.id;
  });

  it('answers an empty window with an empty page', async () => {
    const response = await list({ from: '2026-01-01', to: '2026-01-31' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ sessions: [], next_before: null });
  });

  it('defaults to the last 30 days, in UTC', async () => {
    const response = await list({});
    expect(response.statusCode).toBe(200);
    expect(response.json().sessions.map((s: { id: string }) => s.id)).toEqual([ownSessionId]);
    t.clock.set(new Date('2026-07-09T23:59:00Z'));
    expect((await list({})).json().sessions).toHaveLength(1);
    t.clock.set(new Date('2026-07-10T00:00:00Z'));
    expect((await list({})).json().sessions).toHaveLength(0);
    t.clock.set(new Date('2026-06-10T12:00:00Z'));
  });

  it.each([
    ['an unknown parameter', { page: '2' }, 'page'],
    ['no site', { site_id: undefined }, 'site_id'],
    ['a site that is neither a key nor a UUID', { site_id: 'example.com' }, 'site_id'],
    ['a date that does not exist', { from: '2026-02-30' }, 'from'],
    ['a date in another format', { to: '10/06/2026' }, 'to'],
    ['dates in the wrong order', { from: '2026-06-02', to: '2026-06-01' }, 'from'],
    ['a window over 365 days', { from: '2025-06-01', to: '2026-06-01' }, 'from'],
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, 'timezone'],
    ['an offset instead of a zone', { timezone: '+01:00' }, 'timezone'],
    ['filters that are not JSON', { filters: '[["is","visit:channel",["ai"]' }, 'filters'],
    ['filters that are not a list', { filters: '{"channel":"ai"}' }, 'filters'],
    ['an unknown filter dimension', { filters: '[["is","visit:planet",["mars"]]]' }, 'filters.0.1'],
    ['an unknown filter operator', { filters: '[["like","visit:channel",["ai"]]]' }, 'filters.0.0'],
    ['a filter on time', { filters: '[["is","time:day",["2026-06-01"]]]' }, 'filters.0.1'],
    ['filter values that are not strings', { filters: '[["is","visit:country",[1]]]' }, 'filters.0.2'],
    ['over-long filters', { filters: `[["is","visit:country",["${'x'.repeat(20_000)}"]]]` }, 'filters'],
    ['converted that is not a boolean', { converted: 'yes' }, 'converted'],
    ['limit 0', { limit: '0' }, 'limit'],
    ['limit over 100', { limit: '101' }, 'limit'],
    ['a fractional limit', { limit: '2.5' }, 'limit'],
    ['a cursor that is not base64url', { before: 'not a cursor!' }, 'before'],
    ['a cursor of something else', { before: Buffer.from('hello').toString('base64url') }, 'before'],
    [
      'a cursor naming no moment',
      { before: encodeSessionCursor({ startedAt: '2026-02-30T00:00:00.000000', id: randomUUID() }) },
      'before',
    ],
    ['an over-long cursor', { before: 'A'.repeat(201) }, 'before'],
  ])('answers 422 to %s', async (_name, change, field) => {
    const query: Record<string, string> = { site_id: site.snippet_key };
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined) delete query[key];
      else query[key] = value;
    }
    const response = await get('/v1/sessions', query);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it('takes a window of exactly 365 days', async () => {
    expect((await list({ from: '2025-06-11', to: '2026-06-10' })).statusCode).toBe(200);
  });

  it('answers one session, and 404 for an unknown id or another site’s session', async () => {
    const query = { site_id: site.snippet_key };
    const own = await get(`/v1/sessions/${ownSessionId}`, query);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ id: ownSessionId, pageviews: 1, trail: [{ type: 'pageview' }] });
    expect((await get(`/v1/sessions/${ownSessionId.toUpperCase()}`, query)).json().id).toBe(ownSessionId);
    for (const id of [randomUUID(), theirSessionId]) {
      const response = await get(`/v1/sessions/${id}`, query);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found' });
    }
  });

  it.each([
    ['an id that is not a UUID', '/v1/sessions/12345', { site_id: 'KEY' }, 'id'],
    ['an id over the router’s length bound', `/v1/sessions/${'a'.repeat(600)}`, { site_id: 'KEY' }, 'id'],
    ['an id that is not valid percent-encoding', '/v1/sessions/%ff', { site_id: 'KEY' }, 'id'],
    ['no site', `/v1/sessions/${randomUUID()}`, {}, 'site_id'],
    ['an unknown parameter', `/v1/sessions/${randomUUID()}`, { site_id: 'KEY', limit: '5' }, 'limit'],
  ])('answers 422 on one session to %s', async (_name, url, query, field) => {
    const named = Object.fromEntries(
      Object.entries(query).map(([key, value]) => [key, value === 'KEY' ? site.snippet_key : value]),
    );
    const response = await get(url, named);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it('answers 404 for another account’s site, and for a site UUID sent with a key', async () => {
    for (const siteId of [theirs.snippet_key, site.id]) {
      const listed = await get('/v1/sessions', { site_id: siteId });
      expect(listed.statusCode).toBe(404);
      expect(listed.json()).toMatchObject({ error: 'not_found' });
      expect((await get(`/v1/sessions/${ownSessionId}`, { site_id: siteId })).statusCode).toBe(404);
    }
    // Their session through their site key, as seen by our key: still the site's 404.
    expect((await get(`/v1/sessions/${theirSessionId}`, { site_id: theirs.snippet_key })).statusCode).toBe(
      404,
    );
  });

  it('keeps answering for a site scheduled for deletion', async () => {
    const leaving = await insertSite(t, t.owner.accountId, { deleted: true });
    const response = await get('/v1/sessions', { site_id: leaving.snippet_key });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ sessions: [], next_before: null });
  });

  it('lets a dashboard session name the site by UUID', async () => {
    const cookie = { cookie: t.owner.cookie };
    const listed = await get('/v1/sessions', { site_id: site.id }, cookie);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().sessions).toHaveLength(1);
    expect((await get(`/v1/sessions/${ownSessionId}`, { site_id: site.id }, cookie)).statusCode).toBe(200);
  });

  it('needs stats:read, and credentials', async () => {
    const noStats = await mintKey(t, t.owner.cookie, { scopes: ['ingest:write'] });
    for (const url of ['/v1/sessions', `/v1/sessions/${ownSessionId}`]) {
      const refused = await get(url, { site_id: site.snippet_key }, bearer(noStats.api_key));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'insufficient_scope', required_scope: 'stats:read' });
      const anonymous = await get(url, { site_id: site.snippet_key }, {});
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ error: 'unauthorized' });
    }
  });

  it('keeps a key restricted to another site of the account out', async () => {
    const other = await insertSite(t, t.owner.accountId);
    const restricted = await mintKey(t, t.owner.cookie, {
      scopes: ['stats:read'],
      site_id: other.snippet_key,
    });
    const response = await get('/v1/sessions', { site_id: site.snippet_key }, bearer(restricted.api_key));
    expect(response.statusCode).toBe(404);
    const one = await get(
      `/v1/sessions/${ownSessionId}`,
      { site_id: site.snippet_key },
      bearer(restricted.api_key),
    );
    expect(one.statusCode).toBe(404);
  });
});
