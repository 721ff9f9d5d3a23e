/** Scheduled deletion and restore (interface §3.1, §7.2). */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../lib/clock.js';
import { type Owner, useTestApp } from '../test/app.js';
import {
  addAccount,
  addSite,
  asKey,
  asSession,
  type CreatedSite,
  postSite,
  siteUuid,
  updateAccount,
} from './sites.fixtures.js';

const t = useTestApp();

describe('DELETE and restore', () => {
  let owner: Owner;
  let site: CreatedSite;
  beforeEach(async () => {
    owner = await addAccount(t);
    site = await addSite(t, asKey(owner.apiKey), 'shop.example');
  });

  const remove = (confirm: string, target = site) =>
    t.request({
      method: 'DELETE',
      url: `/v1/sites/${target.site_id}`,
      headers: asKey(owner.apiKey),
      payload: { confirm_domain: confirm },
    });
  const restore = (ref = site.site_id) =>
    t.request({ method: 'POST', url: `/v1/sites/${ref}/restore`, headers: asKey(owner.apiKey) });
  const read = (query = '') =>
    t.request({ method: 'GET', url: `/v1/sites/${site.site_id}${query}`, headers: asKey(owner.apiKey) });
  const listedIds = async (query = '') =>
    (await t.request({ method: 'GET', url: `/v1/sites${query}`, headers: asKey(owner.apiKey) }))
      .json()
      .sites.map((s: { id: string }) => s.id);

  it('schedules deletion 30 days out and takes the site out of reach', async () => {
    const requestedAt = t.clock.now();
    const response = await remove('shop.example');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'deletion_scheduled',
      site_id: site.site_id,
      domain: 'shop.example',
      requested_at: requestedAt.toISOString(),
      effective_at: new Date(requestedAt.getTime() + 30 * DAY_MS).toISOString(),
      window_days: 30,
    });
    expect((await read()).statusCode).toBe(404);
    const patch = await t.request({
      method: 'PATCH',
      url: `/v1/sites/${site.site_id}`,
      headers: asKey(owner.apiKey),
      payload: { name: 'x' },
    });
    expect(patch.statusCode).toBe(404);
    expect(await listedIds()).toEqual([]);
    expect(await listedIds('?include_deleted=true')).toEqual([site.site_id]);
    // Anything that resolves an active site (keys now, ingest later) stops reaching it.
    const key = await t.request({
      method: 'POST',
      url: '/v1/account/keys',
      headers: asKey(owner.apiKey),
      payload: { name: 'late', scopes: ['ingest:write'], site_id: site.site_id },
    });
    expect(key.statusCode).toBe(404);
  });

  it('reports the same deadline when asked again, without extending it', async () => {
    const first = (await remove('shop.example')).json();
    t.clock.advance(5 * DAY_MS);
    const again = await remove('SHOP.EXAMPLE');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first);
  });

  it('compares confirm_domain case-insensitively, and accepts the Unicode form of an IDN', async () => {
    expect((await remove('Shop.Example')).statusCode).toBe(200);
    const idn = await addSite(t, asKey(owner.apiKey), 'bücher.example');
    expect((await remove('BÜCHER.example', idn)).json()).toMatchObject({ domain: 'xn--bcher-kva.example' });
  });

  it('answers 409 domain_mismatch and keeps the site when confirm_domain differs', async () => {
    for (const wrong of ['shop.example.com', 'example', 'www.shop.example']) {
      const response = await remove(wrong);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ error: 'domain_mismatch' });
    }
    expect((await read()).statusCode).toBe(200);
  });

  it('frees a place under the cap while scheduled', async () => {
    await updateAccount(t, owner.accountId, { site_limit: 1 });
    expect((await postSite(t, asKey(owner.apiKey), { domain: 'blog.example' })).statusCode).toBe(403);
    await remove('shop.example');
    expect((await postSite(t, asKey(owner.apiKey), { domain: 'blog.example' })).statusCode).toBe(201);
  });

  it('restores within the window, and answers 200 without change on an active site', async () => {
    const active = await restore();
    expect(active.statusCode).toBe(200);
    expect(active.json()).toEqual({ status: 'active', site_id: site.site_id, domain: 'shop.example' });
    await remove('shop.example');
    t.clock.advance(30 * DAY_MS - 1);
    const restored = await restore();
    expect(restored.json()).toEqual({ status: 'active', site_id: site.site_id, domain: 'shop.example' });
    expect((await read()).json()).toMatchObject({ deleted_at: null, deletion_effective_at: null });
    expect(await listedIds()).toEqual([site.site_id]);
  });

  it('restores by internal UUID from a dashboard session', async () => {
    await remove('shop.example');
    const response = await t.request({
      method: 'POST',
      url: `/v1/sites/${await siteUuid(t, site.site_id)}/restore`,
      headers: asSession(owner.cookie),
    });
    expect(response.json()).toMatchObject({ status: 'active', site_id: site.site_id });
  });

  it('answers 409 deletion_in_progress once the deadline has passed, even before erasure runs', async () => {
    await remove('shop.example');
    t.clock.advance(30 * DAY_MS);
    const response = await restore();
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'deletion_in_progress' });
  });

  it('answers 409 site_limit_reached when restoring would exceed the cap', async () => {
    await updateAccount(t, owner.accountId, { site_limit: 1, plan: 'solo' });
    await remove('shop.example');
    await addSite(t, asKey(owner.apiKey), 'blog.example');
    const response = await restore();
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'site_limit_reached', plan: 'solo', site_limit: 1 });
  });

  it('answers 409 domain_taken when the domain was added again meanwhile', async () => {
    await remove('shop.example');
    await addSite(t, asKey(owner.apiKey), 'Shop.Example');
    const response = await restore();
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'domain_taken' });
  });

  it('lets only one of a restore and a re-creation of the same domain win', async () => {
    await remove('shop.example');
    const [restored, created] = await Promise.all([
      restore(),
      postSite(t, asKey(owner.apiKey), { domain: 'shop.example' }),
    ]);
    // Either may win the race: a restore then a re-creation, or a re-creation then a restore.
    const outcome = [restored.statusCode, created.statusCode];
    expect([
      [200, 409],
      [409, 201],
    ]).toContainEqual(outcome);
    const loser = outcome[0] === 409 ? restored : created;
    expect(loser.json()).toMatchObject({ error: 'domain_taken' });
    expect(await listedIds()).toHaveLength(1);
  });

  it('answers 409 account_pending_deletion on restore while the account is scheduled for deletion', async () => {
    await remove('shop.example');
    await updateAccount(t, owner.accountId, { pending_deletion_at: t.clock.now() });
    const response = await restore();
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'account_pending_deletion' });
  });
});

