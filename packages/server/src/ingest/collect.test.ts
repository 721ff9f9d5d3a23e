import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { MINUTE_MS } from '../lib/clock.js';
import { type TestApp, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import {
  CHROME_UA,
  collect,
  GOOGLEBOT_UA,
  IPHONE_UA,
  newEventId,
  newVisitorId,
  pageview,
} from './ingest.fixtures.js';

describe('POST /v1/collect', () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });

  // Each test gets its own account, so every site can be shop.example.com.
  const newSite = async () =>
    insertSite(t, (await insertAccount(t)).accountId, { domain: 'shop.example.com' });
  const visitsOf = (siteId: string, vid: string) =>
    t.database.db
      .selectFrom('visits')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('visitor_id', '=', vid)
      .orderBy('started_at')
      .execute();
  const dailyVisitsOf = (siteId: string) =>
    t.database.db
      .selectFrom('daily_visits')
      .select(['visits', 'pageviews'])
      .where('site_id', '=', siteId)
      .execute();
  /** Runs `body` with a second app on the same database: its own group committer, as a second process has. */
  const withSecondProcess = async (body: (other: TestApp) => Promise<void>) => {
    const second = await buildApp({ config: t.config, database: t.database, clock: t.clock, logger: false });
    try {
      await body({ ...t, app: second, request: (options) => second.inject(options) });
    } finally {
      await second.close();
    }
  };

  it('records an AI-assistant arrival as a classified visit, after commit', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    const response = await collect(
      t,
      pageview(
        site.snippet_key,
        vid,
        'https://shop.example.com/pricing?utm_campaign=launch',
        'https://chatgpt.com/',
      ),
      {
        userAgent: IPHONE_UA,
        headers: { 'cf-ipcountry': 'DE', 'x-forwarded-for': '203.0.113.9' },
      },
    );
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ accepted: true });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    // Headers for rendered pages (helmet's) stay off the beacon's answer.
    expect(response.headers['content-security-policy']).toBeUndefined();

    const [visit] = await visitsOf(site.id, vid);
    expect(visit).toMatchObject({
      source_kind: 'ai',
      session_ai_source: 'chatgpt',
      source_name: 'chatgpt.com',
      campaign: 'launch',
      entry_url: 'https://shop.example.com/pricing?utm_campaign=launch',
      device_type: 'mobile',
      os: 'iOS',
      browser: 'Safari',
      country_code: 'DE',
      pageviews: 1,
      is_new: true,
    });
    const outbox = await t.database.db
      .selectFrom('outbox_events')
      .selectAll()
      .where('site_id', '=', site.id)
      .execute();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ type: 'ai_session.classified', dedupe_key: visit?.id });
    expect(outbox[0]?.payload).toMatchObject({ site_id: site.snippet_key, ai_source: 'chatgpt' });
    const rollup = await t.database.db
      .selectFrom('daily_visits')
      .selectAll()
      .where('site_id', '=', site.id)
      .execute();
    expect(rollup).toEqual([
      expect.objectContaining({ source_kind: 'ai', session_ai_source: 'chatgpt', visits: 1, pageviews: 1 }),
    ]);
    const stored = await t.database.db
      .selectFrom('sites')
      .select('verified_at')
      .where('id', '=', site.id)
      .executeTakeFirstOrThrow();
    expect(stored.verified_at).not.toBeNull();
  });

  it('counts a retried event once', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    const eid = newEventId();
    const first = await collect(t, { ...pageview(site.snippet_key, vid, 'https://shop.example.com/'), eid });
    const retry = await collect(t, { ...pageview(site.snippet_key, vid, 'https://shop.example.com/'), eid });
    expect([first.statusCode, retry.statusCode]).toEqual([202, 202]);
    const visits = await visitsOf(site.id, vid);
    expect(visits).toHaveLength(1);
    expect(visits[0]?.pageviews).toBe(1);
  });

  it('keeps one visit for internal navigation, and starts another after 30 idle minutes or a new source', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    await collect(t, pageview(site.snippet_key, vid, 'https://shop.example.com/', 'https://www.google.com/'));
    t.clock.advance(5 * MINUTE_MS);
    await collect(
      t,
      pageview(site.snippet_key, vid, 'https://shop.example.com/a', 'https://shop.example.com/'),
    );
    await collect(t, pageview(site.snippet_key, vid, 'https://shop.example.com/b', ''));
    expect((await visitsOf(site.id, vid)).map((v) => v.pageviews)).toEqual([3]);

    t.clock.advance(31 * MINUTE_MS);
    await collect(
      t,
      pageview(site.snippet_key, vid, 'https://shop.example.com/c', 'https://shop.example.com/b'),
    );
    t.clock.advance(MINUTE_MS);
    await collect(t, pageview(site.snippet_key, vid, 'https://shop.example.com/?utm_source=perplexity', ''));
    const visits = await visitsOf(site.id, vid);
    expect(visits.map((v) => [v.session_ai_source, v.pageviews, v.is_new])).toEqual([
      ['search', 3, true],
      ['direct', 1, false],
      ['perplexity', 1, false],
    ]);
  });

  it('records custom events, registers their goal and removes personal data', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    await collect(t, pageview(site.snippet_key, vid, 'https://shop.example.com/'));
    const response = await collect(t, {
      type: 'event',
      site: site.snippet_key,
      vid,
      url: 'https://shop.example.com/thanks?email=jane%40example.com',
      name: 'signup',
      props: { plan: 'pro', contact: 'jane@example.com', seats: 3 },
      value: 19.99,
      currency: 'eur',
    });
    expect(response.statusCode).toBe(202);
    const event = await t.database.db
      .selectFrom('events')
      .selectAll()
      .where('site_id', '=', site.id)
      .where('name', '=', 'signup')
      .executeTakeFirstOrThrow();
    expect(event.properties).toEqual({ plan: 'pro', contact: '[REDACTED]', seats: 3 });
    expect(event.url).toBe('https://shop.example.com/thanks?email=%5BREDACTED%5D');
    expect(event).toMatchObject({ value_minor: 1999, currency: 'EUR', origin: 'browser' });
    expect(event.visit_id).not.toBeNull();
    const goals = await t.database.db
      .selectFrom('goals')
      .select('name')
      .where('site_id', '=', site.id)
      .execute();
    expect(goals.map((g) => g.name)).toEqual(['signup']);
    const completions = await t.database.db
      .selectFrom('daily_goal_completions')
      .selectAll()
      .where('site_id', '=', site.id)
      .execute();
    expect(completions).toEqual([expect.objectContaining({ name: 'signup', completions: 1 })]);
  });

  it('stores text PostgreSQL would refuse (NUL characters, lone surrogates) cleaned, never failing the batch', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    const sent = await Promise.all([
      collect(
        t,
        pageview(
          site.snippet_key,
          vid,
          'https://shop.example.com/a\u0000b?q=\ud800',
          'https://x.example/\u0000',
        ),
      ),
      collect(t, {
        type: 'event',
        site: site.snippet_key,
        vid,
        url: 'https://shop.example.com/',
        name: 'signup',
        props: { 'pl\u0000an': 'p\u0000ro', note: 'half \udc00 pair', emoji: '\ud83d\ude00' },
      }),
    ]);
    expect(sent.map((response) => response.statusCode)).toEqual([202, 202]);
    const stored = await t.database.db
      .selectFrom('events')
      .select(['type', 'url', 'properties'])
      .where('site_id', '=', site.id)
      .orderBy('type', 'desc')
      .execute();
    expect(stored).toEqual([
      { type: 'pageview', url: 'https://shop.example.com/ab?q=\ufffd', properties: null },
      {
        type: 'event',
        url: 'https://shop.example.com/',
        properties: { plan: 'pro', note: 'half \ufffd pair', emoji: '\ud83d\ude00' },
      },
    ]);
  });

  it('links identify() to a hashed person key, never the email', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    const response = await collect(t, {
      type: 'identify',
      site: site.snippet_key,
      vid,
      url: 'https://shop.example.com/',
      uid: 'Jane@Example.com',
    });
    expect(response.statusCode).toBe(202);
    const links = await t.database.db
      .selectFrom('identity_links')
      .selectAll()
      .where('site_id', '=', site.id)
      .execute();
    expect(links).toHaveLength(1);
    expect(links[0]?.person_key).toMatch(/^e:[0-9a-f]{64}$/);
    const everything = JSON.stringify(
      await t.database.db.selectFrom('events').selectAll().where('site_id', '=', site.id).execute(),
    );
    expect(everything.toLowerCase()).not.toContain('jane@example.com');
  });

  it('adds engaged time to the open visit', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    await collect(t, pageview(site.snippet_key, vid, 'https://shop.example.com/'));
    await collect(t, {
      type: 'engagement',
      site: site.snippet_key,
      vid,
      url: 'https://shop.example.com/',
      engaged_ms: 12_400,
    });
    expect((await visitsOf(site.id, vid))[0]?.engaged_seconds).toBe(12);
  });

  it('acknowledges bots without storing them', async () => {
    const site = await newSite();
    const response = await collect(
      t,
      pageview(site.snippet_key, newVisitorId(), 'https://shop.example.com/'),
      { userAgent: GOOGLEBOT_UA },
    );
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ accepted: false, reason: 'bot' });
    expect(
      await t.database.db.selectFrom('visits').select('id').where('site_id', '=', site.id).execute(),
    ).toHaveLength(0);
  });

  it('answers 404 for an unknown key and 429 quota_exceeded for a site scheduled for deletion, storing nothing', async () => {
    const unknown = await collect(
      t,
      pageview(`ttid_${'Z'.repeat(22)}`, newVisitorId(), 'https://shop.example.com/'),
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'not_found' });
    const deleted = await insertSite(t, t.owner.accountId, { domain: 'gone.example.com', deleted: true });
    const response = await collect(
      t,
      pageview(deleted.snippet_key, newVisitorId(), 'https://gone.example.com/'),
    );
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ error: 'quota_exceeded' });
    expect(
      await t.database.db.selectFrom('events').select('event_id').where('site_id', '=', deleted.id).execute(),
    ).toHaveLength(0);
  });

  it('builds one visit from fifty concurrent pageviews of one visitor', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        collect(t, pageview(site.snippet_key, vid, `https://shop.example.com/p${i}`)),
      ),
    );
    expect(responses.every((r) => r.statusCode === 202)).toBe(true);
    const visits = await visitsOf(site.id, vid);
    expect(visits).toHaveLength(1);
    expect(visits[0]?.pageviews).toBe(50);
  });

  it('builds one visit per visitor when two server processes ingest the same visitors at once', () =>
    withSecondProcess(async (other) => {
      const site = await newSite();
      const vids = Array.from({ length: 5 }, newVisitorId);
      const responses = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          collect(
            i % 2 ? t : other,
            pageview(site.snippet_key, vids[i % 5] as string, `https://shop.example.com/p${i}`),
          ),
        ),
      );
      expect(responses.every((r) => r.statusCode === 202)).toBe(true);
      for (const vid of vids) {
        const visits = await visitsOf(site.id, vid);
        expect(visits).toHaveLength(1);
        expect(visits[0]?.pageviews).toBe(16);
      }
      expect(await dailyVisitsOf(site.id)).toEqual([{ visits: 5, pageviews: 80 }]);
    }));

  it('stores one event, and one visit, when two processes get one event id from two visitors at once', () =>
    withSecondProcess(async (other) => {
      const site = await newSite();
      const eids = Array.from({ length: 20 }, newEventId);
      const responses = await Promise.all(
        eids.flatMap((eid) =>
          [t, other].map((app) =>
            collect(app, { ...pageview(site.snippet_key, newVisitorId(), 'https://shop.example.com/'), eid }),
          ),
        ),
      );
      expect(responses.every((r) => r.statusCode === 202)).toBe(true);
      const db = t.database.db;
      const events = await db
        .selectFrom('events')
        .select('visitor_id')
        .where('site_id', '=', site.id)
        .execute();
      const visits = await db
        .selectFrom('visits')
        .select(['visitor_id', 'pageviews'])
        .where('site_id', '=', site.id)
        .execute();
      const visitors = await db
        .selectFrom('visitors')
        .select('visitor_id')
        .where('site_id', '=', site.id)
        .execute();
      // Only the visitor whose event was stored has a visit and a visitor row.
      expect(events).toHaveLength(20);
      expect(visits.map((v) => v.visitor_id).sort()).toEqual(events.map((e) => e.visitor_id).sort());
      expect(visits.every((v) => v.pageviews === 1)).toBe(true);
      expect(visitors.map((v) => v.visitor_id).sort()).toEqual(events.map((e) => e.visitor_id).sort());
      expect(await dailyVisitsOf(site.id)).toEqual([{ visits: 20, pageviews: 20 }]);
    }));

  it('enriches events with the site settings of the moment, though a process read them before', () =>
    withSecondProcess(async (other) => {
      const site = await newSite();
      const valued = (app: TestApp, value: number) =>
        collect(app, {
          type: 'event',
          site: site.snippet_key,
          vid: newVisitorId(),
          url: 'https://shop.example.com/checkout',
          name: 'purchase',
          value,
        });
      expect((await valued(other, 12.5)).statusCode).toBe(202);
      await t.database.db.updateTable('sites').set({ currency: 'JPY' }).where('id', '=', site.id).execute();
      expect((await valued(other, 12)).statusCode).toBe(202);
      expect((await valued(t, 7)).statusCode).toBe(202);
      const values = await t.database.db
        .selectFrom('events')
        .select(['value_minor', 'currency'])
        .where('site_id', '=', site.id)
        .orderBy('value_minor')
        .execute();
      expect(values).toEqual([
        { value_minor: 7, currency: 'JPY' },
        { value_minor: 12, currency: 'JPY' },
        { value_minor: 1250, currency: 'USD' },
      ]);
    }));

  it('answers preflights and takes JSON bodies too', async () => {
    const preflight = await t.request({
      method: 'OPTIONS',
      url: '/v1/collect',
      headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'content-type',
    });
    const site = await newSite();
    const json = await collect(t, pageview(site.snippet_key, newVisitorId(), 'https://shop.example.com/'), {
      contentType: 'application/json',
    });
    expect(json.statusCode).toBe(202);
  });

  it.each([
    [{ type: 'event', name: 'Sign Up' }, 'name'],
    [{ type: 'event', name: 'payment' }, 'name'],
    [{ type: 'event', name: 'touchtrail_x' }, 'name'],
    [{ type: 'event', name: 'x'.repeat(65) }, 'name'],
    [{ type: 'event', name: 'ok', value: -1 }, 'value'],
    [{ type: 'event', name: 'ok', currency: 'EURO' }, 'currency'],
    [{ type: 'pageview', url: 'javascript:alert(1)' }, 'url'],
    [{ type: 'pageview', vid: 'short' }, 'vid'],
    [{ type: 'pageview', extra: 1 }, 'extra'],
    [{ type: 'teleport' }, 'type'],
    [{ type: 'engagement', engaged_ms: 'long' }, 'engaged_ms'],
  ])('answers 422 naming the field for %j', async (override, field) => {
    const site = await newSite();
    const response = await collect(t, {
      ...pageview(site.snippet_key, newVisitorId(), 'https://shop.example.com/'),
      ...override,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it('answers malformed bodies with 400 and bodies over 64 KiB with 413', async () => {
    const malformed = await t.request({
      method: 'POST',
      url: '/v1/collect',
      headers: { 'content-type': 'text/plain', 'user-agent': CHROME_UA },
      payload: '{"type":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error: 'invalid_json' });
    const site = await newSite();
    const huge = await collect(t, {
      type: 'event',
      site: site.snippet_key,
      vid: newVisitorId(),
      url: 'https://shop.example.com/',
      name: 'big',
      props: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'v'.repeat(4000)])),
    });
    expect(huge.statusCode).toBe(413);
  });

  it('registers at most 200 goal names per site and keeps recording beyond', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    for (let i = 0; i < 205; i += 41) {
      await Promise.all(
        Array.from({ length: 41 }, (_, j) =>
          collect(t, {
            type: 'event',
            site: site.snippet_key,
            vid,
            url: 'https://shop.example.com/',
            name: `goal_${i + j}`,
          }),
        ),
      );
    }
    const goals = await t.database.db
      .selectFrom('goals')
      .select('name')
      .where('site_id', '=', site.id)
      .execute();
    expect(goals).toHaveLength(200);
    const events = await t.database.db
      .selectFrom('events')
      .select('event_id')
      .where('site_id', '=', site.id)
      .where('type', '=', 'event')
      .execute();
    expect(events).toHaveLength(205);
  });
});
