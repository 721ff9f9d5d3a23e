/** Who reaches which site (interface §5): admins, members, single-site keys, other accounts, UUIDs. */
import { beforeEach, describe, expect, it } from 'vitest';
import { bearer, mintKey, type Owner, useTestApp } from '../test/app.js';
import {
  ALL_SCOPES,
  type Auth,
  addAccount,
  addOtherAccount,
  addPerson,
  addSite,
  asKey,
  asSession,
  type CreatedSite,
  postSite,
  siteUuid,
} from './sites.fixtures.js';

describe('site access', () => {
  const t = useTestApp();
  let owner: Owner;
  let site: CreatedSite;
  beforeEach(async () => {
    owner = await addAccount(t);
    site = await addSite(t, asKey(owner.apiKey), 'shop.example');
  });

  const get = (auth: Auth, ref: string) =>
    t.request({ method: 'GET', url: `/v1/sites/${ref}`, headers: auth });
  const patch = (auth: Auth, ref: string, payload: object) =>
    t.request({ method: 'PATCH', url: `/v1/sites/${ref}`, headers: auth, payload });
  const remove = (auth: Auth, ref: string, confirm = 'shop.example') =>
    t.request({
      method: 'DELETE',
      url: `/v1/sites/${ref}`,
      headers: auth,
      payload: { confirm_domain: confirm },
    });
  const restore = (auth: Auth, ref: string) =>
    t.request({ method: 'POST', url: `/v1/sites/${ref}/restore`, headers: auth });

  it('refuses site creation to a key restricted to one site, even with every scope', async () => {
    const { api_key } = await mintKey(t, owner.cookie, { scopes: ALL_SCOPES, site_id: site.site_id });
    const response = await postSite(t, asKey(api_key), { domain: 'new.example' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'forbidden' });
  });

  it('lets any member update settings but only admins create, delete and restore', async () => {
    const member = await addPerson(t, owner, 'member', 'member@example.com');
    for (const auth of [asSession(member.cookie), asKey(member.apiKey)]) {
      expect((await postSite(t, auth, { domain: 'new.example' })).json()).toMatchObject({
        error: 'forbidden',
      });
      expect((await patch(auth, site.site_id, { name: 'By a member' })).statusCode).toBe(200);
      const deletion = await remove(auth, site.site_id);
      expect(deletion.statusCode).toBe(403);
      expect(deletion.json()).toMatchObject({ error: 'forbidden' });
      expect((await restore(auth, site.site_id)).statusCode).toBe(403);
    }
    const admin = await addPerson(t, owner, 'admin', 'second-admin@example.com');
    expect((await postSite(t, asKey(admin.apiKey), { domain: 'new.example' })).statusCode).toBe(201);
  });

  it('judges a key by its creator as they are now: demoted or removed creators lose admin rights', async () => {
    const admin = await addPerson(t, owner, 'admin', 'admin2@example.com');
    const demote = await t.request({
      method: 'PATCH',
      url: `/v1/account/members/${admin.userId}`,
      headers: asSession(owner.cookie),
      payload: { role: 'member' },
    });
    expect(demote.statusCode).toBe(200);
    expect((await postSite(t, asKey(admin.apiKey), { domain: 'new.example' })).statusCode).toBe(403);
    expect((await remove(asKey(admin.apiKey), site.site_id)).statusCode).toBe(403);

    const gone = await addPerson(t, owner, 'admin', 'admin3@example.com');
    await t.request({
      method: 'DELETE',
      url: `/v1/account/members/${gone.userId}`,
      headers: asSession(owner.cookie),
    });
    expect((await postSite(t, asKey(gone.apiKey), { domain: 'new.example' })).json()).toMatchObject({
      error: 'forbidden',
    });
  });

  it('shows a single-site key only its own site', async () => {
    const second = await addSite(t, asKey(owner.apiKey), 'blog.example');
    const { api_key } = await mintKey(t, owner.cookie, { scopes: ALL_SCOPES, site_id: site.site_id });
    const list = await t.request({ method: 'GET', url: '/v1/sites', headers: bearer(api_key) });
    expect(list.json().sites.map((s: { id: string }) => s.id)).toEqual([site.site_id]);
    expect((await get(asKey(api_key), second.site_id)).statusCode).toBe(404);
    expect((await patch(asKey(api_key), second.site_id, { name: 'x' })).statusCode).toBe(404);
    expect((await remove(asKey(api_key), second.site_id, 'blog.example')).statusCode).toBe(404);
    expect((await patch(asKey(api_key), site.site_id, { name: 'Mine' })).statusCode).toBe(200);
  });

  it("answers another account's site exactly like a site that does not exist", async () => {
    const rival = await addOtherAccount(t);
    const theirs = await addSite(t, asKey(rival.apiKey), 'rival.example');
    const theirUuid = await siteUuid(t, theirs.site_id);
    const missing = await get(asKey(owner.apiKey), 'ttid_0000000000000000000000');
    expect(missing.statusCode).toBe(404);
    for (const auth of [asKey(owner.apiKey), asSession(owner.cookie)]) {
      for (const ref of [theirs.site_id, theirUuid]) {
        const read = await get(auth, ref);
        expect(read.statusCode).toBe(404);
        expect(read.json()).toEqual(missing.json());
        expect((await patch(auth, ref, { name: 'x' })).statusCode).toBe(404);
        expect((await remove(auth, ref, 'rival.example')).statusCode).toBe(404);
        expect((await restore(auth, ref)).statusCode).toBe(404);
      }
    }
    const list = await t.request({
      method: 'GET',
      url: '/v1/sites?include_deleted=true',
      headers: bearer(owner.apiKey),
    });
    expect(list.json().sites.map((s: { id: string }) => s.id)).toEqual([site.site_id]);
    expect((await get(asKey(rival.apiKey), theirs.site_id)).statusCode).toBe(200);
  });

  it('takes the internal UUID from a session only; a key presenting it gets 404', async () => {
    const uuid = await siteUuid(t, site.site_id);
    expect((await get(asKey(owner.apiKey), uuid)).statusCode).toBe(404);
    expect((await patch(asKey(owner.apiKey), uuid, { name: 'x' })).statusCode).toBe(404);
    const bySession = await get(asSession(owner.cookie), uuid.toUpperCase());
    expect(bySession.statusCode).toBe(200);
    expect(bySession.json()).toMatchObject({ id: site.site_id });
    expect((await patch(asSession(owner.cookie), uuid, { name: 'By UUID' })).json().name).toBe('By UUID');
  });

  it('never shows the internal UUID to a key', async () => {
    const uuid = await siteUuid(t, site.site_id);
    const key = asKey(owner.apiKey);
    const bodies = [
      (await t.request({ method: 'GET', url: '/v1/sites?include_deleted=true', headers: key })).body,
      (await get(key, site.site_id)).body,
      (await patch(key, site.site_id, { name: 'n' })).body,
      (await remove(key, site.site_id)).body,
      (await restore(key, site.site_id)).body,
      (await t.request({ method: 'GET', url: '/v1/account/keys', headers: key })).body,
    ];
    for (const body of bodies) expect(body).not.toContain(uuid);
  });

  it.each([
    ['GET', '/v1/sites', 'stats:read'],
    ['GET', '/v1/sites/{site}', 'stats:read'],
    ['PATCH', '/v1/sites/{site}', 'config:write'],
    ['DELETE', '/v1/sites/{site}', 'config:write'],
    ['POST', '/v1/sites/{site}/restore', 'config:write'],
  ])('%s %s answers 403 naming %s when the key lacks it', async (method, path, scope) => {
    const { api_key } = await mintKey(t, owner.cookie, { scopes: ALL_SCOPES.filter((s) => s !== scope) });
    const payload =
      method === 'PATCH' ? { name: 'x' } : method === 'DELETE' ? { confirm_domain: 'shop.example' } : {};
    const response = await t.request({
      method: method as 'GET',
      url: path.replace('{site}', site.site_id),
      headers: bearer(api_key),
      ...(method === 'GET' ? {} : { payload }),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'insufficient_scope', required_scope: scope });
  });

  it('answers 401 for a missing, malformed, unknown, revoked or expired key', async () => {
    const revoked = await mintKey(t, owner.cookie, { scopes: ['stats:read'] });
    await t.request({
      method: 'DELETE',
      url: `/v1/account/keys/${revoked.id}`,
      headers: asSession(owner.cookie),
    });
    const expiring = await mintKey(t, owner.cookie, {
      scopes: ['stats:read'],
      expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString(),
    });
    t.clock.advance(120_000);
    const headers = [
      {},
      { authorization: 'Basic abc' },
      bearer(`tk_live_${'Z'.repeat(40)}`),
      bearer(revoked.api_key),
      bearer(expiring.api_key),
    ];
    for (const header of headers) {
      const response = await t.request({ method: 'GET', url: '/v1/sites', headers: header });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'unauthorized' });
    }
  });

  it('limits reads to 120 a minute per credential, with Retry-After', async () => {
    let last = await get(asKey(owner.apiKey), site.site_id);
    for (let i = 1; i <= 120; i++) last = await get(asKey(owner.apiKey), site.site_id);
    expect(last.statusCode).toBe(429);
    expect(last.headers['retry-after']).toBeDefined();
    expect(last.json()).toMatchObject({ error: 'rate_limited' });
  });
});
