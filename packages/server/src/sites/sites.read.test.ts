/** Reading sites: the list, one site, and the dashboard's list with internal UUIDs. */
import { beforeAll, describe, expect, it } from 'vitest';
import { mintKey, useTestApp } from '../test/app.js';
import { addSite, asKey, asSession, type CreatedSite, siteUuid } from './sites.fixtures.js';

describe('reading sites', () => {
  const t = useTestApp();
  let first: CreatedSite;
  let second: CreatedSite;
  let scheduled: CreatedSite;
  // The cases only read, so they share one account with three sites, one scheduled for deletion.
  beforeAll(async () => {
    first = await addSite(t, asKey(t.owner.apiKey), 'www.example.co.uk', { name: 'Shop' });
    t.clock.advance(1000);
    second = await addSite(t, asKey(t.owner.apiKey), 'localhost');
    t.clock.advance(1000);
    scheduled = await addSite(t, asKey(t.owner.apiKey), 'old.example');
    const deletion = await t.request({
      method: 'DELETE',
      url: `/v1/sites/${scheduled.site_id}`,
      headers: asKey(t.owner.apiKey),
      payload: { confirm_domain: 'old.example' },
    });
    expect(deletion.statusCode).toBe(200);
  });

  const list = (query = '') =>
    t.request({ method: 'GET', url: `/v1/sites${query}`, headers: asKey(t.owner.apiKey) });
  const ids = (response: { json(): { sites: { id: string }[] } }) =>
    response.json().sites.map((site) => site.id);

  it('lists active sites newest first, each with exactly the fields of §2.4a and its retention settings', async () => {
    const response = await list();
    expect(response.statusCode).toBe(200);
    expect(ids(response)).toEqual([second.site_id, first.site_id]);
    expect(response.json().sites[1]).toEqual({
      id: first.site_id,
      name: 'Shop',
      domain: 'www.example.co.uk',
      snippet_key: first.site_id,
      region: 'us',
      attribution_model: 'last_touch',
      cookie_apex_domain: null,
      suggested_cookie_apex_domain: 'example.co.uk',
      currency: 'USD',
      created_at: first.created_at,
      verified_at: null,
      deleted_at: null,
      deletion_effective_at: null,
      events_retention_days: null,
      visits_retention_days: null,
    });
    expect(response.json().sites[0]).toMatchObject({
      domain: 'localhost',
      suggested_cookie_apex_domain: null,
    });
  });

  it('adds sites inside their deletion window with include_deleted=true, and only then', async () => {
    expect(ids(await list('?include_deleted=true'))).toEqual([
      scheduled.site_id,
      second.site_id,
      first.site_id,
    ]);
    expect(ids(await list('?include_deleted=false'))).toEqual([second.site_id, first.site_id]);
    const withDeleted = (await list('?include_deleted=true')).json().sites[0];
    expect(withDeleted.deleted_at).not.toBeNull();
    expect(withDeleted.deletion_effective_at).not.toBeNull();
  });

  it.each([
    ['yes', '?include_deleted=yes'],
    ['1', '?include_deleted=1'],
    ['TRUE', '?include_deleted=TRUE'],
    ['an empty value', '?include_deleted='],
    ['a repeated parameter', '?include_deleted=true&include_deleted=false'],
  ])('refuses include_deleted=%s with 422', async (_case, query) => {
    const response = await list(query);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field: 'include_deleted' });
  });

  it('refuses an unknown query parameter with 422 naming it', async () => {
    const response = await list('?page=2');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field: 'page' });
  });

  it('returns one site unwrapped, and 404 while it is scheduled for deletion', async () => {
    const one = await t.request({
      method: 'GET',
      url: `/v1/sites/${first.site_id}`,
      headers: asKey(t.owner.apiKey),
    });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual((await list()).json().sites[1]);
    const gone = await t.request({
      method: 'GET',
      url: `/v1/sites/${scheduled.site_id}`,
      headers: asKey(t.owner.apiKey),
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ error: 'not_found' });
  });

  it.each([
    ['a short snippet key', 'ttid_abc'],
    ['a snippet key one character long', `ttid_${'a'.repeat(23)}`],
    ['a snippet key with punctuation', `ttid_${'a'.repeat(21)}-`],
    ['a wrong prefix', `site_${'a'.repeat(22)}`],
    ['a UUID without dashes', 'e778a8b91c024a789b0b207e33bc8aad'],
    ['a domain', 'example.com'],
    ['a Unicode string', 'ttid_ünïcødé'],
    ['an over-long string', 'x'.repeat(90)],
  ])('answers 422 validation_failed for a siteId that is %s', async (_case, ref) => {
    const response = await t.request({
      method: 'GET',
      url: `/v1/sites/${encodeURIComponent(ref)}`,
      headers: asSession(t.owner.cookie),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field: 'siteId' });
  });

  it('gives the dashboard every site with its UUID, scheduled ones included', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/v1/dashboard/sites',
      headers: asSession(t.owner.cookie),
    });
    expect(response.statusCode).toBe(200);
    const sites = response.json().sites;
    expect(sites).toHaveLength(3);
    expect(sites[0]).toEqual({
      uuid: await siteUuid(t, scheduled.site_id),
      snippet_key: scheduled.site_id,
      domain: 'old.example',
      name: null,
      deleted_at: expect.any(String),
    });
    expect(sites[2]).toMatchObject({ snippet_key: first.site_id, name: 'Shop', deleted_at: null });
  });

  it('answers 401 to a key on the dashboard list, whatever its scopes', async () => {
    const { api_key } = await mintKey(t, t.owner.cookie, { scopes: ['stats:read', 'config:write'] });
    for (const key of [t.owner.apiKey, api_key]) {
      const response = await t.request({ method: 'GET', url: '/v1/dashboard/sites', headers: asKey(key) });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'unauthorized' });
    }
    expect((await t.request({ method: 'GET', url: '/v1/dashboard/sites' })).statusCode).toBe(401);
  });
});
