/**
 * The funnel report's ClickHouse read equals its PostgreSQL read over the generated traffic of
 * funnels.dataset.ts (people merged by identify, server purchases by user id, the crafted
 * people of each rule: the window's edge, steps out of order; and hits at the same moment): funnels of pages and events,
 * windows, zones, breakdowns and filters (a step and a filter on an event property too), first with everything copied, then with the same
 * traffic sent again two days later and not yet copied.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClickHouse } from '../clickhouse/connection.js';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { readClickHouse } from '../reporting/clickhouse/ch-read.js';
import { parseFilters } from '../reporting/filters.js';
import { rangeInstants } from '../reporting/grain.sql.js';
import { bearer, useTestApp } from '../test/app.js';
import { chdbInstalled, copyEverything } from '../test/clickhouse.js';
import { insertSite } from '../test/factories.js';
import { chFunnelReport } from './funnel-report.ch.query.js';
import { type FunnelBreakdown, type FunnelReportQuery, funnelReport } from './funnel-report.query.js';
import type { FunnelStep } from './funnel-steps.js';
import { craftedPeople, generatePeople, REFERRERS, requestsOf } from './funnels.dataset.js';

const DAY_MS = 86_400_000;
const FUNNELS: { steps: FunnelStep[]; windowHours: number }[] = [
  {
    steps: [
      { type: 'page', match: 'matches', value: '/blog/*' },
      { type: 'page', match: 'is', value: '/pricing' },
      { type: 'event', name: 'signup' },
    ],
    windowHours: 48,
  },
  {
    steps: [
      { type: 'page', match: 'contains', value: 'PRIC' },
      { type: 'event', name: 'purchase' },
    ],
    windowHours: 168,
  },
  {
    steps: [
      { type: 'page', match: 'is', value: '/' },
      { type: 'page', match: 'is', value: '/' },
      { type: 'page', match: 'contains', value: 'blog' },
      { type: 'event', name: 'signup' },
      { type: 'event', name: 'purchase' },
    ],
    windowHours: 1,
  },
  {
    steps: [
      { type: 'page', match: 'is', value: '/pricing' },
      { type: 'event', name: 'signup', property: { key: 'plan', value: 'pro' } },
    ],
    windowHours: 24,
  },
];
const ZONES = ['UTC', 'Asia/Kathmandu', 'America/New_York'];
const BREAKDOWNS: (FunnelBreakdown | null)[] = [null, 'visit:channel', 'visit:ai_source'];
const FILTERS: unknown[][] = [
  [],
  [['is', 'visit:channel', ['ai']]],
  [['is', 'event:page', ['/docs']]],
  [['is_not', 'event:props:plan', ['free']]],
];

describe.runIf(chdbInstalled)('the funnel report reads ClickHouse as it reads PostgreSQL', () => {
  const t = useTestApp({}, { clickhouse: true });
  let site: Awaited<ReturnType<typeof insertSite>>;

  /** The dataset's requests, `shiftMs` later, posted (nothing is copied on the way). */
  async function send(shiftMs: number) {
    for (const request of requestsOf([...generatePeople(), ...craftedPeople()], site)) {
      const at = new Date(request.at.getTime() + shiftMs);
      t.clock.set(at);
      const response =
        request.via === 'collect'
          ? await collect(t, request.payload)
          : await t.app.inject({
              method: 'POST',
              url: '/v1/server/events',
              headers: bearer(t.owner.apiKey),
              payload: request.payload,
            });
      expect(response.statusCode, response.body).toBe(202);
    }
    await sendTies(Date.parse('2026-05-06T09:00:00Z') + shiftMs);
  }

  /**
   * One person on two browsers entering at the same moment from two visits (the smaller visit id
   * is the entry), step 2 at that same moment (not after step 1: not reached) and again later.
   */
  async function sendTies(at: number) {
    const [chatgpt, google] = [newVisitorId(), newVisitorId()];
    const url = (path: string) => `https://${site.domain}${path}`;
    const post = async (when: number, payload: Record<string, unknown>) => {
      t.clock.set(new Date(when));
      const response = await collect(t, { site: site.snippet_key, ...payload });
      expect(response.statusCode, response.body).toBe(202);
    };
    await post(at, pageview(site.snippet_key, chatgpt, url('/blog/funnels'), REFERRERS.chatgpt));
    await post(at, pageview(site.snippet_key, google, url('/blog/funnels'), REFERRERS.google));
    await post(at, pageview(site.snippet_key, chatgpt, url('/pricing'), url('/blog/funnels')));
    for (const vid of [chatgpt, google])
      await post(at + 1000, { type: 'identify', vid, url: url('/'), uid: 'crafted-ties' });
    await post(at + 2000, { type: 'event', vid: google, url: url('/blog/funnels'), name: 'signup' });
    await post(at + 3000, pageview(site.snippet_key, google, url('/pricing'), url('/blog/funnels')));
    await post(at + 3000, { type: 'event', vid: chatgpt, url: url('/pricing'), name: 'signup' });
  }

  async function compareAll() {
    let asked = 0;
    let reachedAny = 0;
    for (const funnel of FUNNELS)
      for (const timezone of ZONES)
        for (const breakdown of BREAKDOWNS)
          for (const filters of FILTERS) {
            if (breakdown && filters.length && timezone !== 'UTC') continue;
            const q: FunnelReportQuery = {
              siteId: site.id,
              ...funnel,
              from: '2026-05-01',
              to: '2026-05-10',
              timezone,
              breakdown,
              filters: parseFilters(filters),
            };
            const failures: unknown[] = [];
            const clickhouse = {
              ch: t.clickhouse as ClickHouse,
              onFailure: (e: unknown) => failures.push(String(e).slice(0, 400)),
            };
            const byClickHouse = await readClickHouse(
              { db: t.database.db, clickhouse },
              site.id,
              null,
              async (ch, scope) => chFunnelReport(ch, scope, q, await rangeInstants(t.database.db, q)),
            );
            expect(failures).toEqual([]);
            expect(byClickHouse).not.toBeNull();
            const sorted = (rows: typeof byClickHouse) =>
              [...(rows ?? [])].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
            const byPostgres = await funnelReport(t.database.db, q);
            expect(sorted(byClickHouse), JSON.stringify({ funnel, timezone, breakdown, filters })).toEqual(
              sorted(byPostgres),
            );
            asked++;
            if (byPostgres.some((row) => (row.reached[1] ?? 0) > 0)) reachedAny++;
          }
    expect(asked).toBeGreaterThan(20);
    expect(reachedAny).toBeGreaterThan(10);
  }

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId);
    await send(0);
    await copyEverything(t.database.db, t.app.services.clickhouseEngine?.shipper as never);
  }, 300_000);

  it('answers alike with everything copied', compareAll, 120_000);

  it('answers alike with newer traffic not yet copied', async () => {
    await send(2 * DAY_MS);
    await compareAll();
  }, 300_000);
});
