/**
 * The two engines answer alike: over generated traffic (AI, search, social and direct visits,
 * several countries, devices and pages, goals, engagement, people linked by identify), part of
 * it copied to ClickHouse and the rest not yet, hundreds of random stats queries (every
 * dimension, each filter kind, every time bucket, zones with a 45-minute offset and a DST change
 * in the range) get the same rows from PostgreSQL alone and from ClickHouse with PostgreSQL's
 * uncopied rows, and the shapes ClickHouse holds are answered by it.
 */
import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClickHouse } from '../../clickhouse/connection.js';
import { CHROME_UA, collect, IPHONE_UA, newVisitorId, pageview } from '../../ingest/ingest.fixtures.js';
import { bearer, useTestApp } from '../../test/app.js';
import { chdbInstalled } from '../../test/clickhouse.js';
import { insertSite } from '../../test/factories.js';
import { seeded } from '../../test/seeded.js';
import { parseFilters } from '../filters.js';
import { planMetrics } from '../metric-rules.js';
import { answerStatsQuery, type StatsQuery } from '../planner.js';
import type { Dimension, Metric } from '../stats-vocabulary.js';
import { VISIT_DIMENSIONS, VISIT_METRICS } from '../stats-vocabulary.js';

const REFERRERS = [
  '',
  'https://chatgpt.com/',
  'https://www.perplexity.ai/search',
  'https://www.google.com/',
  'https://news.ycombinator.com/item?id=1',
  'https://t.co/x',
];
const PAGES = ['/', '/pricing', '/docs/a', '/docs/b', '/Blog_100%'];
const COUNTRIES = ['DE', 'US', 'NP', 'JP', ''];
const UTMS = ['', '?utm_source=newsletter&utm_medium=email&utm_campaign=spring', '?utm_source=chatgpt.com'];
const ZONES = ['UTC', 'Europe/Berlin', 'Asia/Kathmandu', 'America/New_York', 'Pacific/Chatham'];
/** The range holds Europe's spring clock change (2026-03-29). */
const FIRST_DAY = Date.parse('2026-03-26T00:00:00Z');
const DAYS = 6;

const FILTERS: unknown[][] = [
  [],
  [['is', 'visit:channel', ['ai']]],
  [['is_not', 'visit:channel', ['ai']]],
  [['is', 'visit:ai_source', ['chatgpt', 'perplexity']]],
  [['is', 'visit:country', ['NP', 'DE']]],
  [['contains', 'visit:referrer', ['GOOGLE']]],
  [['matches', 'visit:entry_page', ['/docs/*']]],
  [['is', 'visit:new_vs_returning', ['returning']]],
  [['is', 'visit:utm_source', ['newsletter']]],
  [['is', 'event:page', ['/pricing']]],
  [['is_not', 'event:page', ['/pricing']]],
  [['matches', 'event:page', ['/Blog_100%']]],
  [['is', 'event:goal', ['signup']]],
  [
    [
      'or',
      [
        ['is', 'visit:country', ['US']],
        ['is', 'visit:channel', ['ai']],
      ],
    ],
  ],
  [['not', ['is', 'visit:device', ['Desktop', 'desktop']]]],
  [['is', 'visit:exit_page', ['/pricing']]],
  [['is_not', 'visit:exit_page', ['/pricing', '/']]],
  [['is', 'event:props:plan', ['pro']]],
  [['is_not', 'event:props:plan', ['pro']]],
  [['contains', 'event:props:seats', ['.50']]],
  [['is', 'event:props:seats', ['1000000000000000000000']]],
  [['is', 'event:props:trial', ['true']]],
  [['is', 'event:props:note', ['say "hi"\n']]],
  [['is', 'event:props:coupon', ['SPRING']]],
];
/** Goal properties of each kind ingest takes, as PostgreSQL's `->>` must read them. */
const SIGNUP_PROPS: Record<string, readonly (string | number | boolean | null)[]> = {
  plan: ['pro', 'free'],
  seats: [1, 12.5, 1e21],
  trial: [true, false],
  note: ['say "hi"\n', 'café ☕'],
  coupon: [null, 'SPRING'],
};

