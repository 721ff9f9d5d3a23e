/**
 * The people reports' ClickHouse reads equal their PostgreSQL reads over generated traffic
 * (sources, countries, devices, goals, `?ref=` entries, visitors merged by identify): the
 * listing walked page by page for each filter, and the window summaries of every visitor id,
 * first with everything copied, then with newer visits, links and visit updates not yet copied.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClickHouse } from '../clickhouse/connection.js';
import { CHROME_UA, collect, IPHONE_UA, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { readClickHouse } from '../reporting/clickhouse/ch-read.js';
import { filterSql } from '../reporting/filter.sql.js';
import { type Filter, parseFilters } from '../reporting/filters.js';
import { bearer, useTestApp } from '../test/app.js';
import { chdbInstalled, copyEverything } from '../test/clickhouse.js';
import { insertSite } from '../test/factories.js';
import { seeded } from '../test/seeded.js';
import { chFindGoalPeople } from './goal-people.ch.query.js';
import { findGoalPeople } from './goal-people.query.js';
import type { PeopleCursor } from './people-cursor.js';
import { chFindPeoplePage } from './people-listing.ch.query.js';
import { findPeoplePage, type ListedPerson } from './people-listing.query.js';
import { createVisitorsService } from './visitors.service.js';
import { chSummariseWindowVisits } from './window-visit-summaries.ch.query.js';
import { summariseWindowVisits } from './window-visit-summaries.query.js';

const DAY = 86_400_000;
const FIRST_DAY = Date.parse('2026-03-02T00:00:00Z');
const DAYS = 8;
const REFERRERS = ['', 'https://chatgpt.com/', 'https://www.google.com/', 'https://t.co/x'];
const PAGES = ['/', '/pricing', '/docs/a', '/?ref=launch', '/?ref=mail'];
const COUNTRIES = ['DE', 'US', 'NP', ''];
const FILTERS: unknown[][] = [
  [],
  [['is', 'visit:channel', ['ai']]],
  [['is', 'visit:country', ['NP', 'DE']]],
  [['is', 'event:page', ['/pricing']]],
  [['is', 'event:goal', ['signup']]],
  [['not', ['is', 'visit:device', ['Desktop', 'desktop']]]],
];
const WINDOWS = [
  { start: FIRST_DAY, end: FIRST_DAY + DAYS * DAY },
  { start: FIRST_DAY + 2 * DAY, end: FIRST_DAY + 5 * DAY },
];

describe.runIf(chdbInstalled)('the people reports read ClickHouse as they read PostgreSQL', () => {
  const t = useTestApp({ TRUST_PROXY: 'true', INGEST_RATE_LIMIT: '0' }, { clickhouse: true });
  let site: Awaited<ReturnType<typeof insertSite>>;
  const random = seeded(20260302);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const visitors = Array.from({ length: 30 }, newVisitorId);
  /** The latest visit sent: continued after copying, so its newer version is not yet copied. */
  let latest = { vid: '', at: 0 };

  async function visit(vid: string, start: number) {
    const headers: Record<string, string> = { 'cf-ipcountry': pick(COUNTRIES) };
    const userAgent = random() < 0.4 ? IPHONE_UA : CHROME_UA;
    const send = async (at: number, payload: Record<string, unknown>) => {
      t.clock.set(new Date(at));
      const response = await collect(t, { site: site.snippet_key, ...payload }, { userAgent, headers });
      expect(response.statusCode, response.body).toBe(202);
    };
    const url = (path: string) => `https://shop.example.com${path}`;
    let at = start;
    for (let i = 1 + Math.floor(random() * 3); i > 0; i--) {
      await send(at, pageview(site.snippet_key, vid, url(pick(PAGES)), pick(REFERRERS)));
      at += Math.floor(random() * 5 * 60_000);
    }
    latest = { vid, at };
    if (random() < 0.5) await send(at, { type: 'engagement', vid, url: url('/'), engaged_ms: 12_000 });
    if (random() < 0.3) await send(at, { type: 'event', vid, url: url('/'), name: 'signup' });
    if (random() < 0.3)
      await send(at, { type: 'identify', vid, url: url('/'), uid: `user-${pick([1, 2, 3, 4])}` });
  }

  async function sendVisits(count: number, from: number, days: number) {
    const starts = Array.from(
      { length: count },
      () => [pick(visitors), from + Math.floor(random() * days * DAY)] as const,
    ).sort((a, b) => a[1] - b[1]);
    for (const [vid, start] of starts) {
      await visit(vid, start);
      if (random() < 0.3) await serverEvent(vid, start + 2 * 60 * 60_000);
    }
  }

  /** A completion from the server: by visitor id (with or without a visit then), or by person only. */
  async function serverEvent(vid: string, at: number) {
    const who = pick([{ visitor_id: vid }, { user_id: `user-${pick([1, 2, 3, 9])}` }]);
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/server/events',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, name: 'signup', timestamp: new Date(at).toISOString(), ...who },
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  }

  const readers = () => {
    const failures: unknown[] = [];
    const clickhouse = {
      ch: t.clickhouse as ClickHouse,
      onFailure: (error: unknown) => failures.push(error),
    };
    return { db: t.database.db, clickhouse, failures };
  };

  /** Every page of the listing by both engines, three people a page, for each window and filter. */
  async function compareListings() {
    for (const window of WINDOWS)
      for (const filters of FILTERS) {
        const filter: Filter = { op: 'and', filters: parseFilters(filters) };
        let after: PeopleCursor | null = null;
        for (let page = 0; page < 50; page++) {
          const q = { siteId: site.id, start: new Date(window.start), end: new Date(window.end) };
          const query = { ...q, sort: 'visits' as const, after, limit: 3 };
          const { failures, ...both } = readers();
          const byClickHouse = await readClickHouse(both, site.id, null, (ch, scope) =>
            chFindPeoplePage(ch, scope, { ...query, filter }),
          );
          const byPostgres = await findPeoplePage(t.database.db, {
            ...query,
            currency: 'EUR',
            visitMatches: filterSql(filter),
          });
          expect(failures).toEqual([]);
          expect(byClickHouse, JSON.stringify({ filters, page })).toEqual(byPostgres);
          const last: ListedPerson | undefined = byPostgres.at(-1);
          if (byPostgres.length < 3 || !last) break;
          after = { value: last.sortValue, person: last.person };
        }
      }
  }

  /** The listing's pages and their rows through the service, with ClickHouse and without. */
  async function compareService() {
    const { failures, ...both } = readers();
    const deps = {
      db: t.database.db,
      clock: t.clock,
      sites: { resolveSite: async () => ({ id: site.id, currency: 'EUR' }) } as never,
      secretKey: t.config.secretKey as string,
    };
    const withClickHouse = createVisitorsService({ ...deps, clickhouse: both.clickhouse });
    const alone = createVisitorsService(deps);
    const principal = {} as never;
    // Cursors are sealed afresh each time: each service walks its own, and the pages must agree.
    for (const sort of ['visits', 'last_seen'] as const) {
      const cursors: [string | undefined, string | undefined] = [undefined, undefined];
      for (let page = 0; page < 50; page++) {
        const input = { siteId: site.snippet_key, from: '2026-03-02', to: '2026-03-09', sort, limit: 4 };
        const answer = await withClickHouse.listPeople(principal, { ...input, before: cursors[0] });
        const expected = await alone.listPeople(principal, { ...input, before: cursors[1] });
        const unsealed = (a: typeof answer) => ({ ...a, next_before: a.next_before !== null });
        expect(unsealed(answer), JSON.stringify({ sort, page })).toEqual(unsealed(expected));
        if (!answer.next_before || !expected.next_before) break;
        cursors.splice(0, 2, answer.next_before, expected.next_before);
      }
    }
    const goal = { siteId: site.snippet_key, goalName: 'signup', from: '2026-03-02', to: '2026-03-09' };
    expect(await withClickHouse.listGoalVisitors(principal, goal)).toEqual(
      await alone.listGoalVisitors(principal, goal),
    );
    expect(failures).toEqual([]);
  }

  /** The goal's people, page after page and one page past the end, by both engines. */
  async function compareGoalPeople() {
    for (const window of WINDOWS)
      for (let offset = 0; ; offset += 4) {
        const q = {
          goalName: 'signup',
          start: new Date(window.start),
          end: new Date(window.end),
          limit: 4,
          offset,
        };
        const { failures, ...both } = readers();
        const byClickHouse = await readClickHouse(both, site.id, null, (ch, scope) =>
          chFindGoalPeople(ch, scope, q),
        );
        const byPostgres = await findGoalPeople(t.database.db, { ...q, siteId: site.id });
        expect(failures).toEqual([]);
        expect(byClickHouse, JSON.stringify({ offset })).toEqual(byPostgres);
        if (offset === 0) expect(byPostgres.totalCount).toBeGreaterThan(4);
        if (byPostgres.people.length === 0) break;
      }
  }

  async function compareSummaries() {
    for (const window of WINDOWS) {
      const q = {
        siteId: site.id,
        visitorIds: visitors,
        start: new Date(window.start),
        end: new Date(window.end),
      };
      const { failures, ...both } = readers();
      const byClickHouse = await readClickHouse(both, site.id, null, (ch, scope) =>
        chSummariseWindowVisits(ch, scope, t.database.db, q),
      );
      expect(failures).toEqual([]);
      expect(byClickHouse).not.toBeNull();
      expect(byClickHouse?.size).toBeGreaterThan(0);
      expect(byClickHouse).toEqual(await summariseWindowVisits(t.database.db, q));
    }
  }

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'shop.example.com' });
    await sendVisits(70, FIRST_DAY, DAYS - 2);
    const engine = t.app.services.clickhouseEngine;
    if (engine) await copyEverything(t.database.db, engine.shipper);
  }, 300_000);

  it('answers the listing and the summaries, with everything copied', async () => {
    const { failures, ...both } = readers();
    const page = await readClickHouse(both, site.id, null, (ch, scope) =>
      chFindPeoplePage(ch, scope, {
        siteId: site.id,
        start: new Date(FIRST_DAY),
        end: new Date(FIRST_DAY + DAYS * DAY),
        sort: 'visits',
        after: null,
        limit: 5,
        filter: { op: 'and', filters: [] },
      }),
    );
    expect(failures).toEqual([]);
    expect(page?.length).toBe(5);
    await compareListings();
    await compareSummaries();
    await compareGoalPeople();
    await compareService();
  }, 120_000);

  it('answers alike with recent visits, links and updates not yet copied', async () => {
    const { vid, at } = latest;
    t.clock.set(new Date(at + 60_000));
    const more = pageview(site.snippet_key, vid, 'https://shop.example.com/pricing');
    expect((await collect(t, more)).statusCode).toBe(202);
    await sendVisits(25, FIRST_DAY + (DAYS - 2) * DAY, 2);
    const tail = await t.database.db
      .selectFrom('visits')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('site_id', '=', site.id)
      .where('started_at', '>=', new Date(FIRST_DAY + (DAYS - 2) * DAY))
      .executeTakeFirstOrThrow();
    expect(Number(tail.n)).toBeGreaterThan(0);
    await compareListings();
    await compareSummaries();
    await compareGoalPeople();
    await compareService();
  }, 300_000);

  it('leaves the last_seen and revenue sorts to PostgreSQL', async () => {
    const { failures, ...both } = readers();
    for (const sort of ['last_seen', 'revenue'] as const) {
      const page = await readClickHouse(both, site.id, null, (ch, scope) =>
        chFindPeoplePage(ch, scope, {
          siteId: site.id,
          start: new Date(FIRST_DAY),
          end: new Date(FIRST_DAY + DAYS * DAY),
          sort,
          after: null,
          limit: 5,
          filter: { op: 'and', filters: [] },
        }),
      );
      expect(page).toBeNull();
    }
    expect(failures).toEqual([]);
  });
});
