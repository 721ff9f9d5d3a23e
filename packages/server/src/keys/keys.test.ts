import { describe, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS } from '../lib/clock.js';
import { sha256Hex } from '../lib/secrets.js';
import { bearer, login, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';

describe('API keys', () => {
  const t = useTestApp();
  // One app for the file: each test works on keys and sites of its own.

  const listWith = (key: string) =>
    t.request({ method: 'GET', url: '/v1/account/keys', headers: bearer(key) });
  const createWith = (key: string, payload: object) =>
    t.request({ method: 'POST', url: '/v1/account/keys', headers: bearer(key), payload });

  it('creates a key shown once, stores only its hash, and lists metadata', async () => {
    const created = await createWith(t.owner.apiKey, { name: 'Reporting', scopes: ['stats:read'] });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body.api_key).toMatch(/^tk_live_[0-9A-Za-z]{40}$/);
    expect(body).toMatchObject({
      name: 'Reporting',
      scopes: ['stats:read'],
      site_id: null,
      created_by: t.owner.userId,
    });
    expect(body.prefix).toBe(body.api_key.slice(0, 12));

    const row = await t.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(sha256Hex(body.api_key));
    expect(JSON.stringify(row)).not.toContain(body.api_key);

    const list = await listWith(t.owner.apiKey);
    expect(list.statusCode).toBe(200);
    const text = list.body;
    expect(text).not.toContain(body.api_key);
    expect(text).not.toContain('key_hash');
    expect(list.json().keys.map((k: { id: string }) => k.id)).toContain(body.id);
  });

  it('never mints a key more capable than the caller', async () => {
    const weak = await mintKey(t, t.owner.cookie, { scopes: ['credentials:write', 'stats:read'] });
    const stronger = await createWith(weak.api_key, { name: 'x', scopes: ['stats:read', 'config:write'] });
    expect(stronger.statusCode).toBe(403);
    expect(stronger.json()).toMatchObject({ error: 'insufficient_scope', required_scope: 'config:write' });
    expect((await createWith(weak.api_key, { name: 'x', scopes: ['stats:read'] })).statusCode).toBe(201);
  });

  it('reports a scope the caller lacks before a site it cannot reach', async () => {
    const weak = await mintKey(t, t.owner.cookie, { scopes: ['credentials:write', 'stats:read'] });
    const rival = await insertAccount(t);
    const theirs = await insertSite(t, rival.accountId);
    const response = await createWith(weak.api_key, {
      name: 'x',
      scopes: ['config:write'],
      site_id: theirs.snippet_key,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'insufficient_scope', required_scope: 'config:write' });
  });

  it('lets a site-scoped key mint only for its own site', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const other = await insertSite(t, t.owner.accountId);
    const scoped = await mintKey(t, t.owner.cookie, {
      scopes: ['credentials:write', 'stats:read'],
      site_id: site.snippet_key,
    });

    const unrestricted = await createWith(scoped.api_key, { name: 'x', scopes: ['stats:read'] });
    expect(unrestricted.statusCode).toBe(403);
    expect(unrestricted.json()).toMatchObject({ error: 'insufficient_scope' });

    const elsewhere = await createWith(scoped.api_key, {
      name: 'x',
      scopes: ['stats:read'],
      site_id: other.snippet_key,
    });
    expect(elsewhere.statusCode).toBe(404);

    const own = await createWith(scoped.api_key, {
      name: 'x',
      scopes: ['stats:read'],
      site_id: site.snippet_key,
    });
    expect(own.statusCode).toBe(201);
    expect(own.json().site_id).toBe(site.snippet_key);

    const listed = (await listWith(scoped.api_key)).json().keys;
    expect(listed.every((k: { site_id: string }) => k.site_id === site.snippet_key)).toBe(true);
  });

  it('answers 404 for a site of another account or one scheduled for deletion', async () => {
    const rival = await insertAccount(t);
    const theirs = await insertSite(t, rival.accountId);
    const deleted = await insertSite(t, t.owner.accountId, { deleted: true });
    for (const site of [theirs, deleted]) {
      const response = await createWith(t.owner.apiKey, {
        name: 'x',
        scopes: ['stats:read'],
        site_id: site.snippet_key,
      });
      expect(response.statusCode).toBe(404);
    }
  });

  it('refuses revoked and expired keys with 401', async () => {
    const revoked = await mintKey(t, t.owner.cookie, { scopes: ['credentials:write'] });
    expect((await listWith(revoked.api_key)).statusCode).toBe(200);
    const revoke = await t.request({
      method: 'DELETE',
      url: `/v1/account/keys/${revoked.id}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(revoke.statusCode).toBe(204);
    expect(revoke.body).toBe('');
    expect((await listWith(revoked.api_key)).statusCode).toBe(401);

    const expiring = await mintKey(t, t.owner.cookie, {
      scopes: ['credentials:write'],
      expires_at: new Date(t.clock.now().getTime() + DAY_MS).toISOString(),
    });
    expect((await listWith(expiring.api_key)).statusCode).toBe(200);
    t.clock.advance(DAY_MS + 1);
    const expired = await listWith(expiring.api_key);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('updates last_used_at at most once a minute', async () => {
    const readLastUsed = async () =>
      (
        await t.database.db
          .selectFrom('api_keys')
          .select('last_used_at')
          .where('key_hash', '=', sha256Hex(t.owner.apiKey))
          .executeTakeFirstOrThrow()
      ).last_used_at;
    await listWith(t.owner.apiKey);
    const first = await readLastUsed();
    expect(first).not.toBeNull();
    t.clock.advance(30_000);
    await listWith(t.owner.apiKey);
    expect(await readLastUsed()).toEqual(first);
    t.clock.advance(MINUTE_MS);
    await listWith(t.owner.apiKey);
    expect((await readLastUsed())?.getTime()).toBeGreaterThan(first?.getTime() ?? 0);
  });

  it.each([
    [{ scopes: ['stats:read'] }, 'name'],
    [{ name: '', scopes: ['stats:read'] }, 'name'],
    [{ name: 'x', scopes: [] }, 'scopes'],
    [{ name: 'x', scopes: ['stats:write'] }, 'scopes.0'],
    [{ name: 'x', scopes: 'stats:read' }, 'scopes'],
    [{ name: 'x', scopes: ['stats:read'], site_id: 'example.com' }, 'site_id'],
    [{ name: 'x', scopes: ['stats:read'], expires_at: 'tomorrow' }, 'expires_at'],
    [{ name: 'x', scopes: ['stats:read'], expires_at: '2000-01-01T00:00:00Z' }, 'expires_at'],
    [{ name: 'x'.repeat(101), scopes: ['stats:read'] }, 'name'],
    [{ name: 'x', scopes: ['stats:read'], admin: true }, 'admin'],
  ])('answers bad bodies with 422 naming the field (%j)', async (payload, field) => {
    const response = await createWith(t.owner.apiKey, payload);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it("lets a member revoke their own keys but not someone else's", async () => {
    const member = { email: 'member@example.com', password: 'member password 1' };
    await t.request({
      method: 'POST',
      url: '/v1/account/members',
      headers: { cookie: t.owner.cookie },
      payload: { ...member, role: 'member' },
    });
    const memberCookie = await login(t, member);
    const own = await mintKey(t, memberCookie, { scopes: ['stats:read'] });
    const ownersKey = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] });
    const revoke = (id: string) =>
      t.request({ method: 'DELETE', url: `/v1/account/keys/${id}`, headers: { cookie: memberCookie } });
    expect((await revoke(ownersKey.id)).statusCode).toBe(403);
    expect((await revoke(own.id)).statusCode).toBe(204);
  });

  it('answers 404 for revoking a key of another account and 422 for a malformed id', async () => {
    const rival = await insertAccount(t);
    const rivalKey = await t.app.services.keys.mint(t.database.db, {
      accountId: rival.accountId,
      createdBy: rival.userId,
      name: 'theirs',
      scopes: ['stats:read'],
      siteId: null,
      expiresAt: null,
    });
    const foreign = await t.request({
      method: 'DELETE',
      url: `/v1/account/keys/${rivalKey.id}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(foreign.statusCode).toBe(404);
    const malformed = await t.request({
      method: 'DELETE',
      url: '/v1/account/keys/not-a-uuid',
      headers: bearer(t.owner.apiKey),
    });
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json()).toMatchObject({ error: 'validation_failed', field: 'id' });
  });
});
