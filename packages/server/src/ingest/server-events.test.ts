import { describe, expect, it } from 'vitest';
import { bearer, createTestApp, mintKey, setUpOwner, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { collect, newVisitorId, pageview } from './ingest.fixtures.js';

describe('POST /v1/server/events', () => {
  const t = useTestApp();

  const post = (key: string, payload: object) =>
    t.request({ method: 'POST', url: '/v1/server/events', headers: bearer(key), payload });

  it('records a server event on the visitor’s open visit, links the person and counts an event_id once', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'app.example.org' });
    const vid = newVisitorId();
    await collect(
      t,
      pageview(site.snippet_key, vid, 'https://app.example.org/', 'https://www.perplexity.ai/'),
    );
    const body = {
      site_id: site.snippet_key,
      name: 'subscription_started',
      visitor_id: vid,
      email: 'Buyer@Example.com',
      properties: { plan: 'team' },
      value: 4900,
      currency: 'JPY',
      event_id: 'order-1001',
    };
    const first = await post(t.owner.apiKey, body);
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({ status: 'recorded', event_id: 'order-1001' });
    const again = await post(t.owner.apiKey, body);
    expect(again.json()).toEqual({ status: 'duplicate', event_id: 'order-1001' });

    const events = await t.database.db
      .selectFrom('events')
      .selectAll()
      .where('site_id', '=', site.id)
      .where('type', '=', 'event')
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      name: 'subscription_started',
      value_minor: 4900,
      currency: 'JPY',
      origin: 'server',
    });
    expect(events[0]?.visit_id).not.toBeNull();
    expect(events[0]?.person_key).toMatch(/^e:/);
    const links = await t.database.db
      .selectFrom('identity_links')
      .select('visitor_id')
      .where('site_id', '=', site.id)
      .execute();
    expect(links).toEqual([{ visitor_id: vid }]);
    expect(JSON.stringify(events).toLowerCase()).not.toContain('buyer@example.com');
  });

  it('uses the site currency when none is given and rejects a timestamp more than a day ahead', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'b.example.org' });
    expect(
      (await post(t.owner.apiKey, { site_id: site.snippet_key, name: 'lead', value: 12.5 })).statusCode,
    ).toBe(202);
    const event = await t.database.db
      .selectFrom('events')
      .selectAll()
      .where('site_id', '=', site.id)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ value_minor: 1250, currency: 'USD', visit_id: null });

    const future = new Date(t.clock.now().getTime() + 25 * 3600_000).toISOString();
    const late = await post(t.owner.apiKey, { site_id: site.snippet_key, name: 'lead', timestamp: future });
    expect(late.statusCode).toBe(422);
    expect(late.json()).toMatchObject({ error: 'validation_failed', field: 'timestamp' });
  });

  it('keeps to the key’s coverage: 404 for another account or another site, 403 without ingest:write', async () => {
    const mine = await insertSite(t, t.owner.accountId, { domain: 'c.example.org' });
    const other = await insertSite(t, t.owner.accountId, { domain: 'd.example.org' });
    const rival = await insertSite(t, (await insertAccount(t)).accountId, { domain: 'c.example.org' });
    expect((await post(t.owner.apiKey, { site_id: rival.snippet_key, name: 'lead' })).statusCode).toBe(404);

    const scoped = await mintKey(t, t.owner.cookie, { scopes: ['ingest:write'], site_id: mine.snippet_key });
    expect((await post(scoped.api_key, { site_id: mine.snippet_key, name: 'lead' })).statusCode).toBe(202);
    expect((await post(scoped.api_key, { site_id: other.snippet_key, name: 'lead' })).statusCode).toBe(404);

    const readOnly = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] });
    const refused = await post(readOnly.api_key, { site_id: mine.snippet_key, name: 'lead' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'insufficient_scope', required_scope: 'ingest:write' });

    const session = await t.request({
      method: 'POST',
      url: '/v1/server/events',
      headers: { cookie: t.owner.cookie },
      payload: { site_id: mine.snippet_key, name: 'lead' },
    });
    expect(session.statusCode).toBe(401);
    const rows = await t.database.db
      .selectFrom('events')
      .select('event_id')
      .where('site_id', 'in', [other.id, rival.id])
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('answers 429 quota_exceeded for a site scheduled for deletion', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'e.example.org', deleted: true });
    const response = await post(t.owner.apiKey, { site_id: site.snippet_key, name: 'lead' });
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ error: 'quota_exceeded' });
  });

  it.each([
    [{ site_id: undefined, name: 'lead' }, 'site_id'],
    [{ site_id: 'ttid_short', name: 'lead' }, 'site_id'],
    [{ name: 'refund' }, 'name'],
    [{ name: 'lead', email: 'not-an-email' }, 'email'],
    [{ name: 'lead', value: '12' }, 'value'],
    [{ name: 'lead', value: 1e13 }, 'value'],
    [{ name: 'lead', event_id: '' }, 'event_id'],
    [{ name: 'lead', properties: { nested: { a: 1 } } }, 'properties.nested'],
    [{ name: 'lead', visitor: 'x' }, 'visitor'],
  ])('answers 422 naming the field for %j', async (override, field) => {
    const site = await insertSite(t, t.owner.accountId, {
      domain: `f${Math.random().toString(36).slice(2)}.example.org`,
    });
    const response = await post(t.owner.apiKey, { site_id: site.snippet_key, ...override });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });
});

describe('ingest when the database fails', () => {
  it('answers 503 and acknowledges nothing', async () => {
    const t = await createTestApp();
    const owner = await setUpOwner(t);
    const site = await insertSite(t, owner.accountId, { domain: 'down.example.org' });
    await t.database.close();
    const response = await collect(
      t,
      pageview(site.snippet_key, newVisitorId(), 'https://down.example.org/'),
    );
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: 'unavailable' });
    // The operator sees why: the underlying error's type, never its message's values.
    const failure = t
      .logs()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .find((entry) => entry.msg === 'request failed');
    expect(failure?.err).toMatchObject({ code: 'unavailable', cause: { type: expect.any(String) } });
    await t.app.close();
  });

  it('answers 503 to key-authenticated ingest when the key cannot be checked', async () => {
    const t = await createTestApp();
    const owner = await setUpOwner(t);
    const site = await insertSite(t, owner.accountId, { domain: 'down.example.org' });
    await t.database.close();
    const event = await t.request({
      method: 'POST',
      url: '/v1/server/events',
      headers: bearer(owner.apiKey),
      payload: { site_id: site.snippet_key, name: 'signup', event_id: 'down-1' },
    });
    expect(event.statusCode).toBe(503);
    expect(event.json()).toEqual({ error: 'unavailable', message: 'Could not check the credentials; retry' });
    const payment = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: bearer(owner.apiKey),
      payload: { site_id: site.snippet_key, transaction_id: 'tx-down', amount: 10, currency: 'EUR' },
    });
    expect(payment.statusCode).toBe(503);
    expect(payment.json()).toEqual({ error: 'unavailable' });
    await t.app.close();
  });
});
