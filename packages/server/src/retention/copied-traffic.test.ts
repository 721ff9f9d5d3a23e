/**
 * PostgreSQL kept short (copied-traffic-purge.ts): copied pageviews past the days PostgreSQL
 * keeps leave it, conversion records and visits stay, and the reports over those days answer
 * the same from ClickHouse. When ClickHouse cannot answer, a range PostgreSQL no longer holds
 * whole is refused with 503 `unavailable`, never answered short. A person's erasure and a
 * site's own retention still reach the rows only ClickHouse holds.
 */
import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../access/principal.js';
import type { ClickHouse } from '../clickhouse/connection.js';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { DAY_MS } from '../lib/clock.js';
import { type SeededPerson, seedPerson } from '../privacy/privacy.fixtures.js';
import { parseFilters } from '../reporting/filters.js';
import { planMetrics } from '../reporting/metric-rules.js';
import { answerStatsQuery, type StatsQuery } from '../reporting/planner.js';
import { createSiteExportService } from '../site-export/site-export.service.js';
import { bearer, useTestApp } from '../test/app.js';
import { chdbInstalled, copyEverything } from '../test/clickhouse.js';
import { insertSite } from '../test/factories.js';
import { firstWholeRawDay } from './retention-limits.js';

const NOW = new Date('2026-04-15T12:00:00Z');
const PG_DAYS = 14;

