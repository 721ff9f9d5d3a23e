/**
 * Shared links (DESIGN.md §9): made and revoked by the site's people, opened by anyone
 * with the URL (and the password), and reading traffic reports only — never goals, conversions,
 * money, people or settings.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { HOUR_MS } from '../lib/clock.js';
import { bearer, login, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';

describe('shared links', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  const asOwner = () => ({ cookie: t.owner.cookie });
  /** As the owner's session (by the site's UUID), or with a key's header (by its snippet key). */
  const create = (payload: object = {}, headers: Record<string, string> = asOwner()) =>
    t.request({
      method: 'POST',
      url: `/v1/sites/${headers.authorization ? site.snippet_key : site.id}/shared-links`,
      headers,
      payload,
    });
  const open = (payload: object) => t.request({ method: 'POST', url: '/v1/shared-links/open', payload });
  const tokenOf = (url: string) => url.split('#')[1] as string;
  const query = (access: string, body: object = {}) =>
    t.request({
      method: 'POST',
      url: '/v1/stats/query',
      headers: bearer(access),
      payload: { site_id: site.snippet_key, metrics: ['visitors'], date_range: '7d', ...body },
    });

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'shared.example.com', name: 'Shared' });
    for (let i = 0; i < 3; i++) {
      await collect(
        t,
        pageview(site.snippet_key, newVisitorId(), 'https://shared.example.com/', 'https://chatgpt.com/'),
      );
    }
  });

  it('makes a link whose URL is shown once, with the token in the fragment', async () => {
    const created = await create({ label: 'Investors' });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toEqual({
      id: expect.any(String),
      label: 'Investors',
      prefix: expect.stringMatching(/^tts_/),
      has_password: false,
      created_at: expect.any(String),
      revoked_at: null,
      url: expect.stringMatching(/^http:\/\/localhost:8080\/share#tts_[A-Za-z0-9_-]{43}$/),
    });
    const listed = await t.request({
      method: 'GET',
      url: `/v1/sites/${site.id}/shared-links`,
      headers: asOwner(),
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().shared_links[0]).toEqual({ ...body, url: undefined });
    expect(listed.body).not.toContain(tokenOf(body.url));
    const stored = await t.database.db.selectFrom('shared_links').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(tokenOf(body.url));
  });

  it('opens a link into a read-only view of the traffic reports', async () => {
    const link = (await create()).json();
    const opened = await open({ token: tokenOf(link.url) });
    expect(opened.statusCode).toBe(200);
    const { access_token: access, site: shown } = opened.json();
    expect(shown).toEqual({
      id: site.snippet_key,
      name: 'Shared',
      domain: 'shared.example.com',
      currency: 'USD',
    });
    const visitors = await query(access, { dimensions: ['visit:channel'] });
    expect(visitors.statusCode).toBe(200);
    expect(visitors.json().results).toEqual([{ dimensions: ['ai'], metrics: [3] }]);
    const realtime = await t.request({
      method: 'GET',
      url: `/v1/stats/realtime?site_id=${site.snippet_key}`,
      headers: bearer(access),
    });
    expect(realtime.statusCode).toBe(200);
    expect(realtime.json().visitors).toBe(3);
  });

  it('never reaches money, goals, conversions, people, settings or another site', async () => {
    const access = (await open({ token: tokenOf((await create()).json().url) })).json().access_token;
    for (const body of [
      { metrics: ['revenue_net'] },
      { metrics: ['conversions'] },
      { metrics: ['visitors'], dimensions: ['event:goal'] },
      { metrics: ['visitors'], dimensions: ['event:props:plan'] },
      { metrics: ['visitors'], filters: [['not', ['is', 'event:goal', ['signup']]]] },
    ]) {
      const refused = await query(access, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(403);
      expect(refused.json()).toMatchObject({
        error: 'forbidden',
        message: expect.stringContaining('traffic reports only'),
      });
    }
    const other = await insertSite(t, t.owner.accountId, { domain: 'other.example.com' });
    expect((await query(access, { site_id: other.snippet_key })).statusCode).toBe(404);
    for (const url of [
      `/v1/sites/${site.snippet_key}`,
      `/v1/goals?site_id=${site.snippet_key}`,
      `/v1/revenue?site_id=${site.snippet_key}`,
      `/v1/visitors?site_id=${site.snippet_key}`,
      `/v1/sessions?site_id=${site.snippet_key}`,
      `/v1/conversions?site_id=${site.id}`,
      `/v1/ai-visibility?site_id=${site.snippet_key}`,
      `/v1/sites/${site.snippet_key}/webhooks`,
      `/v1/sites/${site.snippet_key}/shared-links`,
    ]) {
      const response = await t.request({ method: 'GET', url, headers: bearer(access) });
      expect([401, 403], url).toContain(response.statusCode);
    }
  });

  it('asks for the password of a protected link', async () => {
    const link = (await create({ password: 'open sesame' })).json();
    expect(link.has_password).toBe(true);
    const token = tokenOf(link.url);
    const missing = await open({ token });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ error: 'password_required', field: 'password' });
    const wrong = await open({ token, password: 'close sesame' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: 'invalid_password' });
    const right = await open({ token, password: 'open sesame' });
    expect(right.statusCode).toBe(200);
    expect((await query(right.json().access_token)).statusCode).toBe(200);
  });

  it('stops at once when revoked, and its views end when they expire', async () => {
    const link = (await create()).json();
    const access = (await open({ token: tokenOf(link.url) })).json().access_token;
    const later = (await open({ token: tokenOf(link.url) })).json().access_token;
    t.clock.advance(13 * HOUR_MS);
    expect((await query(later)).statusCode).toBe(401);
    const fresh = (await open({ token: tokenOf(link.url) })).json().access_token;
    expect((await query(fresh)).statusCode).toBe(200);
    const revoked = await t.request({
      method: 'DELETE',
      url: `/v1/sites/${site.id}/shared-links/${link.id}`,
      headers: asOwner(),
    });
    expect(revoked.statusCode).toBe(204);
    expect((await query(fresh)).statusCode).toBe(401);
    expect((await query(access)).statusCode).toBe(401);
    const reopened = await open({ token: tokenOf(link.url) });
    expect(reopened.statusCode).toBe(404);
    expect(reopened.json()).toMatchObject({ error: 'invalid_link' });
    const listed = await t.request({
      method: 'GET',
      url: `/v1/sites/${site.id}/shared-links`,
      headers: asOwner(),
    });
    expect(
      listed.json().shared_links.find((l: { id: string }) => l.id === link.id).revoked_at,
    ).not.toBeNull();
  });

  it('refuses bad input, other people’s sites and keys without config:write', async () => {
    for (const token of ['', 'tts_short', `tts_${'x'.repeat(43)}`, 'tk_live_abc', 'x'.repeat(201)]) {
      const response = await open({ token });
      expect([404, 422], token).toContain(response.statusCode);
      expect(response.body).not.toContain('stack');
    }
    expect((await open({ token: 'tts_x', extra: true })).statusCode).toBe(422);
    expect((await create({ password: 'short' })).statusCode).toBe(422);
    expect((await create({ label: 'x'.repeat(101) })).statusCode).toBe(422);
    expect((await create({ colour: 'red' })).statusCode).toBe(422);
    const reader = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] });
    expect((await create({}, bearer(reader.api_key))).statusCode).toBe(403);
    const writer = await mintKey(t, t.owner.cookie, { scopes: ['config:write'] });
    expect((await create({}, bearer(writer.api_key))).statusCode).toBe(201);
    const rival = await insertAccount(t);
    const rivalCookie = await login(t, { email: rival.email, password: rival.password });
    expect((await create({}, { cookie: rivalCookie })).statusCode).toBe(404);
    const unknown = await t.request({
      method: 'DELETE',
      url: `/v1/sites/${site.id}/shared-links/00000000-0000-4000-8000-000000000000`,
      headers: asOwner(),
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('holds at most 20 live links per site', async () => {
    const busy = await insertSite(t, t.owner.accountId, { domain: 'busy.example.com' });
    const make = () =>
      t.request({
        method: 'POST',
        url: `/v1/sites/${busy.id}/shared-links`,
        headers: asOwner(),
        payload: {},
      });
    for (let i = 0; i < 20; i++) expect((await make()).statusCode).toBe(201);
    const refused = await make();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'shared_link_limit_reached' });
  });

  it('closes when the site is scheduled for deletion', async () => {
    const doomed = await insertSite(t, t.owner.accountId, { domain: 'doomed.example.com' });
    const link = (
      await t.request({
        method: 'POST',
        url: `/v1/sites/${doomed.id}/shared-links`,
        headers: asOwner(),
        payload: {},
      })
    ).json();
    const access = (await open({ token: tokenOf(link.url) })).json().access_token;
    const deleted = await t.request({
      method: 'DELETE',
      url: `/v1/sites/${doomed.snippet_key}`,
      headers: bearer(t.owner.apiKey),
      payload: { confirm_domain: 'doomed.example.com' },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await open({ token: tokenOf(link.url) })).statusCode).toBe(404);
    const read = await t.request({
      method: 'POST',
      url: '/v1/stats/query',
      headers: bearer(access),
      payload: { site_id: doomed.snippet_key, metrics: ['visitors'], date_range: '7d' },
    });
    expect(read.statusCode).toBe(401);
  });
});
