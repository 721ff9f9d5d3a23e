/** PATCH /v1/sites/{siteId}: the per-site retention settings, in every site answer. */
import { beforeAll, describe, expect, it } from 'vitest';
import { login, useTestApp } from '../test/app.js';
import { addSite, asKey, asSession, type CreatedSite } from './sites.fixtures.js';

describe('site retention settings', () => {
  const t = useTestApp();
  let site: CreatedSite;
  beforeAll(async () => {
    site = await addSite(t, asKey(t.owner.apiKey), 'kurz.bücher.example');
  });

  const patch = (payload: unknown) =>
    t.request({
      method: 'PATCH',
      url: `/v1/sites/${site.site_id}`,
      headers: asKey(t.owner.apiKey),
      payload: payload as object,
    });
  const read = async () =>
    (
      await t.request({ method: 'GET', url: `/v1/sites/${site.site_id}`, headers: asKey(t.owner.apiKey) })
    ).json();
  const listed = async () =>
    (await t.request({ method: 'GET', url: '/v1/sites', headers: asKey(t.owner.apiKey) }))
      .json()
      .sites.find((entry: { id: string }) => entry.id === site.site_id);

  it('starts with both unset, and says so in every answer', async () => {
    expect(await read()).toMatchObject({ events_retention_days: null, visits_retention_days: null });
    expect(await listed()).toMatchObject({ events_retention_days: null, visits_retention_days: null });
  });

  it('sets, changes and clears each on its own, and the site answers carry them', async () => {
    const set = await patch({ events_retention_days: 90, visits_retention_days: 730 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ events_retention_days: 90, visits_retention_days: 730 });
    expect(await read()).toEqual(set.json());
    expect(await listed()).toEqual(set.json());

    expect((await patch({ visits_retention_days: 30 })).json()).toMatchObject({
      events_retention_days: 90,
      visits_retention_days: 30,
    });
    expect((await patch({ events_retention_days: null })).json()).toMatchObject({
      events_retention_days: null,
      visits_retention_days: 30,
    });
    expect((await patch({ name: 'Kurz' })).json()).toMatchObject({ name: 'Kurz', visits_retention_days: 30 });
    expect((await patch({ events_retention_days: 365, visits_retention_days: null })).json()).toMatchObject({
      events_retention_days: 365,
      visits_retention_days: null,
    });
  });

  it('is the same through a dashboard session', async () => {
    const response = await t.request({
      method: 'PATCH',
      url: `/v1/sites/${site.site_id}`,
      headers: asSession(t.owner.cookie),
      payload: { events_retention_days: 30 },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().events_retention_days).toBe(30);
  });

  it.each([
    ['events_retention_days', 29],
    ['events_retention_days', 366],
    ['events_retention_days', 730],
    ['events_retention_days', 0],
    ['events_retention_days', -30],
    ['events_retention_days', 90.5],
    ['events_retention_days', '90'],
    ['events_retention_days', ''],
    ['events_retention_days', true],
    ['visits_retention_days', 29],
    ['visits_retention_days', 731],
    ['visits_retention_days', 1e9],
    ['visits_retention_days', 365.25],
    ['visits_retention_days', '365'],
    ['visits_retention_days', 'keep'],
    ['visits_retention_days', [90]],
  ])('refuses %s of %j with 422 naming the field, and changes nothing', async (field, value) => {
    const before = await read();
    const response = await patch({ [field]: value, name: 'Not this either' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
    expect(response.body).not.toContain('Not this either');
    expect(await read()).toEqual(before);
  });

  it('names the retention settings among what an empty body may send', async () => {
    const response = await patch({});
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field: 'body' });
    expect(response.body).toContain('events_retention_days, visits_retention_days');
  });

  it('needs an account-wide admin, since a shorter time deletes data for good; members keep the rest', async () => {
    const member = { email: 'kurz-member@example.com', password: 'member password 1' };
    await t.request({
      method: 'POST',
      url: '/v1/account/members',
      headers: asSession(t.owner.cookie),
      payload: { ...member, role: 'member' },
    });
    const memberCookie = await login(t, member);
    const before = await read();
    const refused = await t.request({
      method: 'PATCH',
      url: `/v1/sites/${site.site_id}`,
      headers: asSession(memberCookie),
      payload: { events_retention_days: 30 },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'forbidden' });
    expect(await read()).toEqual(before);
    const renamed = await t.request({
      method: 'PATCH',
      url: `/v1/sites/${site.site_id}`,
      headers: asSession(memberCookie),
      payload: { name: 'Member named' },
    });
    expect(renamed.statusCode).toBe(200);
  });
});
