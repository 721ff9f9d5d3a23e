/**
 * The goal rollups: goal reports answer the same from them as from the raw conversions, and
 * read them for the days built; a conversion sent later for a built day counts at once and the
 * day is built again; an identity link made later rebuilds the days it changes the people of; a
 * build waits for a conversion of its day still being written; two builders write one copy.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { serverEvent } from '../../attribution/attribution.fixtures.js';
import { newVisitorId } from '../../ingest/ingest.fixtures.js';
import { bearer, useTestApp } from '../../test/app.js';
import { insertSite } from '../../test/factories.js';
import { buildGoalRollupDay } from './goal-rollup-day.query.js';

describe('goal rollups', () => {
  const t = useTestApp();
  type Site = Awaited<ReturnType<typeof insertSite>>;

  const run = async () => {
    let goalDays = 0;
    for (;;) {
      const report = await t.app.services.statsRollups.runOnce();
      goalDays += report.goalDays;
      if (report.built + report.months + report.goalDays === 0) return goalDays;
    }
  };

  const builtGoalDays = async (site: Site) =>
    (
      await t.database.db
        .selectFrom('stats_goal_rollup_days')
        .select(sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'))
        .where('site_id', '=', site.id)
        .where('built_at', 'is not', null)
        .orderBy('day')
        .execute()
    ).map((row) => row.day);

  interface Conversion {
    name: string;
    at: string;
    vid?: string;
    uid?: string;
    value?: number;
    currency?: string;
  }
  /** A server event at `at`, received a minute later. */
  const convert = async (site: Site, { name, at, vid, uid, value, currency }: Conversion) => {
    t.clock.set(new Date(Date.parse(at) + 60_000));
    await serverEvent(t, t.owner.apiKey, {
      site_id: site.snippet_key,
      name,
      timestamp: at,
      ...(vid ? { visitor_id: vid } : {}),
      ...(uid ? { user_id: uid } : {}),
      ...(value === undefined ? {} : { value, currency }),
    });
  };

  const query = async (site: Site, body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/stats/query',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, ...body },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { results, meta } = response.json();
    return { results, approximate: meta.approximate, unconverted: meta.unconverted };
  };

  /** Deletes the site's raw conversions before `day`: what still answers came from the rollups. */
  const dropRawConversionsBefore = (site: Site, day: string) =>
    t.database.db
      .deleteFrom('events')
      .where('site_id', '=', site.id)
      .where('type', '=', 'event')
      .where('occurred_at', '<', new Date(`${day}T00:00:00Z`))
      .execute();

  const range = { date_range: ['2026-04-01', '2026-04-06'] };
  const QUERIES = [
    { dimensions: ['event:goal'], metrics: ['visitors', 'conversions', 'events', 'goal_value'] },
    { dimensions: ['time:day', 'event:goal'], metrics: ['visitors', 'conversions'] },
    { dimensions: ['event:goal', 'time:week'], metrics: ['conversions', 'goal_value'] },
    { dimensions: ['time:month'], metrics: ['events', 'goal_value'] },
    { metrics: ['conversions', 'events', 'goal_value'] },
    { dimensions: ['event:goal'], metrics: ['visitors'], filters: [['is', 'event:goal', ['signup']]] },
    { dimensions: ['time:day'], metrics: ['conversions'], filters: [['contains', 'event:goal', ['PUR']]] },
    {
      dimensions: ['event:goal'],
      metrics: ['visitors', 'goal_value'],
      filters: [['is_not', 'event:goal', ['signup']]],
    },
  ].map((body) => ({ ...range, ...body }));
  const answers = (site: Site) => Promise.all(QUERIES.map((body) => query(site, body)));

  it('answers goal reports as the raw conversions do, and reads the built days from the rollups', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const [ada, bob, cy] = [newVisitorId(), newVisitorId(), newVisitorId()];
    for (const conversion of [
      { name: 'signup', at: '2026-04-01T09:00:00Z', vid: ada },
      { name: 'signup', at: '2026-04-01T10:00:00Z', vid: bob },
      { name: 'purchase', at: '2026-04-01T11:00:00Z', vid: ada, value: 1999, currency: 'EUR' },
      { name: 'purchase', at: '2026-04-02T11:00:00Z', vid: ada, value: 500, currency: 'USD' },
      { name: 'purchase', at: '2026-04-03T23:59:00Z', uid: 'customer-7', value: 1000, currency: 'EUR' },
      { name: 'signup', at: '2026-04-05T08:00:00Z', vid: cy, uid: 'customer-7' },
      { name: 'newsletter', at: '2026-04-05T09:00:00Z' },
      // Not built: the report's last day has not ended.
      { name: 'signup', at: '2026-04-06T08:00:00Z', vid: bob },
    ]) {
      await convert(site, conversion);
    }
    t.clock.set(new Date('2026-04-06T12:00:00Z'));
    const raw = await answers(site);
    const byGoal = raw[0]?.results as { dimensions: string[]; metrics: number[] }[];
    // People: Ada, Bob and customer 7 (Cy once signed in) signed up; the newsletter's is nobody.
    expect(byGoal.map((row) => [row.dimensions[0], ...row.metrics.slice(0, 3)])).toEqual([
      ['signup', 3, 4, 4],
      ['purchase', 2, 3, 3],
      ['newsletter', 1, 1, 1],
    ]);
    expect(byGoal[1]?.metrics[3]).toBeGreaterThan(2999);

    expect(await run()).toBe(5);
    expect(await builtGoalDays(site)).toEqual([
      '2026-04-01',
      '2026-04-02',
      '2026-04-03',
      '2026-04-04',
      '2026-04-05',
    ]);
    expect(await answers(site)).toEqual(raw);
    await dropRawConversionsBefore(site, '2026-04-06');
    expect(await answers(site)).toEqual(raw);
    // A zone other than UTC, or a visit dimension, reads the raw conversions, now gone.
    const berlin = await query(site, { ...QUERIES[4], timezone: 'Europe/Berlin' });
    expect(berlin.results[0].metrics[0]).toBe(1);
    const byChannel = await query(site, {
      ...range,
      dimensions: ['visit:channel'],
      metrics: ['conversions'],
    });
    // The one left has no visit to credit: direct.
    expect(byChannel.results).toEqual([{ dimensions: ['direct'], metrics: [1] }]);
  });

  it('counts a conversion sent later for a built day at once, and builds the day again', async () => {
    const site = await insertSite(t, t.owner.accountId);
    await convert(site, { name: 'signup', at: '2026-04-01T09:00:00Z', vid: newVisitorId() });
    await convert(site, { name: 'signup', at: '2026-04-02T09:00:00Z', vid: newVisitorId() });
    t.clock.set(new Date('2026-04-04T12:00:00Z'));
    expect(await run()).toBe(3);
    const byGoal = { ...range, dimensions: ['event:goal'], metrics: ['visitors', 'conversions'] };
    expect((await query(site, byGoal)).results).toEqual([{ dimensions: ['signup'], metrics: [2, 2] }]);

    // A payment for the 1st, sent on the 4th.
    await convert(site, { name: 'signup', at: '2026-04-01T15:00:00Z', vid: newVisitorId() });
    t.clock.set(new Date('2026-04-04T12:05:00Z'));
    expect(await builtGoalDays(site)).toEqual(['2026-04-02', '2026-04-03']);
    expect((await query(site, byGoal)).results).toEqual([{ dimensions: ['signup'], metrics: [3, 3] }]);
    expect(await run()).toBe(1);
    await dropRawConversionsBefore(site, '2026-04-04');
    expect((await query(site, byGoal)).results).toEqual([{ dimensions: ['signup'], metrics: [3, 3] }]);
  });

  it('leaves the marker alone for conversions of the current day', async () => {
    const site = await insertSite(t, t.owner.accountId);
    // The trigger reads the database's clock, not the test's.
    t.clock.set(new Date());
    await serverEvent(t, t.owner.apiKey, { site_id: site.snippet_key, name: 'signup' });
    const markers = await t.database.db
      .selectFrom('stats_goal_rollup_days')
      .selectAll()
      .where('site_id', '=', site.id)
      .execute();
    expect(markers).toEqual([]);
  });

  it('builds a day again when an identity link made later merges two of its people', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const [phone, laptop] = [newVisitorId(), newVisitorId()];
    await convert(site, { name: 'signup', at: '2026-05-01T08:00:00Z', vid: phone });
    await convert(site, { name: 'signup', at: '2026-05-01T18:00:00Z', vid: laptop, uid: 'customer-9' });
    t.clock.set(new Date('2026-05-03T12:00:00Z'));
    await run();
    const day = {
      date_range: ['2026-05-01', '2026-05-01'],
      dimensions: ['event:goal'],
      metrics: ['visitors'],
    };
    expect((await query(site, day)).results).toEqual([{ dimensions: ['signup'], metrics: [2] }]);

    // The phone signs in: now both conversions are one person's.
    await convert(site, { name: 'login', at: '2026-05-03T12:00:00Z', vid: phone, uid: 'customer-9' });
    t.clock.set(new Date('2026-05-03T12:02:00Z'));
    await run();
    expect((await query(site, day)).results).toEqual([{ dimensions: ['signup'], metrics: [2] }]);
    // Once the link is certainly committed (five minutes on), the day is built again.
    t.clock.set(new Date('2026-05-03T12:07:00Z'));
    expect(await run()).toBe(1);
    expect((await query(site, day)).results).toEqual([{ dimensions: ['signup'], metrics: [1] }]);
  });

  it("builds whole UTC days whatever the database session's time zone (PGlite)", async (ctx) => {
    // One connection on PGlite, so the session's zone is the build's; a pool would not say which.
    if (t.database.kind !== 'pglite') ctx.skip();
    const site = await insertSite(t, t.owner.accountId);
    // Berlin moves its clocks on this day: a day there is 23 hours long.
    await convert(site, { name: 'signup', at: '2026-03-29T23:30:00Z', vid: newVisitorId() });
    await sql`set timezone = 'Europe/Berlin'`.execute(t.database.db);
    try {
      await buildGoalRollupDay(t.database.db, site.id, '2026-03-29', new Date('2026-03-31T12:00:00Z'));
    } finally {
      await sql`set timezone = 'UTC'`.execute(t.database.db);
    }
    const rows = await t.database.db
      .selectFrom('stats_goal_rollups')
      .select(['name', 'conversions'])
      .where('site_id', '=', site.id)
      .execute();
    expect(rows).toEqual([{ name: 'signup', conversions: 1 }]);
  });

  it('writes one copy of a day when two builders run at once', async () => {
    const site = await insertSite(t, t.owner.accountId);
    await convert(site, { name: 'signup', at: '2026-06-01T08:00:00Z', vid: newVisitorId() });
    await convert(site, { name: 'buy', at: '2026-06-01T09:00:00Z', value: 100, currency: 'EUR' });
    const now = new Date('2026-06-03T12:00:00Z');
    await Promise.all([
      buildGoalRollupDay(t.database.db, site.id, '2026-06-01', now),
      buildGoalRollupDay(t.database.db, site.id, '2026-06-01', now),
    ]);
    const rows = await t.database.db
      .selectFrom('stats_goal_rollups')
      .select(['name', 'conversions'])
      .where('site_id', '=', site.id)
      .orderBy('name')
      .execute();
    expect(rows).toEqual([
      { name: 'buy', conversions: 1 },
      { name: 'signup', conversions: 1 },
    ]);
    const values = await t.database.db
      .selectFrom('stats_goal_value_rollups')
      .select(['name', 'currency', sql<number>`value_minor::float8`.as('value')])
      .where('site_id', '=', site.id)
      .execute();
    expect(values).toEqual([{ name: 'buy', currency: 'EUR', value: 10000 }]);
  });

  it('builds a day only after a conversion for it that is being written has committed (PostgreSQL)', async (ctx) => {
    if (t.database.kind !== 'postgres') ctx.skip();
    const site = await insertSite(t, t.owner.accountId);
    await convert(site, { name: 'signup', at: '2026-07-01T08:00:00Z', vid: newVisitorId() });
    const now = new Date('2026-07-03T12:00:00Z');
    await buildGoalRollupDay(t.database.db, site.id, '2026-07-01', now);
    let committed = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A conversion for the built day, in a transaction still open while the day is built again.
    const writing = t.database.db.transaction().execute(async (trx) => {
      await sql`insert into events (site_id, event_id, type, name, occurred_at, received_at, origin)
          values (${site.id}, 'late-1', 'event', 'signup', '2026-07-01T20:00:00Z', now(), 'server')`.execute(
        trx,
      );
      await held;
      committed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const building = buildGoalRollupDay(t.database.db, site.id, '2026-07-01', now).then(() => committed);
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await writing;
    // The build waited for the conversion's transaction, and counted it.
    expect(await building).toBe(true);
    const row = await t.database.db
      .selectFrom('stats_goal_rollups')
      .select('conversions')
      .where('site_id', '=', site.id)
      .executeTakeFirstOrThrow();
    expect(row.conversions).toBe(2);
  });
});