describe.runIf(chdbInstalled)('copied traffic leaves PostgreSQL', () => {
  const t = useTestApp({ TRAFFIC_PG_RETENTION_DAYS: String(PG_DAYS) }, { clickhouse: true });
  let site: Awaited<ReturnType<typeof insertSite>>;
  let ada: SeededPerson;
  const ch = () => t.clickhouse as ClickHouse;
  const db = () => t.database.db;

  const ask = async (payload: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/stats/query',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, ...payload },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    return { results: body.results, engine: body.meta.engine };
  };
  const QUERIES = [
    {
      metrics: ['visitors', 'visits', 'pageviews'],
      dimensions: ['event:page'],
      date_range: ['2026-03-01', '2026-03-31'],
    },
    {
      metrics: ['visits', 'bounce_rate'],
      dimensions: ['visit:channel'],
      date_range: ['2026-03-02', '2026-03-02'],
      timezone: 'Asia/Kathmandu',
    },
    { metrics: ['pageviews'], dimensions: ['time:hour'], date_range: ['2026-03-02', '2026-03-02'] },
  ];
  const pgEvents = (type: string, before: Date) =>
    db()
      .selectFrom('events')
      .select('event_id')
      .where('site_id', '=', site.id)
      .where('type', '=', type as 'pageview')
      .where('occurred_at', '<', before)
      .execute();
  /** Stored copies in ClickHouse (no FINAL: every version counts) matching `where`. */
  const copies = async (table: string, where: string, params: Record<string, unknown> = {}) => {
    const result = await ch().client.query({
      query: `SELECT count() AS n FROM ${ch().database}.${table} WHERE site_id = {site:UUID} AND ${where}`,
      query_params: { site: site.id, ...params },
      format: 'JSONEachRow',
    });
    return Number(((await result.json()) as { n: string }[])[0]?.n);
  };
  let before: Awaited<ReturnType<typeof ask>>[];
  const holdsFrom = async () =>
    (
      await db()
        .selectFrom('clickhouse_ship_cursors')
        .select('pg_holds_from')
        .where('stream', '=', 'events')
        .executeTakeFirst()
    )?.pg_holds_from;
  const get = async (url: string) => {
    const response = await t.request({ method: 'GET', url, headers: bearer(t.owner.apiKey) });
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };
  const WINDOW = { from: '2026-03-01', to: '2026-04-15' };
  const siteExport = async () =>
    (
      await get(
        `/v1/sites/${site.snippet_key}/export?${new URLSearchParams({ ...WINDOW, records: 'events' })}`,
      )
    ).body;
  const eventsListing = async () =>
    (
      await get(`/v1/events?${new URLSearchParams({ site_id: site.snippet_key, ...WINDOW, limit: '100' })}`)
    ).json();
  /** An access request for the person: what it matched, and its export less the request's own fields. */
  const accessOf = async (person: SeededPerson) => {
    const created = await t.request({
      method: 'POST',
      url: '/v1/privacy/requests',
      headers: bearer(t.owner.apiKey),
      payload: {
        site_id: site.snippet_key,
        type: 'access',
        subject: { kind: 'user_id', value: person.userId },
      },
    });
    expect(created.statusCode, created.body).toBe(202);
    await t.app.services.privacyJobs.runPrivacyOnce();
    const {
      request_id: _id,
      generated_at: _at,
      ...doc
    } = (await get(`/v1/privacy/requests/${created.json().id}/export`)).json();
    return { matched: created.json().matched, doc };
  };
  let beforeExports: { site: string; listing: unknown; bob: Awaited<ReturnType<typeof accessOf>> };
  let bob: SeededPerson;

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'short.example.com' });
    ada = await seedPerson(t, site, t.owner.apiKey, 'ada', new Date('2026-03-02T09:00:00Z'));
    bob = await seedPerson(t, site, t.owner.apiKey, 'bob', new Date('2026-03-02T15:00:00Z'));
    for (const [at, path, ref] of [
      ['2026-03-20T10:00:00Z', '/docs', 'https://www.google.com/'],
      ['2026-04-14T10:00:00Z', '/recent', 'https://www.perplexity.ai/'],
    ] as const) {
      t.clock.set(new Date(at));
      const vid = newVisitorId();
      const response = await collect(
        t,
        pageview(site.snippet_key, vid, `https://${site.domain}${path}`, ref),
      );
      expect(response.statusCode, response.body).toBe(202);
    }
    t.clock.set(NOW);
    await t.app.services.attribution.runUntilIdle();
    await t.app.services.statsRollups.runOnce();
    const engine = t.app.services.clickhouseEngine;
    if (!engine) throw new Error('the app runs without ClickHouse');
    await copyEverything(db(), engine.shipper);
    before = [];
    for (const query of QUERIES) before.push(await ask(query));
    beforeExports = { site: await siteExport(), listing: await eventsListing(), bob: await accessOf(bob) };
  }, 120_000);

  it('deletes copied pageviews past the days PostgreSQL keeps, and records from when it holds them', async () => {
    const purge = t.app.services.retention.purgeCopiedTraffic;
    if (!purge) throw new Error('the purge runs only with ClickHouse on');
    const cutoff = new Date(NOW.getTime() - PG_DAYS * DAY_MS);
    const conversions = await pgEvents('event', cutoff);
    expect((await pgEvents('pageview', cutoff)).length).toBeGreaterThan(0);
    // The first run only says from when PostgreSQL holds the traffic: a report that checked
    // before it may be reading PostgreSQL now. The next run deletes up to that moment.
    const first = await purge();
    expect(first).toEqual({ deleted: 0, finished: true });
    expect(await holdsFrom()).toEqual(cutoff);
    expect((await pgEvents('pageview', cutoff)).length).toBeGreaterThan(0);
    const run = await purge();
    expect(run.finished).toBe(true);
    expect(run.deleted).toBeGreaterThan(0);
    expect(await pgEvents('pageview', cutoff)).toEqual([]);
    expect(await pgEvents('identify', cutoff)).toEqual([]);
    // Conversion records stay (money and properties are read from PostgreSQL), as do visits
    // and the recent pageview.
    expect(conversions.length).toBeGreaterThan(0);
    expect(await pgEvents('event', cutoff)).toEqual(conversions);
    expect((await pgEvents('pageview', NOW)).length).toBe(1);
    const visits = await db().selectFrom('visits').select('id').where('site_id', '=', site.id).execute();
    expect(visits.length).toBeGreaterThan(4);
    expect(await holdsFrom()).toEqual(cutoff);
    // Nothing was queued for ClickHouse: its copies stay.
    const queued = await db()
      .selectFrom('clickhouse_deletions')
      .select('id')
      .where('site_id', '=', site.id)
      .execute();
    expect(queued).toEqual([]);
    expect(
      await copies('events', "type = 'pageview' AND occurred_at < {cutoff:DateTime64(3, 'UTC')}", {
        cutoff: '2026-04-01 12:00:00.000',
      }),
    ).toBeGreaterThan(0);
    // A second run finds nothing more.
    expect((await purge()).deleted).toBe(0);
  });

  it('answers the reports over those days from ClickHouse as before', async () => {
    for (const [i, query] of QUERIES.entries()) {
      const after = await ask(query);
      expect(after.results, JSON.stringify(query)).toEqual(before[i]?.results);
      expect(after.results.length, JSON.stringify(query)).toBeGreaterThan(0);
    }
  });

  it("exports the site's events, lists them and answers a person's access request as before", async () => {
    const exported = await siteExport();
    expect(exported).toEqual(beforeExports.site);
    expect(exported).toContain('"type":"pageview"');
    expect(await eventsListing()).toEqual(beforeExports.listing);
    const access = await accessOf(bob);
    expect(access.matched).toEqual(beforeExports.bob.matched);
    expect(access.matched.events).toBeGreaterThan(2);
    expect(access.doc).toEqual(beforeExports.bob.doc);
    expect(access.doc.events.map((event: { type: string }) => event.type)).toContain('pageview');
  });

  it('refuses an export of days PostgreSQL no longer holds when no ClickHouse is there to read them', async () => {
    const services = t.app.services;
    const withoutClickHouse = createSiteExportService({ db: db(), clock: t.clock, sites: services.sites });
    const principal: Principal = {
      kind: 'key',
      accountId: t.owner.accountId,
      keyId: 'export-check',
      createdBy: null,
      scopes: ['stats:read'],
      siteId: null,
    };
    await expect(
      withoutClickHouse.open(principal, site.snippet_key, { ...WINDOW, records: 'events' }),
    ).rejects.toMatchObject({ status: 503, code: 'unavailable' });
    // Visits and payments stay in PostgreSQL: their export goes on.
    await expect(
      withoutClickHouse.open(principal, site.snippet_key, { ...WINDOW, records: 'visits' }),
    ).resolves.toMatchObject({ format: 'ndjson' });
  });

  it('refuses with 503 a range PostgreSQL no longer holds when ClickHouse fails, and answers a later one', async () => {
    const away = createClient({
      url: 'http://127.0.0.1:9',
      request_timeout: 1000,
      log: { level: ClickHouseLogLevel.OFF },
    });
    const broken = { client: away, database: 'touchtrail', cluster: undefined, close: () => away.close() };
    const query = (from: string, to: string): StatsQuery => ({
      siteId: site.id,
      siteCurrency: 'EUR',
      model: 'last_touch',
      from,
      to,
      // Not a shape the rollups hold (whole UTC days): raw rows answer it.
      timezone: 'Asia/Kathmandu',
      dimensions: ['event:page'],
      metrics: ['pageviews'],
      filters: parseFilters([]),
      orderBy: [['pageviews', 'desc']],
      limit: null,
      offset: 0,
    });
    const readers = { db: db(), clickhouse: { ch: broken, onFailure: () => {} } };
    const answer = (q: StatsQuery) =>
      answerStatsQuery(readers, q, planMetrics(q.metrics, q.dimensions, q.filters), { withTotalRows: false });
    await expect(answer(query('2026-03-01', '2026-03-31'))).rejects.toMatchObject({
      status: 503,
      code: 'unavailable',
    });
    const recent = await answer(query('2026-04-10', '2026-04-15'));
    expect(recent.engine).toBe('postgres');
    expect(recent.rows.length).toBe(1);
    await away.close();
  });

  it("applies a site's own retention in ClickHouse to the rows only it holds", async () => {
    await db().updateTable('sites').set({ events_retention_days: 30 }).where('id', '=', site.id).execute();
    const purge = t.app.services.retention.purgeInClickHouse;
    if (!purge) throw new Error('the purge runs only with ClickHouse on');
    expect((await purge()).finished).toBe(true);
    const siteCutoff = "occurred_at < {cutoff:DateTime64(3, 'UTC')}";
    const cutoff = { cutoff: '2026-03-16 12:00:00.000' };
    expect(await copies('events', `type = 'pageview' AND ${siteCutoff}`, cutoff)).toBe(0);
    // Later pageviews, and conversion records (deleted through PostgreSQL's own purge), stay.
    expect(await copies('events', "type = 'pageview'")).toBe(2);
    expect(await copies('events', `type = 'event' AND ${siteCutoff}`, cutoff)).toBeGreaterThan(0);
    await db().updateTable('sites').set({ events_retention_days: null }).where('id', '=', site.id).execute();
  });

  it("erases a person's rows that only ClickHouse holds", async () => {
    const named = `(has({visitors:Array(String)}, ifNull(visitor_id, '')))`;
    expect(await copies('events', named, { visitors: ada.visitors })).toBeGreaterThan(0);
    const response = await t.request({
      method: 'POST',
      url: '/v1/privacy/requests',
      headers: bearer(t.owner.apiKey),
      payload: {
        site_id: site.snippet_key,
        type: 'erasure',
        subject: { kind: 'user_id', value: ada.userId },
      },
    });
    expect(response.statusCode, response.body).toBe(202);
    const run = await t.app.services.privacyJobs.runPrivacyOnce();
    expect(run, JSON.stringify(run)).toMatchObject({ completed: [response.json().id] });
    for (const table of ['events', 'visits', 'identity_links'])
      expect(await copies(table, named, { visitors: ada.visitors }), table).toBe(0);
  });

  it('keeps the rollup job from building again a day PostgreSQL no longer holds whole', () => {
    const site = { events_retention_days: null, visits_retention_days: null };
    expect(firstWholeRawDay(site, NOW)).toBe('2025-04-16');
    expect(firstWholeRawDay(site, NOW, new Date('2026-04-01T12:00:00Z'))).toBe('2026-04-02');
  });
});