describe.runIf(chdbInstalled)('ClickHouse and PostgreSQL answer alike', () => {
  const t = useTestApp({ TRUST_PROXY: 'true' }, { clickhouse: true });
  let site: Awaited<ReturnType<typeof insertSite>>;
  const random = seeded(20260329);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

  const send = async (at: number, payload: Record<string, unknown>, country: string, ua: string) => {
    t.clock.set(new Date(at));
    const headers: Record<string, string> = country ? { 'cf-ipcountry': country } : {};
    const response = await collect(t, { site: site.snippet_key, ...payload }, { userAgent: ua, headers });
    expect(response.statusCode, response.body).toBe(202);
  };

  async function visit(vid: string, start: number) {
    const country = pick(COUNTRIES);
    const ua = random() < 0.4 ? IPHONE_UA : CHROME_UA;
    const url = (path: string) => `https://shop.example.com${path}`;
    let at = start;
    const views = 1 + Math.floor(random() * 4);
    for (let i = 0; i < views; i++) {
      const ref = i === 0 ? pick(REFERRERS) : url('/');
      const utm = i === 0 ? pick(UTMS) : '';
      await send(at, pageview(site.snippet_key, vid, url(pick(PAGES)) + utm, ref), country, ua);
      at += Math.floor(random() * 5 * 60_000);
    }
    if (random() < 0.5)
      await send(
        at,
        { type: 'engagement', vid, url: url('/'), engaged_ms: Math.floor(random() * 40_000) },
        country,
        ua,
      );
    if (random() < 0.3) {
      const props = Object.fromEntries(
        Object.entries(SIGNUP_PROPS).map(([key, values]) => [key, pick(values)]),
      );
      await send(at, { type: 'event', vid, url: url('/'), name: 'signup', props }, country, ua);
    }
    if (random() < 0.2)
      await send(
        at,
        { type: 'identify', vid, url: url('/'), uid: `user-${Math.floor(random() * 5)}` },
        country,
        ua,
      );
  }

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'shop.example.com' });
    const visitors = Array.from({ length: 40 }, newVisitorId);
    const starts: [string, number][] = [];
    for (const vid of visitors)
      for (let n = 1 + Math.floor(random() * 3); n > 0; n--)
        starts.push([vid, FIRST_DAY + Math.floor(random() * DAYS * 86_400_000)]);
    starts.sort((a, b) => a[1] - b[1]);
    // Two thirds copied, the rest left to PostgreSQL, as on a live server between two rounds.
    const copiedUntil = Math.floor((starts.length * 2) / 3);
    for (const [i, [vid, start]] of starts.entries()) {
      await visit(vid, start);
      if (i === copiedUntil) await t.app.services.clickhouseEngine?.shipper.shipAll();
    }
    t.clock.set(new Date(FIRST_DAY + (DAYS + 1) * 86_400_000));
  }, 300_000);

  function randomQuery(): StatsQuery {
    const byPage = random() < 0.35;
    const time = pick(['time:hour', 'time:day', 'time:week', 'time:month', null] as const);
    const dimensions: Dimension[] = [];
    if (time && random() < 0.6) dimensions.push(time);
    if (byPage) dimensions.push('event:page');
    else if (random() < 0.8) dimensions.push(pick(VISIT_DIMENSIONS));
    if (byPage && random() < 0.3) dimensions.push(pick(VISIT_DIMENSIONS));
    const metrics: Metric[] = byPage
      ? ['visitors', 'visits', 'pageviews']
      : VISIT_METRICS.filter(() => random() < 0.6);
    if (metrics.length === 0) metrics.push('visitors');
    const day = (offset: number) => new Date(FIRST_DAY + offset * 86_400_000).toISOString().slice(0, 10);
    const from = Math.floor(random() * 3);
    return {
      siteId: site.id,
      siteCurrency: 'EUR',
      model: 'last_touch',
      from: day(from),
      to: day(from + 1 + Math.floor(random() * (DAYS - from))),
      timezone: pick(ZONES),
      dimensions,
      metrics,
      filters: parseFilters(pick(FILTERS)),
      orderBy: [[metrics[0] as string, 'desc']],
      limit: random() < 0.5 ? 5 : null,
      offset: 0,
    };
  }

  it('for every dimension, filter kind, time bucket and zone', async () => {
    const ch = t.clickhouse as ClickHouse;
    const db = t.database.db;
    let byClickHouse = 0;
    for (let i = 0; i < 200; i++) {
      const query = randomQuery();
      const plan = planMetrics(query.metrics, query.dimensions, query.filters);
      const options = { withTotalRows: true };
      const alone = await answerStatsQuery({ db }, query, plan, options);
      const failures: unknown[] = [];
      const both = await answerStatsQuery(
        { db, clickhouse: { ch, onFailure: (error) => failures.push(error) } },
        query,
        plan,
        options,
      );
      expect(failures, JSON.stringify(query)).toEqual([]);
      expect(alone.engine).toBe('postgres');
      expect({ rows: both.rows, total: both.totalRows }, JSON.stringify(query)).toEqual({
        rows: alone.rows,
        total: alone.totalRows,
      });
      if (both.engine === 'clickhouse') byClickHouse++;
    }
    expect(byClickHouse).toBeGreaterThan(120);
  }, 300_000);

  it('says which engine answered, in meta.engine', async () => {
    const ask = async (dimensions: string[], filters: unknown[] = []) => {
      const response = await t.request({
        method: 'POST',
        url: '/v1/stats/query',
        headers: bearer(t.owner.apiKey),
        payload: { site_id: site.snippet_key, metrics: ['visitors'], date_range: '30d', dimensions, filters },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().meta.engine;
    };
    expect(await ask(['event:page'])).toBe('clickhouse');
    expect(await ask(['visit:exit_page'])).toBe('clickhouse');
    expect(await ask(['event:page', 'visit:exit_page'])).toBe('clickhouse');
    expect(await ask([], [['is', 'event:props:plan', ['pro']]])).toBe('clickhouse');
  });

  it('answers from PostgreSQL when ClickHouse fails, with the same figures', async () => {
    const away = createClient({
      url: 'http://127.0.0.1:9',
      request_timeout: 1000,
      log: { level: ClickHouseLogLevel.OFF },
    });
    const broken = { client: away, database: 'touchtrail', cluster: undefined, close: () => away.close() };
    const query = randomQuery();
    const plan = planMetrics(query.metrics, query.dimensions, query.filters);
    const db = t.database.db;
    const failures: unknown[] = [];
    const answer = await answerStatsQuery(
      { db, clickhouse: { ch: broken, onFailure: (error) => failures.push(error) } },
      query,
      plan,
      { withTotalRows: false },
    );
    await away.close();
    expect(answer.engine).toBe('postgres');
    expect(failures.length).toBeGreaterThan(0);
    expect(answer.rows).toEqual((await answerStatsQuery({ db }, query, plan, { withTotalRows: false })).rows);
  });
});
