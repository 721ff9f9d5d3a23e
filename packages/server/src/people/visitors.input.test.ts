/**
 * What the visitor reports refuse, in the goals area's shapes (§7.1): malformed query strings and
 * path parameters (422 naming the field), missing or weak credentials (401, 403 naming
 * stats:read) and sites out of reach (404). The read budget is in visitors.limits.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { visitorsClient } from './visitors.fixtures.js';

describe('visitor reports: refused input and access', () => {
  const t = useTestApp();
  let site: { id: string; snippet_key: string };
  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'input.example.com' });
    t.clock.set(new Date('2026-06-15T12:00:00Z'));
  });

  const keyWith = async (scopes: string[]) => (await mintKey(t, t.owner.cookie, { scopes })).api_key;
  const reader = async () => visitorsClient(t, bearer(await keyWith(['stats:read'])));

  const BAD_QUERIES: [string, Record<string, string>, string][] = [
    ['page not a number', { page: 'two' }, 'page'],
    ['page 0', { page: '0' }, 'page'],
    ['page negative', { page: '-1' }, 'page'],
    ['page a fraction', { page: '1.5' }, 'page'],
    ['page empty', { page: '' }, 'page'],
    ['page_size 0', { page_size: '0' }, 'page_size'],
    ['page_size 101', { page_size: '101' }, 'page_size'],
    ['page_size in words', { page_size: 'ten' }, 'page_size'],
    ['page_size in exponent form', { page_size: '1e2' }, 'page_size'],
    ['from not a date', { from: 'yesterday' }, 'from'],
    ['from a day that does not exist', { from: '2026-02-30' }, 'from'],
    ['to with a time', { to: '2026-06-01T00:00:00Z' }, 'to'],
    ['to month 13', { to: '2026-13-01' }, 'to'],
    ['from after to', { from: '2026-06-10', to: '2026-06-09' }, 'from'],
    ['a 366-day span', { from: '2025-06-01', to: '2026-06-01' }, 'from'],
    ['an unknown parameter', { limit: '10' }, 'limit'],
    ['a site_id of the wrong shape', { site_id: 'site-1' }, 'site_id'],
  ];

  it.each(BAD_QUERIES)('answers 422 to %s', async (_name, query, field) => {
    const response = await (await reader()).goalVisitors('signup', { site_id: site.snippet_key, ...query });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ error: 'validation_failed', message: expect.any(String), field });
  });

  it('answers 422 to a missing site_id, a malformed goal name and a repeated parameter', async () => {
    const client = await reader();
    const missing = await client.goalVisitors('signup', {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ error: 'validation_failed', field: 'site_id' });
    const badName = await client.goalVisitors('Sign-Up', { site_id: site.snippet_key });
    expect(badName.statusCode).toBe(422);
    expect(badName.json()).toMatchObject({ error: 'validation_failed', field: 'name' });
    const repeated = await t.request({
      method: 'GET',
      url: `/v1/goals/signup/visitors?site_id=${site.snippet_key}&page=1&page=2`,
      headers: bearer(await keyWith(['stats:read'])),
    });
    expect(repeated.statusCode).toBe(422);
    expect(repeated.json()).toMatchObject({ error: 'validation_failed', field: 'page' });
  });

  it('accepts a 365-day span and the edges of page_size', async () => {
    const client = await reader();
    const queries: Record<string, string>[] = [
      { from: '2025-06-02', to: '2026-06-01' },
      { page_size: '1' },
      { page_size: '100' },
    ];
    for (const query of queries) {
      const response = await client.goalVisitors('signup', { site_id: site.snippet_key, ...query });
      expect(response.statusCode, JSON.stringify(query)).toBe(200);
    }
  });

  it('answers 422 to a malformed window on the profile', async () => {
    const response = await (await reader()).profile('vh_nothing', { from: 'soon' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field: 'from' });
  });

  for (const [name, call] of [
    [
      'the goal visitors list',
      (c: ReturnType<typeof visitorsClient>, siteId: string) => c.goalVisitors('signup', { site_id: siteId }),
    ],
    ['a visitor profile', (c: ReturnType<typeof visitorsClient>) => c.profile('vh_AAAA')],
  ] as const) {
    it(`answers 401 without a credential and 403 naming stats:read on ${name}`, async () => {
      const anonymous = await call(visitorsClient(t, {}), site.snippet_key);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ error: 'Unauthorized', statusCode: 401 });
      const forged = await call(visitorsClient(t, bearer(`tk_live_${'x'.repeat(40)}`)), site.snippet_key);
      expect(forged.statusCode).toBe(401);
      const writer = visitorsClient(t, bearer(await keyWith(['ingest:write', 'config:write'])));
      const weak = await call(writer, site.snippet_key);
      expect(weak.statusCode).toBe(403);
      expect(weak.json()).toMatchObject({
        error: 'insufficient_scope',
        statusCode: 403,
        required_scope: 'stats:read',
      });
    });
  }

  it('answers 404 for a site out of reach, and for a UUID sent with a key', async () => {
    const rival = await insertAccount(t);
    const foreign = await insertSite(t, rival.accountId, { domain: 'rival.example.com' });
    const client = await reader();
    for (const siteId of [foreign.snippet_key, 'ttid_0000000000000000000000', site.id]) {
      const response = await client.goalVisitors('signup', { site_id: siteId });
      expect(response.statusCode, siteId).toBe(404);
      expect(response.json()).toEqual({ error: 'Not found', statusCode: 404 });
    }
    // A dashboard session may name its own site by UUID.
    const bySession = await visitorsClient(t, { cookie: t.owner.cookie }).goalVisitors('signup', {
      site_id: site.id,
    });
    expect(bySession.statusCode).toBe(200);
  });
});
