/**
 * The session listing and detail read ClickHouse and answer as PostgreSQL alone does: over
 * generated traffic (visits starting at the same moment, pageviews of the same moment, goals,
 * server events with properties, payments tied to visits, people linked by identify), every page
 * of the listing under several filters and zones, with the same next cursors, and every
 * session's detail and trail. Once with everything copied, once with recent traffic not yet copied.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClickHouse } from '../clickhouse/connection.js';
import { CHROME_UA, collect, IPHONE_UA, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { readClickHouse } from '../reporting/clickhouse/ch-read.js';
import { parseFilters } from '../reporting/filters.js';
import { rangeInstants } from '../reporting/grain.sql.js';
import { bearer, useTestApp } from '../test/app.js';
import { chdbInstalled, copyEverything } from '../test/clickhouse.js';
import { rowsNotCopied } from '../test/clickhouse-lag.query.js';
import { insertSite } from '../test/factories.js';
import { seeded } from '../test/seeded.js';
import { chFindSessionRow, chListSessionRows } from './session-rows.ch.query.js';
import { chListTrailPageviews } from './session-trail.ch.query.js';
import { createVisitsService, type VisitsDeps } from './visits.service.js';

const FIRST_DAY = Date.parse('2026-03-27T00:00:00Z');
const MINUTE_MS = 60_000;
const PAGES = ['/', '/pricing', '/docs/a', '/Blog_100%'];
const REFERRERS = ['', 'https://chatgpt.com/', 'https://www.google.com/', 'https://t.co/x'];
const WINDOW = { from: '2026-03-26', to: '2026-04-02' };
const LISTINGS: { timezone: string; filters: unknown[]; converted?: 'true' | 'false' }[] = [
  { timezone: 'UTC', filters: [] },
  { timezone: 'Europe/Berlin', filters: [['is', 'visit:channel', ['ai']]] },
  { timezone: 'Asia/Kathmandu', filters: [['is', 'event:page', ['/pricing']]] },
  { timezone: 'UTC', filters: [['is_not', 'event:goal', ['signup']]] },
  { timezone: 'America/New_York', filters: [['matches', 'visit:entry_page', ['/docs/*']]] },
  { timezone: 'UTC', filters: [], converted: 'true' },
  { timezone: 'UTC', filters: [['is', 'event:props:plan', ['pro']]] },
];

describe.runIf(chdbInstalled)('sessions from ClickHouse', () => {
  const t = useTestApp({ TRUST_PROXY: 'true' }, { clickhouse: true });
  const random = seeded(20260327);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const failures: unknown[] = [];
  let site: { id: string; currency: string; snippet_key: string };
  let services: {
    postgres: ReturnType<typeof createVisitsService>;
    both: ReturnType<typeof createVisitsService>;
  };

  const send = async (at: number, payload: Record<string, unknown>, ua: string) => {
    t.clock.set(new Date(at));
    const response = await collect(t, { site: site.snippet_key, ...payload }, { userAgent: ua });
    expect(response.statusCode, response.body).toBe(202);
  };
  const server = async (at: number, url: string, payload: Record<string, unknown>) => {
    t.clock.set(new Date(at));
    const response = await t.app.inject({
      method: 'POST',
      url,
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, ...payload },
    });
    expect(response.statusCode, response.body).toBe(202);
  };

  /** A visit of 1–4 pageviews (two sometimes at one moment), maybe a goal, an identify, a payment. */
  async function visit(vid: string, start: number, n: number) {
    const ua = random() < 0.4 ? IPHONE_UA : CHROME_UA;
    const url = (path: string) => `https://shop.example.com${path}`;
    let at = start;
    const views = 1 + Math.floor(random() * 4);
    for (let i = 0; i < views; i++) {
      await send(
        at,
        pageview(site.snippet_key, vid, url(pick(PAGES)), i === 0 ? pick(REFERRERS) : url('/')),
        ua,
      );
      if (random() < 0.7) at += Math.floor(random() * 3 * MINUTE_MS);
    }
    if (random() < 0.4) await send(at, { type: 'event', vid, url: url('/'), name: 'signup' }, ua);
    if (random() < 0.3) await send(at, { type: 'identify', vid, url: url('/'), uid: `user-${n % 4}` }, ua);
    if (random() < 0.3)
      await server(at, '/v1/server/events', {
        name: 'renewal',
        visitor_id: vid,
        properties: { plan: 'pro' },
      });
    if (random() < 0.3)
      await server(at + MINUTE_MS, '/v1/server/payments', {
        transaction_id: `tx_${vid}_${n}`,
        amount: 19.9,
        currency: 'EUR',
        visitor_id: vid,
      });
  }

  /** Visits of 24 visitors over five days, a third of them back the next day, three starting at one moment. */
  async function traffic(from: number) {
    const visitors = Array.from({ length: 24 }, newVisitorId);
    const starts = visitors.flatMap((vid, i): [string, number][] => {
      const start = i < 3 ? from + 3 * 3_600_000 : from + Math.floor(random() * 4 * 86_400_000);
      return i % 3 === 0
        ? [
            [vid, start],
            [vid, start + 86_400_000],
          ]
        : [[vid, start]];
    });
    starts.sort((a, b) => a[1] - b[1]);
    for (const [i, [vid, start]] of starts.entries()) await visit(vid, start, i);
    t.clock.set(new Date(FIRST_DAY + 8 * 86_400_000));
  }

  beforeAll(async () => {
    const inserted = await insertSite(t, t.owner.accountId, { domain: 'shop.example.com' });
    const row = await t.database.db
      .selectFrom('sites')
      .select(['id', 'currency', 'snippet_key'])
      .where('id', '=', inserted.id)
      .executeTakeFirstOrThrow();
    site = row;
    const deps: VisitsDeps = {
      db: t.database.db,
      clock: t.clock,
      sites: { resolveSite: async () => row } as unknown as VisitsDeps['sites'],
      rates: t.app.services.rates,
      secretKey: t.config.secretKey as string,
    };
    const clickhouse = {
      ch: t.clickhouse as ClickHouse,
      onFailure: (error: unknown) => failures.push(error),
    };
    services = { postgres: createVisitsService(deps), both: createVisitsService({ ...deps, clickhouse }) };
    await traffic(FIRST_DAY);
  }, 300_000);

  const principal = {} as Parameters<ReturnType<typeof createVisitsService>['list']>[0];

  /** Every page of each listing, and every session's detail, from both services. */
  async function expectAlike() {
    const ids = new Set<string>();
    for (const listing of LISTINGS) {
      let before: string | undefined;
      do {
        const query = {
          site_id: site.snippet_key,
          ...WINDOW,
          timezone: listing.timezone,
          filters: JSON.stringify(listing.filters),
          limit: 4,
          ...(listing.converted ? { converted: listing.converted } : {}),
          ...(before ? { before } : {}),
        };
        const alone = await services.postgres.list(principal, query);
        expect(await services.both.list(principal, query), JSON.stringify(query)).toEqual(alone);
        for (const session of alone.sessions) ids.add(session.id);
        before = alone.next_before ?? undefined;
      } while (before);
    }
    expect(ids.size).toBeGreaterThan(20);
    const steps = new Set<string>();
    for (const id of ids) {
      const alone = await services.postgres.get(principal, id, site.snippet_key);
      expect(await services.both.get(principal, id, site.snippet_key)).toEqual(alone);
      for (const step of alone.trail) steps.add(step.type);
    }
    // The trails merge pageviews with conversions of every kind.
    expect([...steps].sort()).toEqual(['custom', 'pageview', 'payment', 'server']);
    expect(failures).toEqual([]);
  }

  /** A cursor a client made, between two milliseconds: PostgreSQL keeps microseconds. */
  async function expectMicrosecondCursorsAlike() {
    const { sessions } = await services.postgres.list(principal, {
      site_id: site.snippet_key,
      ...WINDOW,
      limit: 3,
    });
    const last = sessions.at(-1);
    if (!last) throw new Error('no sessions');
    const before = Buffer.from(`${last.started_at.slice(0, 23)}500|${last.id}`).toString('base64url');
    const query = { site_id: site.snippet_key, ...WINDOW, limit: 5, before };
    expect(await services.both.list(principal, query)).toEqual(
      await services.postgres.list(principal, query),
    );
  }

  /** ClickHouse itself answers the listing, a session and its pageviews (not PostgreSQL's fallback). */
  async function expectClickHouseAnswers() {
    const onFailure = (error: unknown) => {
      throw error;
    };
    const readers = { db: t.database.db, clickhouse: { ch: t.clickhouse as ClickHouse, onFailure } };
    const q = { siteId: site.id, ...WINDOW, timezone: 'UTC', filters: parseFilters([]), limit: 100 };
    const range = await rangeInstants(t.database.db, q);
    const rows = await readClickHouse(readers, site.id, null, (ch, scope) =>
      chListSessionRows(ch, scope, q, range),
    );
    expect(rows?.length).toBeGreaterThan(20);
    const first = rows?.[0]?.id as string;
    const found = await readClickHouse(readers, site.id, null, (ch, scope) =>
      chFindSessionRow(ch, scope, first),
    );
    expect(found?.session?.id).toBe(first);
    const trail = await readClickHouse(readers, site.id, null, (ch, scope) =>
      chListTrailPageviews(ch, scope, { visitId: first, limit: 10 }),
    );
    expect(trail?.length).toBeGreaterThan(0);
  }

  it('with everything copied', async () => {
    await copyEverything(t.database.db, t.app.services.clickhouseEngine?.shipper as never);
    await expectClickHouseAnswers();
    await expectAlike();
    await expectMicrosecondCursorsAlike();
  }, 300_000);

  it('with recent traffic not yet copied', async () => {
    await traffic(FIRST_DAY + 2 * 86_400_000);
    expect(await rowsNotCopied(t.database.db)).toBeGreaterThan(0);
    await expectClickHouseAnswers();
    await expectAlike();
  }, 300_000);
});
