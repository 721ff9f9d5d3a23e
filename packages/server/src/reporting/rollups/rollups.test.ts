/**
 * The visit rollups: which days the job builds and when, that reports read them, that identity
 * links made later rebuild the days they change, that two builders at once write one copy, and
 * that people of a large day are estimated and said to be. The answers equal the raw ones
 * throughout stats.correctness.test.ts, which runs once over the rollups.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../../ingest/ingest.fixtures.js';
import { bearer, useTestApp } from '../../test/app.js';
import { insertSite } from '../../test/factories.js';
import { PeopleSketch, personHash } from './people-sketch.js';

describe('stats rollups', () => {
  // The rollups are PostgreSQL's source: with ClickHouse on, it answers these reports instead.
  const t = useTestApp({}, { clickhouse: false });
  /**
   * Job runs until nothing is left to build, as `npm run rollups` does: one run builds at most
   * 400 days across every site of the file, in an order the random site ids decide.
   */
  const run = async () => {
    const total = { built: 0, months: 0, stale: 0, waiting: 0, counted: 0 };
    for (;;) {
      const report = await t.app.services.statsRollups.runOnce();
      total.built += report.built;
      total.months += report.months;
      total.stale += report.stale;
      total.waiting = report.waiting;
      if (report.built + report.months === 0) return total;
    }
  };
  type Site = Awaited<ReturnType<typeof insertSite>>;

  const builtDays = async (site: Site) =>
    (
      await t.database.db
        .selectFrom('stats_rollup_days')
        .select(sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'))
        .where('site_id', '=', site.id)
        .orderBy('day')
        .execute()
    ).map((row) => row.day);

  const rollupRows = async (site: Site) =>
    Number(
      (
        await t.database.db
          .selectFrom('stats_visit_rollups')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('site_id', '=', site.id)
          .executeTakeFirstOrThrow()
      ).n,
    );

  const visit = async (site: Site, vid: string, at: string, path = '/', ref = '') => {
    t.clock.set(new Date(at));
    const response = await collect(t, pageview(site.snippet_key, vid, `https://${site.domain}${path}`, ref));
    expect(response.statusCode, response.body).toBe(202);
  };

  const query = async (site: Site, body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/stats/query',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, metrics: ['visitors', 'visits', 'pageviews'], ...body },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('builds each day once its visits have ended, and reads the built days from the rollups', async () => {
    const site = await insertSite(t, t.owner.accountId);
    await visit(site, newVisitorId(), '2026-04-01T10:00:00Z', '/', 'https://chatgpt.com/');
    const late = newVisitorId();
    await visit(site, late, '2026-04-01T23:50:00Z', '/pricing');
    // Still the same visit 30 minutes later, on the next day.
    await visit(site, late, '2026-04-02T00:20:00Z', '/docs');

    t.clock.set(new Date('2026-04-02T00:45:00Z'));
    await run();
    expect(await builtDays(site)).toEqual([]);
    t.clock.set(new Date('2026-04-02T00:51:00Z'));
    await run();
    expect(await builtDays(site)).toEqual(['2026-04-01']);
    await visit(site, newVisitorId(), '2026-04-02T09:00:00Z');

    const range = { date_range: ['2026-04-01', '2026-04-02'] };
    const before = await query(site, { ...range, dimensions: ['visit:channel'] });
    expect(before.results).toEqual([
      { dimensions: ['direct'], metrics: [2, 2, 3] },
      { dimensions: ['ai'], metrics: [1, 1, 1] },
    ]);
    // Without the raw visits of the built day the answer stands: it came from the rollups.
    await t.database.db
      .deleteFrom('visits')
      .where('site_id', '=', site.id)
      .where('started_at', '<', new Date('2026-04-02T00:00:00Z'))
      .execute();
    expect((await query(site, { ...range, dimensions: ['visit:channel'] })).results).toEqual(before.results);
    // A zone other than UTC, or an hourly series, reads the raw visits.
    const berlin = await query(site, { ...range, timezone: 'Europe/Berlin' });
    expect(berlin.results[0].metrics).toEqual([1, 1, 1]);
  });

  it('builds a day again when an identity link made later merges two of its visitors', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const phone = newVisitorId();
    const laptop = newVisitorId();
    await visit(site, phone, '2026-05-01T08:00:00Z');
    await visit(site, laptop, '2026-05-01T18:00:00Z');
    t.clock.set(new Date('2026-05-03T12:00:00Z'));
    await run();
    const day = { date_range: ['2026-05-01', '2026-05-01'] };
    expect((await query(site, day)).results[0].metrics).toEqual([2, 2, 2]);

    t.clock.set(new Date('2026-05-03T12:01:00Z'));
    for (const vid of [phone, laptop]) {
      const response = await collect(t, {
        type: 'identify',
        site: site.snippet_key,
        vid,
        url: `https://${site.domain}/account`,
        uid: 'customer-5521',
      });
      expect(response.statusCode).toBe(202);
    }
    // Not yet: a link is checked once it is certainly committed, five minutes on.
    t.clock.set(new Date('2026-05-03T12:02:00Z'));
    expect((await run()).stale).toBe(0);
    expect((await query(site, day)).results[0].metrics).toEqual([2, 2, 2]);
    t.clock.set(new Date('2026-05-03T12:07:00Z'));
    expect((await run()).stale).toBe(1);
    expect(await builtDays(site)).toEqual(['2026-05-01', '2026-05-02']);
    expect((await query(site, day)).results[0].metrics).toEqual([1, 2, 2]);
    // Each link is checked once: later runs leave the day alone.
    t.clock.set(new Date('2026-05-03T12:40:00Z'));
    expect((await run()).stale).toBe(0);
    expect((await query(site, day)).results[0].metrics).toEqual([1, 2, 2]);
  });

  it('writes one copy of a day when two builders run at once', async () => {
    const site = await insertSite(t, t.owner.accountId);
    await visit(site, newVisitorId(), '2026-06-01T08:00:00Z', '/', 'https://www.perplexity.ai/');
    await visit(site, newVisitorId(), '2026-06-01T09:00:00Z');
    t.clock.set(new Date('2026-06-02T12:00:00Z'));
    await Promise.all([run(), run()]);
    expect(await builtDays(site)).toEqual(['2026-06-01']);
    const once = await rollupRows(site);
    await t.database.db.deleteFrom('stats_rollup_days').where('site_id', '=', site.id).execute();
    await run();
    expect(await rollupRows(site)).toBe(once);
    expect((await query(site, { date_range: ['2026-06-01', '2026-06-01'] })).results[0].metrics).toEqual([
      2, 2, 2,
    ]);
  });

  it('answers page reports as the raw pageviews do, a visit viewing a page across midnight counted once', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const [late, early, other] = [newVisitorId(), newVisitorId(), newVisitorId()];
    // 2026-04-10 is a Friday and the 13th a Monday: weeks split the 12th from the 13th.
    for (const [vid, at, path] of [
      [late, '2026-04-10T23:50:00Z', '/'],
      [late, '2026-04-10T23:55:00Z', '/pricing'],
      [late, '2026-04-11T00:05:00Z', '/'],
      [late, '2026-04-11T00:10:00Z', '/docs'],
      [early, '2026-04-10T10:00:00Z', '/'],
      [early, '2026-04-10T10:01:00Z', '/pricing'],
      [other, '2026-04-11T12:00:00Z', '/docs'],
      [early, '2026-04-12T23:50:00Z', '/'],
      [early, '2026-04-13T00:05:00Z', '/'],
      [late, '2026-04-13T09:00:00Z', '/pricing'],
    ] as const) {
      await visit(site, vid, at, path);
    }
    t.clock.set(new Date('2026-04-13T12:00:00Z'));
    const queries = [
      { dimensions: ['event:page'] },
      { dimensions: ['event:page', 'time:day'] },
      { dimensions: ['time:week', 'event:page'] },
      { dimensions: ['event:page'], date_range: ['2026-04-11', '2026-04-13'] },
      { dimensions: ['event:page'], filters: [['contains', 'event:page', ['PRIC', 'doc']]] },
      { dimensions: ['event:page'], date_range: ['2026-04-10', '2026-04-12'] },
      { dimensions: ['event:page'], limit: 1 },
      { dimensions: ['event:page'], limit: 1, offset: 1, include: { total_rows: true } },
    ];
    const ask = (body: Record<string, unknown>) =>
      query(site, { date_range: ['2026-04-10', '2026-04-13'], ...body });
    const raw = [];
    for (const body of queries) raw.push((await ask(body)).results);
    expect(raw[0]).toEqual([
      { dimensions: ['/'], metrics: [2, 3, 5] },
      { dimensions: ['/docs'], metrics: [2, 2, 2] },
      { dimensions: ['/pricing'], metrics: [2, 3, 3] },
    ]);

    await run();
    // From the first day of the first visit's month.
    expect(await builtDays(site)).toHaveLength(12);
    for (const [i, body] of queries.entries())
      expect((await ask(body)).results, JSON.stringify(body)).toEqual(raw[i]);
    // Without the raw pageviews of the built days, a range of built days still answers.
    await t.database.db
      .deleteFrom('events')
      .where('site_id', '=', site.id)
      .where('occurred_at', '<', new Date('2026-04-13T00:00:00Z'))
      .execute();
    expect((await ask(queries[5] as Record<string, unknown>)).results).toEqual(raw[5]);
  });

  it('answers the top pages by visitors from the rollups as from the raw pageviews', async () => {
    const site = await insertSite(t, t.owner.accountId);
    // Page k is seen by k people on each of two days, some of them the same people: a page's
    // people lie between its busier day and the sum of both, so the bounds differ from the counts.
    const people = Array.from({ length: 30 }, () => newVisitorId());
    for (let k = 1; k <= 12; k++) {
      for (const [day, offset] of [
        ['2026-07-06', 0],
        ['2026-07-07', Math.floor(k / 2)],
      ] as const) {
        for (let p = 0; p < k; p++) {
          const who = people[(p + offset) % people.length] as string;
          await visit(
            site,
            who,
            `${day}T${String(k).padStart(2, '0')}:${String(p * 2).padStart(2, '0')}:00Z`,
            `/p${k}`,
          );
        }
      }
    }
    t.clock.set(new Date('2026-07-08T12:00:00Z'));
    const asks = [
      { limit: 3 },
      { limit: 2, offset: 4, include: { total_rows: true } },
      { limit: 1, order_by: [['visitors', 'desc']] },
      { limit: 5, order_by: [['pageviews', 'desc']] },
      { limit: 3, dimensions: ['visit:entry_page'] },
    ].map((body) => ({ dimensions: ['event:page'], date_range: ['2026-07-06', '2026-07-07'], ...body }));
    const raw = [];
    for (const body of asks) raw.push(await query(site, body));
    expect(raw[0].results.map((row: { dimensions: string[] }) => row.dimensions[0])).toEqual([
      '/p12',
      '/p11',
      '/p10',
    ]);
    await run();
    expect(await builtDays(site)).toContain('2026-07-07');
    for (const [i, body] of asks.entries())
      expect((await query(site, body)).results, JSON.stringify(body)).toEqual(raw[i].results);
    expect((await query(site, asks[1] as Record<string, unknown>)).meta.total_rows).toBe(12);

    // The sketches of pages that cannot reach the top are never read: with /p1's swapped for a
    // thousand other people, the top three stand, as its stored counts (1 a day) rule it out.
    const thousand = new PeopleSketch();
    for (let i = 0; i < 1000; i++) thousand.add(personHash(`someone-${i}`));
    const p1 = (table: 'stats_visit_rollups' | 'stats_month_rollups') =>
      t.database.db
        .updateTable(table)
        .where('site_id', '=', site.id)
        .where('value', '=', '/p1')
        .where('dimension', 'in', ['event:page', 'visit:entry_page']);
    await p1('stats_visit_rollups').set({ people: thousand.encode() }).execute();
    for (const i of [0, 4])
      expect((await query(site, asks[i] as Record<string, unknown>)).results).toEqual(raw[i].results);
    // A row built before counts were stored (null) bounds nothing: its sketch is read.
    await p1('stats_visit_rollups').set({ people_count: null }).execute();
    const unbounded = await query(site, asks[0] as Record<string, unknown>);
    expect(unbounded.results[0].dimensions).toEqual(['/p1']);
    expect(unbounded.meta.approximate).toEqual(['visitors']);
    // The job counts such rows from their sketches, and then they bound as any other.
    expect((await t.app.services.statsRollups.runOnce()).counted).toBe(4);
    const counts = await t.database.db
      .selectFrom('stats_visit_rollups')
      .select('people_count')
      .where('site_id', '=', site.id)
      .where('value', '=', '/p1')
      .where('dimension', 'in', ['event:page', 'visit:entry_page'])
      .execute();
    expect(counts.map((row) => row.people_count)).toEqual([1, 1, 1, 1].map(() => thousand.count()));
    expect(await query(site, asks[0] as Record<string, unknown>)).toEqual(unbounded);
  });

  it('merges a whole month into one row per value, and answers long ranges from it as from the days', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const [returning, night] = [newVisitorId(), newVisitorId()];
    for (const [vid, at, path, ref] of [
      [returning, '2026-08-03T10:00:00Z', '/', 'https://chatgpt.com/'],
      [returning, '2026-08-03T10:01:00Z', '/pricing', ''],
      [night, '2026-08-20T08:00:00Z', '/docs', 'https://www.google.com/'],
      [returning, '2026-08-31T23:50:00Z', '/', ''],
      [returning, '2026-09-01T00:10:00Z', '/', ''],
      [night, '2026-09-01T09:00:00Z', '/pricing', ''],
      [night, '2026-09-02T09:00:00Z', '/', ''],
    ] as const) {
      await visit(site, vid, at, path, ref);
    }
    t.clock.set(new Date('2026-09-02T12:00:00Z'));
    const queries = [
      { dimensions: ['event:page'] },
      { dimensions: ['event:page', 'time:month'] },
      { dimensions: ['event:page'], date_range: ['2026-08-01', '2026-08-31'] },
      { dimensions: ['visit:channel'] },
      { dimensions: ['time:month'], metrics: ['visitors', 'visits', 'pageviews', 'bounce_rate'] },
      { metrics: ['visitors', 'visits', 'pageviews', 'visit_duration'] },
    ];
    const ask = (body: Record<string, unknown>) =>
      query(site, { date_range: ['2026-07-30', '2026-09-02'], ...body });
    const raw = [];
    for (const body of queries) raw.push((await ask(body)).results);
    const report = await run();
    expect(report.months).toBeGreaterThanOrEqual(1);
    const months = await t.database.db
      .selectFrom('stats_rollup_months')
      .select(sql<string>`to_char(month, 'YYYY-MM-DD')`.as('month'))
      .where('site_id', '=', site.id)
      .execute();
    expect(months.map((row) => row.month)).toEqual(['2026-08-01']);
    for (const [i, body] of queries.entries())
      expect((await ask(body)).results, JSON.stringify(body)).toEqual(raw[i]);
    // A day built again drops its month, which is merged again from its days.
    await t.database.db
      .deleteFrom('stats_rollup_days')
      .where('site_id', '=', site.id)
      .where('day', '=', '2026-08-20')
      .execute();
    t.clock.set(new Date('2026-09-02T12:30:00Z'));
    await run();
    const merged = await t.database.db
      .selectFrom('stats_rollup_months')
      .select('built_at')
      .where('site_id', '=', site.id)
      .executeTakeFirstOrThrow();
    expect(merged.built_at).toEqual(new Date('2026-09-02T12:30:00Z'));
    for (const [i, body] of queries.entries())
      expect((await ask(body)).results, JSON.stringify(body)).toEqual(raw[i]);
    // The month's day rows are not read: without them the answers stand.
    await t.database.db
      .deleteFrom('stats_visit_rollups')
      .where('site_id', '=', site.id)
      .where('day', '<', '2026-09-01')
      .execute();
    for (const [i, body] of queries.entries())
      expect((await ask(body)).results, JSON.stringify(body)).toEqual(raw[i]);
    // Month rows merged before their people count was stored answer the same, and the job
    // gives them back the count their sketch holds.
    const monthCounts = () =>
      t.database.db
        .selectFrom('stats_month_rollups')
        .select(['dimension', 'value', 'people_count'])
        .where('site_id', '=', site.id)
        .orderBy(['dimension', 'value'])
        .execute();
    const counted = await monthCounts();
    await t.database.db
      .updateTable('stats_month_rollups')
      .set({ people_count: null })
      .where('site_id', '=', site.id)
      .execute();
    for (const [i, body] of queries.entries())
      expect((await ask(body)).results, JSON.stringify(body)).toEqual(raw[i]);
    expect((await t.app.services.statsRollups.runOnce()).counted).toBe(counted.length);
    expect(await monthCounts()).toEqual(counted);
  });

  it('estimates the people of a day with more than 512 of them, and names visitors approximate', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const people = 3_000;
    // Each person twice (two visits), the second half from ChatGPT.
    await sql`
      insert into visits (site_id, id, visitor_id, started_at, last_activity_at, source_kind,
        session_ai_source, pageviews, engaged_seconds, is_new)
      select ${site.id}::uuid, gen_random_uuid(), 'person-' || (n % ${people}),
        '2026-07-01T06:00:00Z'::timestamptz + n * interval '1 second',
        '2026-07-01T06:00:00Z'::timestamptz + n * interval '1 second',
        case when n % ${people} >= ${people / 2} then 'ai' else 'non_ai' end,
        case when n % ${people} >= ${people / 2} then 'chatgpt' else 'direct' end,
        1, 30, true
      from generate_series(0, ${2 * people - 1}) n
    `.execute(t.database.db);
    t.clock.set(new Date('2026-07-03T00:00:00Z'));
    await run();
    const range = { date_range: ['2026-07-01', '2026-07-01'] };
    const total = await query(site, range);
    expect(total.meta.approximate).toEqual(['visitors']);
    const [visitors, visits, pageviews] = total.results[0].metrics;
    expect(Math.abs(visitors - people) / people).toBeLessThan(0.05);
    expect([visits, pageviews]).toEqual([2 * people, 2 * people]);
    const aiOnly = await query(site, {
      ...range,
      metrics: ['visits'],
      filters: [['is', 'visit:channel', ['ai']]],
    });
    expect(aiOnly.meta.approximate).toEqual([]);
    expect(aiOnly.results[0].metrics).toEqual([people]);
  });
});