describe('DELETE and restore with bad input', () => {
  let site: CreatedSite;
  beforeAll(async () => {
    site = await addSite(t, asKey(t.owner.apiKey), 'shop.example');
  });

  it.each([
    ['no body at all', undefined, 'confirm_domain'],
    ['an empty object', {}, 'confirm_domain'],
    ['an empty string', { confirm_domain: '' }, 'confirm_domain'],
    ['null', { confirm_domain: null }, 'confirm_domain'],
    ['a number', { confirm_domain: 1 }, 'confirm_domain'],
    ['an over-long string', { confirm_domain: 'a'.repeat(254) }, 'confirm_domain'],
    ['an unknown field', { confirm_domain: 'shop.example', force: true }, 'force'],
  ])('answers 422 to DELETE with %s', async (_case, payload, field) => {
    const response = await t.request({
      method: 'DELETE',
      url: `/v1/sites/${site.site_id}`,
      headers: asKey(t.owner.apiKey),
      ...(payload === undefined ? {} : { payload }),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it('answers 422 to restore with a body field, and to a malformed siteId', async () => {
    const withBody = await t.request({
      method: 'POST',
      url: `/v1/sites/${site.site_id}/restore`,
      headers: asKey(t.owner.apiKey),
      payload: { force: true },
    });
    expect(withBody.json()).toMatchObject({ error: 'validation_failed', field: 'force' });
    const badId = await t.request({
      method: 'POST',
      url: '/v1/sites/shop.example/restore',
      headers: asKey(t.owner.apiKey),
    });
    expect(badId.json()).toMatchObject({ error: 'validation_failed', field: 'siteId' });
  });

  it('left the site active through all of it', async () => {
    const response = await t.request({
      method: 'GET',
      url: `/v1/sites/${site.site_id}`,
      headers: asKey(t.owner.apiKey),
    });
    expect(response.json()).toMatchObject({ deleted_at: null });
  });
});
