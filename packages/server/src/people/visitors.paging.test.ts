/**
 * `GET /v1/goals/:name/visitors` against a generated dataset (visitors.dataset.ts) posted through
 * the ingest endpoints, checked page by page against an independent computation over the
 * generated data (visitors.expected.ts): who is listed, in which order, and their figures.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { personKeyFor } from '../identity/person-key.js';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { createHandleCodec } from './visitor-handles.js';
import { type Dataset, dateOf, generateDataset } from './visitors.dataset.js';
import {
  type DayWindow,
  type ExpectedPerson,
  expectGoalPeople,
  personOfVisitorIn,
} from './visitors.expected.js';
import { readAllPages, visitorsClient } from './visitors.fixtures.js';
import { SITE_HOST, seedDataset } from './visitors.seed.js';

const WINDOW: DayWindow = { fromDay: 5, toDay: 14 };

describe('GET /v1/goals/:name/visitors over a generated dataset', () => {
  const t = useTestApp({ INGEST_RATE_LIMIT: '0', TRUST_PROXY: 'true' });
  let site: { id: string; snippet_key: string };
  let data: Dataset;
  /** The person a handle names, by the model: handle → visit → browser → person. */
  let personOfHandle: (handle: string) => string;
  let expectFor: (goal: string, window: DayWindow) => ReturnType<typeof expectGoalPeople>;

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: SITE_HOST });
    data = generateDataset();
    await seedDataset(t, site, t.owner.apiKey, data);
    const secret = t.config.secretKey as string;
    const codec = createHandleCodec(secret);
    const personOfVisitor = personOfVisitorIn(data, (uid) => personKeyFor(secret, uid));
    const visits = await t.database.db
      .selectFrom('visits')
      .select(['id', 'visitor_id'])
      .where('site_id', '=', site.id)
      .execute();
    const browserOfVisit = new Map(visits.map((visit) => [visit.id, visit.visitor_id]));
    personOfHandle = (handle) => {
      const subject = codec.decode(handle);
      if (subject?.siteId !== site.id) return `not a handle of this site: ${handle}`;
      return personOfVisitor(browserOfVisit.get(subject.visitId) ?? 'unknown visit');
    };
    expectFor = (goal, window) => expectGoalPeople(data, goal, window, (uid) => personKeyFor(secret, uid));
  }, 600_000);

  const newClient = async () =>
    visitorsClient(t, bearer((await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] })).api_key));
  const windowQuery = (w: DayWindow) => ({
    site_id: site.snippet_key,
    from: dateOf(w.fromDay),
    to: dateOf(w.toDay),
  });
  const figuresOf = (row: Record<string, unknown>) => {
    const revenue = row.revenue as { total_cents: number; conversion_count: number; currency: string };
    return {
      person: personOfHandle(row.handle as string),
      session_count: row.session_count,
      pageviews: row.pageviews,
      active_time_sec: row.active_time_sec,
      is_new: row.is_new,
      conversion_count: revenue.conversion_count,
      total_cents: revenue.total_cents,
      currency: revenue.currency,
    };
  };
  const expectedFigures = (person: ExpectedPerson) => ({
    person: person.person,
    session_count: person.session_count,
    pageviews: person.pageviews,
    active_time_sec: person.active_time_sec,
    is_new: person.is_new,
    conversion_count: person.conversion_count,
    total_cents: person.total_cents,
    currency: 'USD',
  });

  it('holds what the rules are about: merged people, retries, completions without a visit in the window', () => {
    const inWindow = (day: number) => day >= WINDOW.fromDay && day <= WINDOW.toDay;
    const signups = data.events.filter((e) => e.name === 'signup' && inWindow(e.day));
    const listed = expectFor('signup', WINDOW);
    expect(data.visitors.length).toBeGreaterThanOrEqual(2000);
    expect(listed.length).toBeGreaterThan(300);
    expect(listed.filter((p) => p.person.startsWith('p:')).length).toBeGreaterThan(50);
    expect(signups.filter((e) => e.isRetried).length).toBeGreaterThan(10);
    expect(data.events.some((e) => !inWindow(e.day))).toBe(true);
    // Some people completed without a visit in the window; the report must leave them out.
    expect(listed.completers).toBeGreaterThan(listed.length);
    // Some listed people completed only through the server, so their visits had to be looked up.
    const personOf = personOfVisitorIn(data, (uid) => personKeyFor(t.config.secretKey as string, uid));
    const inBrowser = new Set(
      signups.flatMap((e) => (e.origin === 'browser' && e.visitor ? [personOf(e.visitor)] : [])),
    );
    expect(listed.filter((p) => !inBrowser.has(p.person)).length).toBeGreaterThan(0);
  });

  for (const pageSize of [100, 37]) {
    it(`lists every person once, in order, with page_size ${pageSize}`, async () => {
      const expected = expectFor('signup', WINDOW);
      const pages = await readAllPages(await newClient(), 'signup', windowQuery(WINDOW), pageSize);
      expect(pages).toHaveLength(Math.ceil(expected.length / pageSize));
      pages.forEach((page, index) => {
        const isLast = index === pages.length - 1;
        expect(page).toMatchObject({
          total_count: expected.length,
          has_more: !isLast,
          page: index + 1,
          page_size: pageSize,
          identity_merge_complete: true,
          from: dateOf(WINDOW.fromDay),
          to: dateOf(WINDOW.toDay),
        });
        if (!isLast) expect(page.visitors).toHaveLength(pageSize);
      });
      const rows = pages.flatMap((page) => page.visitors);
      expect(rows.map(figuresOf)).toEqual(expected.map(expectedFigures));
      // Reads every page of a few hundred people: slow on a busy two-core machine.
    }, 120_000);
  }

  it('counts people, not completions: total_count is below the number of completions', async () => {
    const expected = expectFor('signup', WINDOW);
    const response = await (await newClient()).goalVisitors('signup', {
      ...windowQuery(WINDOW),
      page_size: '1',
    });
    const completions = data.events.filter(
      (e) => e.name === 'signup' && e.day >= WINDOW.fromDay && e.day <= WINDOW.toDay,
    ).length;
    expect(response.json().total_count).toBe(expected.length);
    expect(expected.length).toBeLessThan(completions);
  });

  it('answers a page past the end with an empty list and the same total', async () => {
    const expected = expectFor('signup', WINDOW);
    const response = await (await newClient()).goalVisitors('signup', {
      ...windowQuery(WINDOW),
      page: '500',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      visitors: [],
      total_count: expected.length,
      has_more: false,
      page: 500,
      page_size: 50,
      identity_merge_complete: true,
    });
  });

  it('defaults to the last 7 days up to today, and lists another goal alike', async () => {
    // The seeding left the clock on the last generated day.
    const client = await newClient();
    const lastWeek = { fromDay: 13, toDay: 19 };
    const defaults = await readAllPages(client, 'signup', { site_id: site.snippet_key }, 100);
    expect(defaults[0]).toMatchObject({ from: dateOf(13), to: dateOf(19) });
    const expectedSignups = expectFor('signup', lastWeek);
    expect(defaults.flatMap((p) => p.visitors).map(figuresOf)).toEqual(expectedSignups.map(expectedFigures));

    const purchases = await readAllPages(client, 'purchase', windowQuery(WINDOW), 100);
    const expectedPurchases = expectFor('purchase', WINDOW);
    expect(expectedPurchases.length).toBeGreaterThan(20);
    expect(purchases.flatMap((p) => p.visitors).map(figuresOf)).toEqual(
      expectedPurchases.map(expectedFigures),
    );
  });

  it('returns an empty list, not 404, for a goal nobody completed in the window', async () => {
    const client = await newClient();
    for (const [goal, query] of [
      ['never_completed', windowQuery(WINDOW)],
      ['signup', { site_id: site.snippet_key, from: '2025-01-01', to: '2025-01-31' }],
    ] as const) {
      const response = await client.goalVisitors(goal, query);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        visitors: [],
        goal_name: goal,
        total_count: 0,
        has_more: false,
        identity_merge_complete: true,
      });
    }
  });
});
