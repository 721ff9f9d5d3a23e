/**
 * The contract of `GET /v1/events` and `GET /v1/events/names` at their edges: every bad
 * parameter is a 422 in the sites area's coded shape naming it, a site out of reach is 404,
 * credentials are checked as on the other report routes, and an empty site answers empty.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createHandleCodec } from '../people/visitor-handles.js';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { encodeCursor } from './event-cursor.js';
import { eventsQueryExample } from './events.schemas.js';

describe('GET /v1/events and /v1/events/names, contract', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId);
    t.clock.set(new Date('2026-03-12T12:00:00Z'));
  });

  const get = (
    path: string,
    params: Record<string, string>,
    headers: Record<string, string> = bearer(t.owner.apiKey),
  ) => t.request({ method: 'GET', url: `${path}?${new URLSearchParams(params)}`, headers });
  const events = (params: Record<string, string>, headers?: Record<string, string>) =>
    get('/v1/events', { site_id: site.snippet_key, ...params }, headers);
  const names = (params: Record<string, string>, headers?: Record<string, string>) =>
    get('/v1/events/names', { site_id: site.snippet_key, ...params }, headers);

  it('answers an empty site with empty lists', async () => {
    const response = await events({});
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ events: [], next_before: null });
    expect((await names({})).json()).toEqual({ names: [] });
  });

  it('answers the request the OpenAPI document shows', async () => {
    const response = await events({ ...eventsQueryExample, site_id: site.snippet_key });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('takes a window of exactly 365 days, and a cursor from any instant', async () => {
    const year = await events({ from: '2025-03-13', to: '2026-03-12' });
    expect(year.statusCode).toBe(200);
    const cursor = encodeCursor({ at: '2026-03-01T00:00:00.000001Z', eventId: 'x' });
    expect((await events({ before: cursor })).statusCode).toBe(200);
  });

  const validHandle = () =>
    createHandleCodec(t.config.secretKey as string).encode({ siteId: site.id, visitId: site.id });
  const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it.each([
    ['an unknown parameter', { page: '2' }, 'page'],
    ['no site', { site_id: '' }, 'site_id'],
    ['a site that is neither key nor UUID', { site_id: 'example.com' }, 'site_id'],
    ['a date that does not exist', { from: '2026-02-30' }, 'from'],
    ['a date in another format', { to: '12/03/2026' }, 'to'],
    ['dates in the wrong order', { from: '2026-03-10', to: '2026-03-01' }, 'from'],
    ['a window over 365 days', { from: '2025-03-12', to: '2026-03-12' }, 'from'],
    ['an unknown time zone', { timezone: 'Mars/Olympus' }, 'timezone'],
    ['an offset instead of a zone', { timezone: '+01:00' }, 'timezone'],
    ['an unknown type', { type: 'engagement' }, 'type'],
    ['a name over 64 characters', { name: 'a'.repeat(65) }, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a session that is not a UUID', { session: 'visit-1' }, 'session'],
    ['a visitor that is not a handle', { visitor: 'vh_nothing' }, 'visitor'],
    ['a tampered handle', { visitor: 'tampered' }, 'visitor'],
    ['an over-long visitor', { visitor: `vh_${'a'.repeat(120)}` }, 'visitor'],
    ['an unknown source', { source: 'myspace' }, 'source'],
    ['a source in capitals', { source: 'AI' }, 'source'],
    ['filters that are not JSON', { filters: '[["is",' }, 'filters'],
    ['filters that are not a list', { filters: '{"is":"ai"}' }, 'filters'],
    ['an unknown filter operator', { filters: '[["like","visit:channel",["ai"]]]' }, 'filters.0.0'],
    ['an unknown filter dimension', { filters: '[["is","visit:planet",["mars"]]]' }, 'filters.0.1'],
    [
      'a filter on the event rather than the session',
      { filters: '[["is","event:page",["/"]]]' },
      'filters.0',
    ],
    ['over-long filters', { filters: `[${'["is","visit:country",["DE"]],'.repeat(300)}]` }, 'filters'],
    ['limit 0', { limit: '0' }, 'limit'],
    ['limit over 100', { limit: '101' }, 'limit'],
    ['a fractional limit', { limit: '2.5' }, 'limit'],
    ['a cursor that is not base64url', { before: 'not a cursor!' }, 'before'],
    ['a cursor that is not JSON', { before: Buffer.from('nope').toString('base64url') }, 'before'],
    ['a cursor of the wrong shape', { before: cursorOf({ at: 1 }) }, 'before'],
    ['a cursor with a bad time', { before: cursorOf(['2026-02-30T00:00:00.000000Z', 'x']) }, 'before'],
    ['a cursor in year 0', { before: cursorOf(['0000-01-01T00:00:00.000000Z', 'x']) }, 'before'],
    ['a cursor with no id', { before: cursorOf(['2026-03-01T00:00:00.000000Z', '']) }, 'before'],
    ['an over-long cursor', { before: 'A'.repeat(401) }, 'before'],
  ])('GET /v1/events answers 422 to %s', async (_name, params, field) => {
    const response = await events(params as Record<string, string>);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it.each([
    ['an unknown parameter', { name: 'signup' }, 'name'],
    ['pageview as a type', { type: 'pageview' }, 'type'],
    ['a window over 365 days', { from: '2024-01-01', to: '2026-01-01' }, 'from'],
    ['an unknown time zone', { timezone: 'Nowhere/Town' }, 'timezone'],
  ])('GET /v1/events/names answers 422 to %s', async (_name, params, field) => {
    const response = await names(params as Record<string, string>);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it('finds nothing for a valid handle of no visit', async () => {
    const response = await events({ visitor: validHandle() });
    expect(response.json()).toEqual({ events: [], next_before: null });
  });

  it('answers 404 for another account’s site, and for a site UUID sent with a key', async () => {
    const rival = await insertAccount(t);
    const theirs = await insertSite(t, rival.accountId);
    for (const request of [events, names]) {
      const response = await request({ site_id: theirs.snippet_key });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found' });
      expect((await request({ site_id: site.id })).statusCode).toBe(404);
    }
  });

  it('lets a dashboard session name the site by UUID', async () => {
    const session = { cookie: t.owner.cookie };
    expect((await events({ site_id: site.id }, session)).statusCode).toBe(200);
    expect((await names({ site_id: site.id }, session)).statusCode).toBe(200);
  });

  it('needs stats:read, and credentials', async () => {
    const noStats = await mintKey(t, t.owner.cookie, { scopes: ['ingest:write'] });
    for (const request of [events, names]) {
      const refused = await request({}, bearer(noStats.api_key));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'insufficient_scope', required_scope: 'stats:read' });
      const anonymous = await request({}, {});
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ error: 'unauthorized' });
    }
  });
});
