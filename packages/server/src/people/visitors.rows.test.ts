/**
 * The fields of one visitor row and of the profile behind its handle, on a small hand-made
 * history: one person on two browsers (an iPhone arriving from ChatGPT, a desktop Chrome),
 * signed in by email, with a server event by email alone, values in USD and EUR (converted at
 * the exchange rate of the purchase's day).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CHROME_UA, collect, IPHONE_UA, newVisitorId } from '../ingest/ingest.fixtures.js';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { visitorsClient } from './visitors.fixtures.js';

const HOST = 'rows.example.com';
const LANDING = `https://${HOST}/pricing?utm_campaign=launch&ref=newsletter`;

describe('visitor rows and profiles', () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  let site: { id: string; snippet_key: string };
  const iphone = newVisitorId();
  const desktop = newVisitorId();

  const at = (iso: string) => t.clock.set(new Date(iso));
  const send = (vid: string, payload: Record<string, unknown>, ua: string, country: string) =>
    collect(
      t,
      { site: site.snippet_key, vid, url: `https://${HOST}/`, ...payload },
      {
        userAgent: ua,
        headers: { 'cf-ipcountry': country },
      },
    );
  const fromPhone = (payload: Record<string, unknown>) => send(iphone, payload, IPHONE_UA, 'DE');
  const fromDesktop = (payload: Record<string, unknown>) => send(desktop, payload, CHROME_UA, 'FR');

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: HOST });
    at('2026-04-01T09:00:00Z');
    await fromPhone({ type: 'pageview' });
    at('2026-04-06T10:00:00Z');
    await fromPhone({ type: 'pageview', url: LANDING, ref: 'https://chatgpt.com/' });
    await fromPhone({ type: 'identify', uid: 'Ada@Example.com' });
    await fromPhone({ type: 'engagement', engaged_ms: 30_000 });
    at('2026-04-08T15:00:00Z');
    await fromDesktop({ type: 'pageview' });
    await fromDesktop({ type: 'identify', uid: 'ada@example.com' });
    at('2026-04-08T15:01:00Z');
    await fromDesktop({ type: 'event', name: 'signup', value: 12.5, currency: 'USD' });
    at('2026-04-08T15:02:00Z');
    await fromDesktop({ type: 'event', name: 'purchase', value: 20, currency: 'EUR' });
    at('2026-04-09T08:00:00Z');
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await t.request({
        method: 'POST',
        url: '/v1/server/events',
        headers: bearer(t.owner.apiKey),
        payload: {
          site_id: site.snippet_key,
          name: 'signup',
          email: 'ada@example.com',
          value: 5,
          event_id: 'order-1',
        },
      });
      expect(response.statusCode).toBe(202);
    }
    at('2026-04-11T12:00:00Z');
    // The latest rate on or before the purchase's day converts its euros: 20 EUR = 21.70 USD.
    await t.database.db
      .insertInto('exchange_rates')
      .values([
        { day: '2026-04-07', currency: 'USD', per_euro: 1.085 },
        { day: '2026-04-09', currency: 'USD', per_euro: 2 },
      ])
      .execute();
  });

  const newClient = async () =>
    visitorsClient(t, bearer((await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] })).api_key));
  const visitIdOf = async (vid: string) =>
    (
      await t.database.db
        .selectFrom('visits')
        .select('id')
        .where('site_id', '=', site.id)
        .where('visitor_id', '=', vid)
        .orderBy('started_at', 'desc')
        .executeTakeFirstOrThrow()
    ).id;

  const expectedRow = async () => ({
    handle: expect.stringMatching(/^vh_[A-Za-z0-9_-]+$/),
    label: {
      name: expect.stringMatching(/^[A-Z][a-z]+ [A-Z][a-z]+$/),
      initials: expect.stringMatching(/^[A-Z]{2}$/),
      short_id: expect.stringMatching(/^[0-9a-z]{6}$/),
    },
    first_seen: '2026-04-01T09:00:00.000Z',
    last_seen: '2026-04-08T15:02:00.000Z',
    session_count: 2,
    pageviews: 2,
    active_time_sec: 30,
    is_new: false,
    entry: {
      ai_source: 'chatgpt',
      source_kind: 'ai',
      source_name: 'chatgpt.com',
      campaign: 'launch',
      ref: 'newsletter',
      url: LANDING,
    },
    device: { device_type: 'desktop', os: 'macOS', browser: 'Chrome' },
    location: { country_code: 'FR', city: '' },
    // 12.50 USD + 20 EUR at 1.085 USD per euro + 5 USD.
    revenue: { total_cents: 3920, currency: 'USD', conversion_count: 3, unconverted: [] },
    client_revenue: null,
    latest_session_id: await visitIdOf(desktop),
  });

  it('merges both browsers into one row with whole-window figures (default window: last 7 days)', async () => {
    const response = await (await newClient()).goalVisitors('signup', { site_id: site.snippet_key });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      goal_name: 'signup',
      from: '2026-04-05',
      to: '2026-04-11',
      page: 1,
      page_size: 50,
      has_more: false,
      total_count: 1,
      identity_merge_complete: true,
    });
    expect(body.visitors).toEqual([await expectedRow()]);
    const initials = body.visitors[0].label.name
      .split(' ')
      .map((word: string) => word[0])
      .join('');
    expect(body.visitors[0].label.initials).toBe(initials);
  });

  it('calls a person new when their first visit falls inside the window', async () => {
    const response = await (await newClient()).goalVisitors('signup', {
      site_id: site.snippet_key,
      from: '2026-03-25',
      to: '2026-04-11',
    });
    expect(response.json().visitors[0]).toMatchObject({ is_new: true, session_count: 3, pageviews: 3 });
  });

  it('shows the profile behind a handle: the row, visits and conversions newest first', async () => {
    const client = await newClient();
    const { visitors } = (await client.goalVisitors('signup', { site_id: site.snippet_key })).json();
    const handle = visitors[0].handle as string;
    const response = await client.profile(handle);
    expect(response.statusCode).toBe(200);
    const profile = response.json();
    expect(profile).toMatchObject({
      ...(await expectedRow()),
      handle,
      label: visitors[0].label,
      from: '2026-04-05',
      to: '2026-04-11',
      identity_merge_complete: true,
    });
    expect(profile.visits.map((v: { id: string }) => v.id)).toEqual([
      await visitIdOf(desktop),
      await visitIdOf(iphone),
    ]);
    expect(profile.visits[1]).toMatchObject({
      started_at: '2026-04-06T10:00:00.000Z',
      pageviews: 1,
      active_time_sec: 30,
      entry: { ai_source: 'chatgpt', url: LANDING },
      device: { device_type: 'mobile', os: 'iOS', browser: 'Safari' },
      location: { country_code: 'DE', city: '' },
    });
    expect(profile.conversions).toEqual([
      {
        event_id: 'order-1',
        name: 'signup',
        occurred_at: '2026-04-09T08:00:00.000Z',
        value_cents: 500,
        currency: 'USD',
        display_value: 5,
        rate_day: null,
      },
      expect.objectContaining({ name: 'purchase', value_cents: 2000, currency: 'EUR' }),
      expect.objectContaining({ name: 'signup', value_cents: 1250, currency: 'USD' }),
    ]);
    // The same person always has the same handle and label.
    const again = (await client.goalVisitors('purchase', { site_id: site.snippet_key })).json();
    expect(again.visitors[0]).toMatchObject({ handle, label: visitors[0].label });
  });

  it('narrows the profile to the window asked for', async () => {
    const client = await newClient();
    const { visitors } = (await client.goalVisitors('signup', { site_id: site.snippet_key })).json();
    const response = await client.profile(visitors[0].handle, { from: '2026-04-09', to: '2026-04-11' });
    expect(response.json()).toMatchObject({
      session_count: 0,
      latest_session_id: null,
      entry: { ai_source: '', url: '' },
      revenue: { total_cents: 500, conversion_count: 1 },
      visits: [],
    });
  });
});
