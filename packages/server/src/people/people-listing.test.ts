/**
 * `GET /v1/visitors` against the goal visitors suite's generated dataset (visitors.dataset.ts)
 * posted through the ingest endpoints, read page by page with the cursor and checked against an
 * independent computation over the generated data (people-listing.expected.ts): who is listed,
 * in which order for each sort and filter, and their figures.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { personKeyFor } from '../identity/person-key.js';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { type ListedPerson, type ListingModel, modelListing, type Sort } from './people-listing.expected.js';
import { createHandleCodec } from './visitor-handles.js';
import { type Dataset, dateOf, type GenVisit, generateDataset } from './visitors.dataset.js';
import type { DayWindow } from './visitors.expected.js';
import { SITE_HOST, seedDataset } from './visitors.seed.js';

const WINDOW: DayWindow = { fromDay: 5, toDay: 14 };

interface ListingPage {
  visitors: Record<string, unknown>[];
  from: string;
  to: string;
  next_before: string | null;
  identity_merge_complete: boolean;
}

describe('GET /v1/visitors over a generated dataset', () => {
  const t = useTestApp({ INGEST_RATE_LIMIT: '0', TRUST_PROXY: 'true' });
  let site: { id: string; snippet_key: string };
  let data: Dataset;
  let model: ListingModel;
  /** The person a handle names, by the model: handle → visit → browser → person. */
  let personOfHandle: (handle: string) => string;

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: SITE_HOST });
    data = generateDataset();
    await seedDataset(t, site, t.owner.apiKey, data);
    const secret = t.config.secretKey as string;
    model = modelListing(data, (uid) => personKeyFor(secret, uid));
    const codec = createHandleCodec(secret);
    const visits = await t.database.db
      .selectFrom('visits')
      .select(['id', 'visitor_id'])
      .where('site_id', '=', site.id)
      .execute();
    const browserOfVisit = new Map(visits.map((visit) => [visit.id, visit.visitor_id]));
    personOfHandle = (handle) => {
      const subject = codec.decode(handle);
      if (subject?.siteId !== site.id) return `not a handle of this site: ${handle}`;
      return model.personOf(browserOfVisit.get(subject.visitId) ?? 'unknown visit');
    };
  }, 600_000);

  const windowQuery = (w: DayWindow) => ({
    site_id: site.snippet_key,
    from: dateOf(w.fromDay),
    to: dateOf(w.toDay),
  });

  /** Every page, checking that each answers 200, that only the last has no cursor and each other is full. */
  async function readAll(query: Record<string, string>, limit: number): Promise<ListingPage[]> {
    // Each read gets its own key: the stats budget is 120 reads a minute per credential.
    const headers = bearer((await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] })).api_key);
    const pages: ListingPage[] = [];
    let before: string | null = null;
    do {
      const response = await t.request({
        method: 'GET',
        url: '/v1/visitors',
        headers,
        query: { ...query, limit: String(limit), ...(before ? { before } : {}) },
      });
      if (response.statusCode !== 200) throw new Error(`page ${pages.length + 1}: ${response.body}`);
      const page = response.json() as ListingPage;
      pages.push(page);
      before = page.next_before;
      if (before) expect(page.visitors).toHaveLength(limit);
    } while (before && pages.length < 1000);
    return pages;
  }

  const figuresOf = (row: Record<string, unknown>) => {
    const revenue = row.revenue as { total_cents: number; conversion_count: number; currency: string };
    return {
      person: personOfHandle(row.handle as string),
      last_seen: row.last_seen,
      session_count: row.session_count,
      pageviews: row.pageviews,
      active_time_sec: row.active_time_sec,
      is_new: row.is_new,
      conversion_count: revenue.conversion_count,
      total_cents: revenue.total_cents,
      currency: revenue.currency,
    };
  };
  const expectedFigures = (p: ListedPerson) => ({
    person: p.person,
    last_seen: new Date(p.lastSeenMs).toISOString(),
    session_count: p.session_count,
    pageviews: p.pageviews,
    active_time_sec: p.active_time_sec,
    is_new: p.is_new,
    conversion_count: p.conversion_count,
    total_cents: p.total_cents,
    currency: 'USD',
  });

  async function expectListing(query: Record<string, string>, limit: number, expected: ListedPerson[]) {
    const pages = await readAll(query, limit);
    expect(pages).toHaveLength(Math.max(1, Math.ceil(expected.length / limit)));
    for (const page of pages) expect(page.identity_merge_complete).toBe(true);
    const rows = pages.flatMap((page) => page.visitors).map(figuresOf);
    expect(new Set(rows.map((row) => row.person)).size).toBe(rows.length);
    expect(rows).toEqual(expected.map(expectedFigures));
    return pages;
  }

  const isAi = (visit: GenVisit) => visit.referrer.includes('chatgpt');
  const countryOf = (visit: GenVisit) => data.visitors.find((v) => v.id === visit.visitor)?.country;

  it('holds what the checks are about: merged people, ties in every sort, filters that pick some', () => {
    const all = model.list(WINDOW, 'last_seen');
    expect(all.length).toBeGreaterThan(900);
    expect(all.filter((p) => p.person.startsWith('p:')).length).toBeGreaterThan(100);
    const ties = (value: (p: ListedPerson) => number) => all.length - new Set(all.map(value)).size;
    expect(ties((p) => p.lastSeenMs)).toBeGreaterThan(100);
    expect(ties((p) => p.session_count)).toBeGreaterThan(100);
    expect(ties((p) => p.total_cents)).toBeGreaterThan(100);
    // Some people were last seen after the window: last_seen is their latest sighting ever.
    expect(all.some((p) => p.lastSeenMs > Date.parse(`${dateOf(WINDOW.toDay + 1)}T00:00:00Z`))).toBe(true);
    const ai = model.list(WINDOW, 'visits', isAi);
    expect(ai.length).toBeGreaterThan(200);
    expect(ai.length).toBeLessThan(all.length);
  });

  for (const sort of ['last_seen', 'visits', 'revenue'] as Sort[]) {
    it(`lists every person once, in ${sort} order, page after page`, async () => {
      const pages = await expectListing({ ...windowQuery(WINDOW), sort }, 100, model.list(WINDOW, sort));
      expect(pages[0]).toMatchObject({ from: dateOf(WINDOW.fromDay), to: dateOf(WINDOW.toDay) });
      expect(pages.at(-1)?.next_before).toBeNull();
    }, 120_000);
  }

  it('sorts by last_seen unless asked, and keeps the order across small pages', async () => {
    const expected = model.list(WINDOW, 'last_seen', (visit) => countryOf(visit) === 'JP');
    expect(expected.length).toBeGreaterThan(150);
    const filters = JSON.stringify([['is', 'visit:country', ['JP']]]);
    await expectListing({ ...windowQuery(WINDOW), filters }, 23, expected);
  }, 120_000);

  it('lists a person when one of their visits matches: the AI channel, a country, a group', async () => {
    const ai = JSON.stringify([['is', 'visit:channel', ['ai']]]);
    await expectListing(
      { ...windowQuery(WINDOW), filters: ai, sort: 'visits' },
      100,
      model.list(WINDOW, 'visits', isAi),
    );
    const aiFromFranceOrNotDirect = JSON.stringify([
      [
        'or',
        [
          ['is', 'visit:country', ['FR']],
          ['not', ['is', 'visit:channel', ['direct']]],
        ],
      ],
      ['is_not', 'visit:channel', ['search']],
    ]);
    const expected = model.list(
      WINDOW,
      'revenue',
      (visit) => (countryOf(visit) === 'FR' || visit.referrer !== '') && !visit.referrer.includes('google'),
    );
    await expectListing(
      { ...windowQuery(WINDOW), filters: aiFromFranceOrNotDirect, sort: 'revenue' },
      100,
      expected,
    );
  }, 120_000);

  it('defaults to the last 30 days up to today', async () => {
    // The seeding left the clock on the last generated day; 30 days back covers all 20.
    const headers = bearer((await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] })).api_key);
    const response = await t.request({
      method: 'GET',
      url: '/v1/visitors',
      headers,
      query: { site_id: site.snippet_key, sort: 'visits' },
    });
    expect(response.statusCode).toBe(200);
    const page = response.json() as ListingPage;
    expect(page).toMatchObject({ from: dateOf(19 - 29), to: dateOf(19), identity_merge_complete: true });
    const expected = model.list({ fromDay: -10, toDay: 19 }, 'visits').slice(0, 50);
    expect(page.visitors.map(figuresOf)).toEqual(expected.map(expectedFigures));
    expect(page.next_before).toEqual(expect.any(String));
  });

  it('answers an empty list for a window without visits, or a filter nobody matches', async () => {
    for (const query of [
      { site_id: site.snippet_key, from: '2025-01-01', to: '2025-01-31' },
      { ...windowQuery(WINDOW), filters: JSON.stringify([['is', 'visit:country', ['NZ']]]) },
    ]) {
      const [page] = await readAll(query, 50);
      expect(page).toMatchObject({ visitors: [], next_before: null, identity_merge_complete: true });
    }
  });

  it('sorts by revenue as the rows show it, values in other currencies converted', async () => {
    // From here on euros convert: 1 EUR = 1.0837 USD on every generated day.
    const perEuro = 1.0837;
    await t.database.db
      .insertInto('exchange_rates')
      .values({ day: dateOf(-1), currency: 'USD', per_euro: perEuro })
      .execute();
    const converting = modelListing(
      data,
      (uid) => personKeyFor(t.config.secretKey as string, uid),
      (cents) => Math.round((cents / 100) * perEuro * 100),
    );
    const expected = converting.list(WINDOW, 'revenue');
    expect(expected.some((p, i) => p.total_cents !== model.list(WINDOW, 'revenue')[i]?.total_cents)).toBe(
      true,
    );
    await expectListing({ ...windowQuery(WINDOW), sort: 'revenue' }, 100, expected);
  }, 120_000);
});
