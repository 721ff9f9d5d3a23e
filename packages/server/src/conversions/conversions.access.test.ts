import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';

describe('GET /v1/conversions: access and parameters', () => {
  const t = useTestApp();
  let siteId: string;
  let snippetKey: string;
  beforeAll(async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'access.example.com' });
    siteId = site.id;
    snippetKey = site.snippet_key;
  });

  const list = (query: string, headers: Record<string, string> = { cookie: t.owner.cookie }) =>
    t.request({ method: 'GET', url: `/v1/conversions?${query}`, headers });

  it('answers an empty page to the owner’s session', async () => {
    const response = await list(`site_id=${siteId}`);
    expect(response.statusCode).toBe(200);
    // Whatever rates this database holds: rates/rates-freshness.test.ts pins these two.
    const { rates_as_of: _asOf, rates_stale: _stale, ...page } = response.json();
    expect(page).toEqual({
      conversions: [],
      page: 1,
      page_size: 50,
      has_more: false,
      total_count: 0,
      event_names: [],
      display_currency: 'USD',
    });
  });

  it('refuses an API key with 401 whatever its scopes, and a request without a session', async () => {
    const credentials: Record<string, string>[] = [
      bearer(t.owner.apiKey),
      {},
      { cookie: 'tt_session=forged' },
    ];
    for (const headers of credentials) {
      const response = await list(`site_id=${siteId}`, headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Unauthorized', statusCode: 401 });
    }
  });

  it('answers 403 Forbidden for a site of another account and for an unknown site', async () => {
    const rival = await insertAccount(t);
    const theirs = await insertSite(t, rival.accountId);
    for (const id of [theirs.id, randomUUID()]) {
      const response = await list(`site_id=${id}`);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'Forbidden', statusCode: 403 });
    }
  });

  it.each([
    ['a snippet key instead of the UUID', () => `site_id=${snippetKey}`, 'site_id'],
    ['no site', () => '', 'site_id'],
    ['an unknown parameter', () => `site_id=${siteId}&limit=5`, 'limit'],
    ['a bad day', () => `site_id=${siteId}&from=2026-02-30`, 'from'],
    ['from after to', () => `site_id=${siteId}&from=2026-03-02&to=2026-03-01`, 'from'],
    ['a bad model', () => `site_id=${siteId}&attribution_model=u_shaped`, 'attribution_model'],
    ['page_size 0', () => `site_id=${siteId}&page_size=0`, 'page_size'],
    ['page_size 201', () => `site_id=${siteId}&page_size=201`, 'page_size'],
    ['a fractional page', () => `site_id=${siteId}&page=1.5`, 'page'],
    ['page 0', () => `site_id=${siteId}&page=0`, 'page'],
    [
      'an event name over 64 characters',
      () => `site_id=${siteId}&event_name=${'x'.repeat(65)}`,
      'event_name',
    ],
    ['a page past the offset ceiling', () => `site_id=${siteId}&page=2002&page_size=50`, 'page'],
  ])('answers 422 to %s', async (_name, query, field) => {
    const response = await list(query());
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
    expect(typeof response.json().message).toBe('string');
  });

  it('allows the last page under the offset ceiling', async () => {
    const response = await list(`site_id=${siteId}&page=2001&page_size=50`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ page: 2001, page_size: 50, has_more: false });
  });
});
