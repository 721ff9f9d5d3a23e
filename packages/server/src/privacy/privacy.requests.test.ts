/**
 * Privacy requests: who may make them, what they match, the audit trail, and the
 * access export checked field by field against what was seeded.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../lib/clock.js';
import { createHandleCodec } from '../people/visitor-handles.js';
import { bearer, login, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { type SeededPerson, seedPerson } from './privacy.fixtures.js';

const START = new Date('2026-03-02T10:00:00Z');

describe('privacy requests', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  let ada: SeededPerson;
  let bob: SeededPerson;
  const asOwner = () => ({ cookie: t.owner.cookie });
  const create = (payload: object, headers: Record<string, string> = asOwner()) =>
    t.request({ method: 'POST', url: '/v1/privacy/requests', headers, payload });
  const get = (id: string, headers: Record<string, string> = asOwner()) =>
    t.request({ method: 'GET', url: `/v1/privacy/requests/${id}`, headers });
  const download = (id: string, headers: Record<string, string> = asOwner()) =>
    t.request({ method: 'GET', url: `/v1/privacy/requests/${id}/export`, headers });
  const work = () => t.app.services.privacyJobs.runPrivacyOnce();

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'privacy.example.com' });
    ada = await seedPerson(t, site, t.owner.apiKey, 'ada', START);
    bob = await seedPerson(t, site, t.owner.apiKey, 'bob', START);
  });

  const adaMatched = { visitors: 3, visits: 3, events: 8, identity_links: 4, payments: 1, refunds: 1 };

  it('finds a person by each kind of id, answering 202 with what matched', async () => {
    const visit = await t.database.db
      .selectFrom('visits')
      .select('id')
      .where('visitor_id', '=', ada.visitors[0] as string)
      .executeTakeFirstOrThrow();
    const handle = createHandleCodec(t.config.secretKey as string).encode({
      siteId: site.id,
      visitId: visit.id,
    });
    const subjects = [
      { kind: 'visitor_id', value: ada.visitors[2] },
      { kind: 'user_id', value: ada.userId },
      { kind: 'email', value: ada.email.toUpperCase() },
      { kind: 'handle', value: handle },
      { kind: 'customer_id', value: ada.customerId },
    ];
    for (const subject of subjects) {
      const response = await create({ site_id: site.id, type: 'access', subject });
      expect(response.statusCode, `${subject.kind}: ${response.body}`).toBe(202);
      const body = response.json();
      expect(body, subject.kind).toMatchObject({
        site_id: site.snippet_key,
        type: 'access',
        status: 'pending',
        subject: { kind: subject.kind },
        matched: adaMatched,
        requested_by: { user_id: t.owner.userId, key_id: null },
        completed_at: null,
        export_url: null,
      });
      expect(JSON.stringify(body)).not.toContain(subject.value as string);
    }
  });

  it('matches nothing for an id nobody has, and for a handle of another site', async () => {
    const other = await insertSite(t, t.owner.accountId, { domain: 'other.example.com' });
    const foreignHandle = createHandleCodec(t.config.secretKey as string).encode({
      siteId: other.id,
      visitId: '3f6c1a52-8d4e-4b7a-9c21-5e8f0d2b7a64',
    });
    for (const subject of [
      { kind: 'email', value: 'nobody@example.com' },
      { kind: 'handle', value: foreignHandle },
      { kind: 'handle', value: 'vh_not-a-handle' },
    ]) {
      const response = await create({ site_id: site.snippet_key, type: 'erasure', subject });
      expect(response.statusCode).toBe(202);
      expect(response.json().matched).toEqual({
        visitors: 0,
        visits: 0,
        events: 0,
        identity_links: 0,
        payments: 0,
        refunds: 0,
      });
    }
  });

  it('exports everything about the person, field by field, and nothing about anyone else', async () => {
    const created = (
      await create({ site_id: site.id, type: 'access', subject: { kind: 'email', value: ada.email } })
    ).json();
    expect((await download(created.id)).json()).toMatchObject({ error: 'export_not_ready' });
    expect((await download(created.id)).statusCode).toBe(409);
    await work();
    const done = (await get(created.id)).json();
    expect(done).toMatchObject({ status: 'completed', error: null });
    expect(done.export_url).toBe(`${t.config.publicUrl}/v1/privacy/requests/${created.id}/export`);
    expect(Date.parse(done.export_expires_at) - Date.parse(done.completed_at)).toBe(7 * DAY_MS);

    const response = await download(created.id);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="touchtrail-access-${created.id}.json"`,
    );
    const doc = response.json();
    expect(doc).toMatchObject({
      request_id: created.id,
      site: { id: site.snippet_key, domain: 'privacy.example.com' },
      subject: { kind: 'email' },
    });
    expect([...doc.visitor_ids].sort()).toEqual([...ada.visitors].sort());
    expect(doc.visits.map((visit: { visitor_id: string }) => visit.visitor_id)).toEqual(ada.visitors);
    expect(doc.visits[0]).toMatchObject({
      entry_url: 'https://privacy.example.com/pricing',
      source_kind: 'ai',
      session_ai_source: 'chatgpt',
      pageviews: 1,
      started_at: START.toISOString(),
    });
    expect(doc.visits[2]).toMatchObject({
      entry_url: 'https://privacy.example.com/checkout',
      session_ai_source: 'perplexity',
    });
    const events = doc.events.map(
      (event: { type: string; name: string | null }) => `${event.type}:${event.name ?? ''}`,
    );
    expect(events).toEqual([
      'pageview:',
      'identify:',
      'pageview:',
      'event:signup',
      'identify:',
      'pageview:',
      'event:purchase',
      'event:payment',
    ]);
    expect(doc.events[1]).toMatchObject({ identified_by: 'user_id', visitor_id: ada.visitors[0] });
    expect(doc.events[3]).toMatchObject({ identified_by: 'email', origin: 'server' });
    expect(doc.events[7]).toMatchObject({ value: 49, properties: { customer_id: ada.customerId } });
    expect(doc.events[6]).toMatchObject({
      properties: { plan: 'pro' },
      value: 49,
      currency: 'EUR',
      origin: 'browser',
    });
    expect(doc.identity_links.map((link: { identified_by: string }) => link.identified_by).sort()).toContain(
      'email',
    );
    expect(doc.payments).toEqual([
      expect.objectContaining({
        provider: 'stripe',
        transaction_id: ada.transactionId,
        kind: 'payment',
        amount: 49,
        refunded_amount: 10,
        currency: 'EUR',
        customer_id: ada.customerId,
        visitor_id: ada.visitors[2],
        refunds: [expect.objectContaining({ amount: 10 })],
      }),
    ]);
    // Bob's ids and every keyed hash stay out.
    const text = response.body;
    for (const id of [...bob.visitors, bob.customerId, bob.transactionId]) expect(text).not.toContain(id);
    const keys = await t.database.db.selectFrom('identity_links').select('person_key').execute();
    for (const { person_key } of keys) expect(text).not.toContain(person_key);
  });

  it('lists requests newest first as the audit trail, paged, without any subject', async () => {
    const first = await t.request({ method: 'GET', url: '/v1/privacy/requests?limit=3', headers: asOwner() });
    expect(first.statusCode).toBe(200);
    const page = first.json();
    expect(page.requests).toHaveLength(3);
    expect(page.next_cursor).toEqual(expect.any(String));
    const rest = await t.request({
      method: 'GET',
      url: `/v1/privacy/requests?limit=100&cursor=${page.next_cursor}&site_id=${site.snippet_key}`,
      headers: asOwner(),
    });
    const all = [...page.requests, ...rest.json().requests];
    expect(rest.json().next_cursor).toBeNull();
    expect(new Set(all.map((request) => request.id)).size).toBe(all.length);
    const times = all.map((request) => request.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(JSON.stringify(all)).not.toContain(ada.email);
    const stored = await t.database.db.selectFrom('privacy_requests').select('subject_hash').execute();
    for (const { subject_hash } of stored)
      expect([ada.email, ada.userId, ...ada.visitors]).not.toContain(subject_hash);
  });

  it('lets an admin’s key with config:write ask, records the key, and refuses members and other accounts', async () => {
    const key = await mintKey(t, t.owner.cookie, { scopes: ['config:write'] });
    const byKey = await create(
      { site_id: site.id, type: 'access', subject: { kind: 'visitor_id', value: bob.visitors[0] } },
      bearer(key.api_key),
    );
    expect(byKey.statusCode).toBe(202);
    expect(byKey.json().requested_by).toEqual({ user_id: t.owner.userId, key_id: key.id });

    // A key restricted to another site sees none of this site's requests.
    const elsewhere = await insertSite(t, t.owner.accountId, { domain: 'elsewhere.example.com' });
    const narrow = await mintKey(t, t.owner.cookie, {
      scopes: ['config:write'],
      site_id: elsewhere.snippet_key,
    });
    expect((await get(byKey.json().id, bearer(narrow.api_key))).statusCode).toBe(404);
    const listed = await t.request({
      method: 'GET',
      url: '/v1/privacy/requests',
      headers: bearer(narrow.api_key),
    });
    expect(listed.json()).toEqual({ requests: [], next_cursor: null });
    const refusedSite = await create(
      { site_id: site.id, type: 'access', subject: { kind: 'visitor_id', value: bob.visitors[0] } },
      bearer(narrow.api_key),
    );
    expect(refusedSite.statusCode).toBe(404);

    const member = { email: 'member@example.com', password: 'member password 1' };
    await t.request({
      method: 'POST',
      url: '/v1/account/members',
      headers: asOwner(),
      payload: { ...member, role: 'member' },
    });
    const memberCookie = await login(t, member);
    const refused = await create(
      { site_id: site.id, type: 'access', subject: { kind: 'visitor_id', value: bob.visitors[0] } },
      { cookie: memberCookie },
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'forbidden' });
    expect((await get(byKey.json().id, { cookie: memberCookie })).statusCode).toBe(403);

    const rival = await insertAccount(t);
    const rivalCookie = await login(t, { email: rival.email, password: rival.password });
    const theirs = await create(
      { site_id: site.id, type: 'erasure', subject: { kind: 'visitor_id', value: ada.visitors[0] } },
      { cookie: rivalCookie },
    );
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ error: 'not_found' });
    expect((await get(byKey.json().id, { cookie: rivalCookie })).statusCode).toBe(404);
    expect((await download(byKey.json().id, { cookie: rivalCookie })).statusCode).toBe(404);
  });

  it('refuses bad input in the sites shape, naming the field, and stores nothing', async () => {
    const before = await t.database.db.selectFrom('privacy_requests').select('id').execute();
    const subject = { kind: 'email', value: 'x@example.com' };
    const cases: [object, string][] = [
      [{ site_id: site.id, type: 'access', subject: { kind: 'phone', value: '123' } }, 'subject.kind'],
      [{ site_id: site.id, type: 'delete', subject }, 'type'],
      [{ site_id: 'shop.example.com', type: 'access', subject }, 'site_id'],
      [{ site_id: site.id, type: 'access', subject: { kind: 'email', value: '' } }, 'subject.value'],
      [
        { site_id: site.id, type: 'access', subject: { kind: 'email', value: 'x'.repeat(321) } },
        'subject.value',
      ],
      [{ site_id: site.id, type: 'access', subject: { kind: 'email' } }, 'subject.value'],
      [{ site_id: site.id, type: 'access' }, 'subject'],
      [{ site_id: site.id, type: 'access', subject, extra: 1 }, 'extra'],
      [{ site_id: 42, type: 'access', subject }, 'site_id'],
    ];
    for (const [payload, field] of cases) {
      const response = await create(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json(), JSON.stringify(payload)).toMatchObject({ error: 'validation_failed', field });
    }
    const unknownSite = await create({
      site_id: '3f6c1a52-8d4e-4b7a-9c21-5e8f0d2b7a64',
      type: 'access',
      subject,
    });
    expect(unknownSite.statusCode).toBe(404);
    expect((await get('not-a-uuid')).statusCode).toBe(422);
    expect((await get('3f6c1a52-8d4e-4b7a-9c21-5e8f0d2b7a64')).statusCode).toBe(404);
    const badCursor = await t.request({
      method: 'GET',
      url: '/v1/privacy/requests?cursor=bm9wZQ',
      headers: asOwner(),
    });
    expect(badCursor.statusCode).toBe(422);
    expect(badCursor.json()).toMatchObject({ field: 'cursor' });
    expect(await t.database.db.selectFrom('privacy_requests').select('id').execute()).toHaveLength(
      before.length,
    );
  });

  it('serves the export for 7 days, then answers 410; an erasure has no export', async () => {
    const access = (
      await create({ site_id: site.id, type: 'access', subject: { kind: 'user_id', value: bob.userId } })
    ).json();
    const erasure = (
      await create({
        site_id: site.id,
        type: 'erasure',
        subject: { kind: 'email', value: 'nobody@example.com' },
      })
    ).json();
    await work();
    expect((await download(erasure.id)).statusCode).toBe(404);
    t.clock.advance(7 * DAY_MS - 1000);
    expect((await download(access.id)).statusCode).toBe(200);
    t.clock.advance(1000);
    const expired = await download(access.id);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ error: 'export_expired' });
    expect((await get(access.id)).json().export_url).toBeNull();
    await work();
    const scope = await t.database.db
      .selectFrom('privacy_request_scope')
      .select('value')
      .where('request_id', '=', access.id)
      .execute();
    expect(scope).toEqual([]);
  });
});
