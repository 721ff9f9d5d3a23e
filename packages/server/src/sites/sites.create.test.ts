import { beforeEach, describe, expect, it } from 'vitest';
import { bearer, mintKey, type Owner, useTestApp } from '../test/app.js';
import {
  addAccount,
  addOtherAccount,
  addSite,
  asKey,
  asSession,
  postSite,
  siteUuid,
  updateAccount,
} from './sites.fixtures.js';

describe('POST /v1/sites', () => {
  const t = useTestApp();
  let owner: Owner;
  beforeEach(async () => {
    owner = await addAccount(t);
  });

  it('answers 201 with exactly the fields of §4.2 and a key restricted to the new site', async () => {
    const response = await postSite(t, asKey(owner.apiKey), { domain: 'www.Example.co.uk', name: 'Shop' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      site_id: expect.stringMatching(/^ttid_[0-9A-Za-z]{22}$/),
      snippet_key: body.site_id,
      domain: 'www.example.co.uk',
      name: 'Shop',
      region: 'us',
      cookie_apex_domain: null,
      suggested_cookie_apex_domain: 'example.co.uk',
      api_key: expect.stringMatching(/^tk_live_/),
      created_at: t.clock.now().toISOString(),
    });
    expect(response.body).not.toContain(await siteUuid(t, body.site_id));

    const keys = await t.request({
      method: 'GET',
      url: '/v1/account/keys',
      headers: asSession(owner.cookie),
    });
    const siteKey = keys.json().keys.find((key: { site_id: string | null }) => key.site_id === body.site_id);
    expect(siteKey.scopes.sort()).toEqual(['ingest:write', 'stats:read']);
    expect(siteKey.created_by).toBe(owner.userId);

    const read = await t.request({
      method: 'GET',
      url: `/v1/sites/${body.site_id}`,
      headers: bearer(body.api_key),
    });
    expect(read.statusCode).toBe(200);
    const other = await addSite(t, asKey(owner.apiKey), 'other.example');
    const elsewhere = await t.request({
      method: 'GET',
      url: `/v1/sites/${other.site_id}`,
      headers: bearer(body.api_key),
    });
    expect(elsewhere.statusCode).toBe(404);
    const patch = await t.request({
      method: 'PATCH',
      url: `/v1/sites/${body.site_id}`,
      headers: bearer(body.api_key),
      payload: { name: 'x' },
    });
    expect(patch.json()).toMatchObject({ error: 'insufficient_scope', required_scope: 'config:write' });
  });

  it("defaults the region to the account's, takes an explicit one, and works from a session", async () => {
    expect((await addSite(t, asKey(owner.apiKey), 'a.example')).region).toBe('us');
    await updateAccount(t, owner.accountId, { region: 'eu' });
    expect((await addSite(t, asSession(owner.cookie), 'b.example')).region).toBe('eu');
    expect((await addSite(t, asKey(owner.apiKey), 'c.example', { region: 'us' })).region).toBe('us');
  });

  it.each([
    ['upper case', 'WWW.Example.COM', 'www.example.com', 'example.com'],
    ['an IDN (stored as punycode)', 'Bücher.example', 'xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['a Japanese IDN', '例え.テスト', 'xn--r8jz45g.xn--zckzah', 'xn--r8jz45g.xn--zckzah'],
    ['full-width characters (folded by IDNA)', 'ｅｘａｍｐｌｅ.com', 'example.com', 'example.com'],
    ['localhost', 'localhost', 'localhost', null],
    ['an IPv4 address', '192.168.1.20', '192.168.1.20', null],
    ['a private-suffix host', 'shop.github.io', 'shop.github.io', 'shop.github.io'],
    ['a bare public suffix', 'co.uk', 'co.uk', null],
  ])('accepts %s', async (_case, domain, stored, suggested) => {
    const site = await addSite(t, asKey(owner.apiKey), domain);
    expect(site).toMatchObject({ domain: stored, suggested_cookie_apex_domain: suggested });
  });

  it('takes a 60-character emoji name, trims names, and stores "" or null as no name', async () => {
    const emoji = '🦊'.repeat(60);
    expect((await addSite(t, asKey(owner.apiKey), 'a.example', { name: emoji })).name).toBe(emoji);
    expect((await addSite(t, asKey(owner.apiKey), 'b.example', { name: '  Blog  ' })).name).toBe('Blog');
    expect((await addSite(t, asKey(owner.apiKey), 'c.example', { name: '' })).name).toBeNull();
    expect((await addSite(t, asKey(owner.apiKey), 'd.example', { name: null })).name).toBeNull();
  });

  it('answers 400 for malformed JSON and 401 without a valid key', async () => {
    const malformed = await t.request({
      method: 'POST',
      url: '/v1/sites',
      headers: { ...bearer(owner.apiKey), 'content-type': 'application/json' },
      payload: '{"domain": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect((await postSite(t, {} as never, { domain: 'a.example' })).statusCode).toBe(401);
    const forged = await postSite(t, asKey(`tk_live_${'x'.repeat(40)}`), { domain: 'a.example' });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('refuses a taken domain case-insensitively, but not one another account tracks', async () => {
    await addSite(t, asKey(owner.apiKey), 'shop.example');
    const again = await postSite(t, asKey(owner.apiKey), { domain: 'SHOP.example' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'domain_taken' });
    const rival = await addOtherAccount(t);
    expect((await postSite(t, asKey(rival.apiKey), { domain: 'shop.example' })).statusCode).toBe(201);
  });

  it('lets exactly one of two concurrent creations of one domain win', async () => {
    const results = await Promise.all([
      postSite(t, asKey(owner.apiKey), { domain: 'race.example' }),
      postSite(t, asSession(owner.cookie), { domain: 'Race.Example' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('enforces the cap on active sites with 403 site_limit_reached naming plan and limit', async () => {
    await updateAccount(t, owner.accountId, { site_limit: 2, plan: 'starter' });
    const results = await Promise.all(
      ['a.example', 'b.example', 'c.example'].map((domain) => postSite(t, asKey(owner.apiKey), { domain })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 403]);
    const refused = results.find((r) => r.statusCode === 403);
    expect(refused?.json()).toEqual({
      error: 'site_limit_reached',
      message: expect.any(String),
      plan: 'starter',
      site_limit: 2,
    });
  });

  it('answers 409 account_pending_deletion while the account is scheduled for deletion', async () => {
    await updateAccount(t, owner.accountId, { pending_deletion_at: t.clock.now() });
    const response = await postSite(t, asKey(owner.apiKey), { domain: 'a.example' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'account_pending_deletion' });
  });

  it.each([['credentials:write'], ['stats:read'], ['ingest:write']])(
    'answers 403 naming %s when the key lacks it',
    async (missing) => {
      const scopes = ['stats:read', 'config:write', 'credentials:write', 'ingest:write'].filter(
        (s) => s !== missing,
      );
      const { api_key } = await mintKey(t, owner.cookie, { scopes });
      const response = await postSite(t, asKey(api_key), { domain: 'a.example' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ error: 'insufficient_scope', required_scope: missing });
    },
  );
});

describe('POST /v1/sites with bad input', () => {
  // Nothing here is created, so the cases share one app.
  const t = useTestApp();

  it.each([
    ['a scheme', 'https://example.com'],
    ['a path', 'example.com/shop'],
    ['a trailing slash', 'example.com/'],
    ['a port', 'example.com:8080'],
    ['credentials', 'user:pass@example.com'],
    ['a space', 'exa mple.com'],
    ['surrounding spaces', ' example.com '],
    ['a query', 'example.com?a=1'],
    ['an underscore', 'my_site.example'],
    ['a leading hyphen', '-shop.example'],
    ['an empty label', 'shop..example'],
    ['a trailing dot', 'example.com.'],
    ['a numeric last label', '10.0.0'],
    ['a bad punycode label', 'xn--zz.example'],
    ['a label over 63 characters', `${'a'.repeat(64)}.example`],
    ['an empty string', ''],
    ['an over-long string', `${'a.'.repeat(127)}com`],
    ['a number', 42],
    ['null', null],
    ['an array', ['example.com']],
  ])('refuses a domain with %s: 422 naming domain', async (_case, domain) => {
    const response = await postSite(t, asKey(t.owner.apiKey), { domain });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      error: 'validation_failed',
      field: 'domain',
      message: expect.any(String),
    });
  });

  it.each([
    ['a missing domain', { name: 'x' }, 'domain'],
    ['an unknown field', { domain: 'a.example', plan: 'pro' }, 'plan'],
    ['a name over 60 characters', { domain: 'a.example', name: 'n'.repeat(61) }, 'name'],
    ['a name of the wrong type', { domain: 'a.example', name: 5 }, 'name'],
    ['a name with a control character', { domain: 'a.example', name: 'a\u0007b' }, 'name'],
    ['an unknown region', { domain: 'a.example', region: 'ap' }, 'region'],
    ['an upper-case region', { domain: 'a.example', region: 'EU' }, 'region'],
  ])('refuses %s with 422 naming the field', async (_case, payload, field) => {
    const response = await postSite(t, asKey(t.owner.apiKey), payload);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it('creates nothing for any of them', async () => {
    expect(await t.database.db.selectFrom('sites').select('id').execute()).toEqual([]);
  });
});
