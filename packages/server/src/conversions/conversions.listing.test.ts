import { beforeAll, describe, expect, it } from 'vitest';
import { arrive, convert, serverEvent } from '../attribution/attribution.fixtures.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { HOUR_MS } from '../lib/clock.js';
import { useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

describe('GET /v1/conversions: rows', () => {
  const t = useTestApp({ TRUST_PROXY: 'true' });
  let site: Awaited<ReturnType<typeof insertSite>>;
  const ids: Record<string, string> = {};
  let vid: string;
  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'list.example.com' });
    t.clock.set(new Date('2026-03-10T09:00:00Z'));
    vid = newVisitorId();
    // Ten days ago, out of the default window: a signup from Perplexity.
    await arrive(t, site, vid, 'perplexity');
    ids.old = await convert(t, site, vid, 'signup');
    t.clock.set(new Date('2026-03-16T09:00:00Z'));
    await arrive(t, site, vid, 'chatgpt');
    t.clock.advance(HOUR_MS);
    await arrive(t, site, vid, 'search');
    ids.eur = await convert(t, site, vid, 'purchase', { value: 10, currency: 'EUR', props: { plan: 'pro' } });
    // Ten minutes later, still within the search visit.
    t.clock.advance(HOUR_MS / 6);
    ids.gbp = await convert(t, site, vid, 'purchase', {
      value: 5,
      currency: 'GBP',
      props: { note: 'x'.repeat(3000), a: 'y'.repeat(3000), b: 'z'.repeat(3000) },
    });
    t.clock.advance(2 * HOUR_MS);
    // A server event after the visit went idle: no visit of its own, so the last-touch visit shows.
    ids.server = await serverEvent(t, t.owner.apiKey, {
      site_id: site.snippet_key,
      name: 'signup',
      visitor_id: vid,
    });
    // The ECB rate of the 13th is the most recent one on or before the 16th.
    await t.database.db
      .insertInto('exchange_rates')
      .values({ day: '2026-03-13', currency: 'USD', per_euro: 1.1 })
      .execute();
    t.clock.set(new Date('2026-03-20T12:00:00Z'));
  });

  const list = async (query = '') => {
    const response = await t.request({
      method: 'GET',
      url: `/v1/conversions?site_id=${site.id}${query}`,
      headers: { cookie: t.owner.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const attribute = () => t.app.services.attribution.runUntilIdle();

  it('lists conversions of the default window newest first, with their visit, value and properties', async () => {
    const body = await list();
    expect(body.conversions.map((row: { event_id: string }) => row.event_id)).toEqual([
      ids.server,
      ids.gbp,
      ids.eur,
    ]);
    const [server, gbp, eur] = body.conversions;
    expect(eur).toEqual({
      event_id: ids.eur,
      timestamp: '2026-03-16T10:00:00.000Z',
      event_name: 'purchase',
      source_kind: 'non_ai',
      source_name: 'google.com',
      session_ai_source: 'search',
      country_code: '',
      ai_source: null,
      confidence: null,
      visitor_id_short: vid.slice(0, 8),
      value_cents: 1000,
      currency: 'EUR',
      display_value: 11,
      rate_day: '2026-03-13',
      properties: { plan: 'pro' },
    });
    expect(gbp).toMatchObject({ value_cents: 500, currency: 'GBP', display_value: null, properties: null });
    expect(server).toMatchObject({
      session_ai_source: 'search',
      value_cents: 0,
      currency: 'USD',
      display_value: null,
      properties: {},
    });
    expect(server.rate_day).toBeNull();
    expect(body).toMatchObject({ total_count: 3, has_more: false, display_currency: 'USD' });
    // The newest stored rate (the 13th) is seven days before the 20th: not yet stale.
    expect(body).toMatchObject({ rates_as_of: '2026-03-13', rates_stale: false });
    expect(body.event_names).toEqual([
      { name: 'purchase', count: 2 },
      { name: 'signup', count: 1 },
    ]);
  });

  it('shows the credited source under each model once attributed', async () => {
    await attribute();
    const lastTouch = (await list()).conversions.find(
      (row: { event_id: string }) => row.event_id === ids.eur,
    );
    expect(lastTouch).toMatchObject({ ai_source: 'search', confidence: 1 });
    const firstTouch = (await list('&attribution_model=first_touch')).conversions[2];
    // Perplexity's visit was ten days before: inside the 30-day look-back.
    expect(firstTouch).toMatchObject({ event_id: ids.eur, ai_source: 'perplexity', confidence: 1 });
    const linear = (await list('&attribution_model=linear')).conversions;
    expect(linear).toHaveLength(3);
    // Three visits, one each: a three-way tie, broken by name.
    expect(linear[2]).toMatchObject({ ai_source: 'chatgpt', confidence: 0.333333 });
    const decay = (await list('&attribution_model=time_decay')).conversions[2];
    // Ages 6 days 1 hour, 1 hour and 0: weights 2^(-145/168), 2^(-1/168) and 1.
    expect(decay.ai_source).toBe('search');
    expect(decay.confidence).toBeCloseTo(1 / (2 ** (-145 / 168) + 2 ** (-1 / 168) + 1), 5);
  });

  it('filters by source case-insensitively (total_count is then null) and by event name', async () => {
    const bySource = await list('&source=ChatGPT&attribution_model=linear');
    expect(bySource.conversions).toHaveLength(3);
    expect(bySource.total_count).toBeNull();
    const lastTouchOnly = await list('&source=SEARCH');
    expect(lastTouchOnly.conversions).toHaveLength(3);
    expect((await list('&source=perplexity')).conversions).toEqual([]);
    const byName = await list('&event_name=signup');
    expect(byName.conversions.map((row: { event_id: string }) => row.event_id)).toEqual([ids.server]);
    expect(byName.total_count).toBe(1);
    expect(byName.event_names).toHaveLength(2);
  });

  it('pages: has_more whenever a full page came back, then an empty page', async () => {
    const first = await list('&page_size=2');
    expect(first).toMatchObject({ page: 1, page_size: 2, has_more: true, total_count: 3 });
    expect(first.conversions).toHaveLength(2);
    const second = await list('&page_size=2&page=2');
    expect(second.conversions.map((row: { event_id: string }) => row.event_id)).toEqual([ids.eur]);
    expect(second.has_more).toBe(false);
    const exact = await list('&page_size=3');
    expect(exact.has_more).toBe(true);
    expect((await list('&page_size=3&page=2')).conversions).toEqual([]);
  });

  it('takes an explicit window', async () => {
    const march = await list(`&from=2026-03-01&to=${dayOf(t.clock.now())}`);
    expect(march.conversions.at(-1).event_id).toBe(ids.old);
    expect(march.total_count).toBe(4);
    const early = await list('&from=2026-03-10&to=2026-03-10');
    expect(early.conversions.map((row: { event_id: string }) => row.event_id)).toEqual([ids.old]);
    expect(early.event_names).toEqual([{ name: 'signup', count: 1 }]);
    expect((await list('&from=2026-03-21&to=2026-03-27')).conversions).toEqual([]);
  });

  it('says the rates are stale once the newest stored rate is more than seven days old', async () => {
    t.clock.set(new Date('2026-03-21T12:00:00Z'));
    expect(await list()).toMatchObject({ rates_as_of: '2026-03-13', rates_stale: true });
    t.clock.set(new Date('2026-03-20T12:00:00Z'));
  });
});
