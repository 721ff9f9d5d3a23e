/**
 * Per-site retention (sites.events_retention_days, visits_retention_days): one site with both
 * set and one without, each with the same day of old traffic (two visitors; pageviews, an
 * engagement, a custom event, an identify and a server conversion) and a recent visit. The
 * clock moves; reports over the old days are compared before and after each purge.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { DAY_MS } from '../lib/clock.js';
import { deleteRollupRows } from '../reporting/rollups/rollup-day.query.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';

type Site = Awaited<ReturnType<typeof insertSite>>;

const OLD_DAY = '2026-01-05';
const RECENT_DAY = '2026-01-25';
const RANGE = { date_range: ['2026-01-01', '2026-01-31'] };

describe('per-site retention', () => {
  // Past days keep their counts in PostgreSQL's rollups after raw rows go; ClickHouse reads raw
  // rows, so with it on these figures drop (README, "Running on ClickHouse"): PostgreSQL only.
  const t = useTestApp({}, { clickhouse: false });
  const at = (iso: string) => t.clock.set(new Date(iso));

  const send = async (payload: Record<string, unknown>) => {
    const response = await collect(t, payload);
    expect(response.statusCode, response.body).toBe(202);
  };
  /** The same traffic on every site; returns the old day's visitor ids. */
  const seed = async (site: Site) => {
    const url = (path: string) => `https://${site.domain}${path}`;
    const [first, second, recent] = [newVisitorId(), newVisitorId(), newVisitorId()];
    at(`${OLD_DAY}T10:00:00Z`);
    await send(pageview(site.snippet_key, first, url('/'), 'https://chatgpt.com/'));
    at(`${OLD_DAY}T10:00:40Z`);
    await send({ type: 'engagement', site: site.snippet_key, vid: first, url: url('/'), engaged_ms: 40_000 });
    at(`${OLD_DAY}T10:01:00Z`);
    await send({ type: 'event', site: site.snippet_key, vid: first, url: url('/'), name: 'signup' });
    await send({ type: 'identify', site: site.snippet_key, vid: first, url: url('/'), uid: 'kundin-7' });
    const server = await t.request({
      method: 'POST',
      url: '/v1/server/events',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, name: 'purchase', event_id: `p-${site.id}` },
    });
    expect(server.statusCode, server.body).toBe(202);
    at(`${OLD_DAY}T11:00:00Z`);
    await send(pageview(site.snippet_key, second, url('/preise'), 'https://www.google.com/'));
    at(`${RECENT_DAY}T09:00:00Z`);
    await send(pageview(site.snippet_key, recent, url('/')));
    return { first, second, recent };
  };

  const setRetention = async (site: Site, payload: Record<string, number | null>) => {
    const response = await t.request({
      method: 'PATCH',
      url: `/v1/sites/${site.snippet_key}`,
      headers: bearer(t.owner.apiKey),
      payload,
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const buildRollups = async () => {
    while ((await t.app.services.statsRollups.runOnce()).built > 0);
  };
  const purgeAll = async (purge: () => Promise<{ deleted: number; finished: boolean }>) => {
    let deleted = 0;
    for (let finished = false; !finished; ) {
      const run = await purge();
      deleted += run.deleted;
      finished = run.finished;
    }
    return deleted;
  };
  const purgeEvents = () => purgeAll(() => t.app.services.retention.purgeExpiredConversions());
  const purgeVisits = () => purgeAll(() => t.app.services.retention.purgeExpiredVisits());

  /** The old days' reports: totals, by channel, and by page, all from the rollups once built. */
  const reports = async (site: Site, range = RANGE) => {
    const query = async (body: Record<string, unknown>) => {
      const response = await t.request({
        method: 'POST',
        url: '/v1/stats/query',
        headers: bearer(t.owner.apiKey),
        payload: { site_id: site.snippet_key, ...range, ...body },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().results;
    };
    const visitMetrics = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'];
    return {
      total: await query({ metrics: visitMetrics }),
      channels: await query({ metrics: visitMetrics, dimensions: ['visit:channel'] }),
      pages: await query({ metrics: ['visitors', 'visits', 'pageviews'], dimensions: ['event:page'] }),
    };
  };
  const events = async (site: Site) =>
    (
      await t.database.db
        .selectFrom('events')
        .select(['type', 'name', sql<string>`to_char(occurred_at, 'YYYY-MM-DD')`.as('day')])
        .where('site_id', '=', site.id)
        .orderBy('occurred_at')
        .orderBy('type')
        .execute()
    ).map((row) => `${row.day} ${row.type}${row.name && row.type === 'event' ? `:${row.name}` : ''}`);
  const visits = async (site: Site) =>
    (
      await t.database.db
        .selectFrom('visits')
        .select(sql<string>`to_char(started_at, 'YYYY-MM-DD')`.as('day'))
        .where('site_id', '=', site.id)
        .orderBy('started_at')
        .execute()
    ).map((row) => row.day);
  const visitorIds = async (site: Site) =>
    (
      await t.database.db.selectFrom('visitors').select('visitor_id').where('site_id', '=', site.id).execute()
    ).map((row) => row.visitor_id);
  const linkCount = async (site: Site) =>
    (
      await t.database.db
        .selectFrom('identity_links')
        .select('visitor_id')
        .where('site_id', '=', site.id)
        .execute()
    ).length;

  const ALL_EVENTS = [
    `${OLD_DAY} pageview`,
    `${OLD_DAY} engagement`,
    `${OLD_DAY} event:purchase`,
    `${OLD_DAY} event:signup`,
    `${OLD_DAY} identify`,
    `${OLD_DAY} pageview`,
    `${RECENT_DAY} pageview`,
  ];

  let short: Site;
  let kept: Site;
  let people: Awaited<ReturnType<typeof seed>>;
  let keptPeople: Awaited<ReturnType<typeof seed>>;
  let before: Awaited<ReturnType<typeof reports>>;

  it('deletes every raw event of a site past its setting, only over built days, and nothing of another site', async () => {
    at('2026-01-01T00:00:00Z');
    short = await insertSite(t, t.owner.accountId, { domain: 'kurz.example.de' });
    kept = await insertSite(t, t.owner.accountId, { domain: 'lang.example.de' });
    people = await seed(short);
    keptPeople = await seed(kept);
    // The server conversion is stamped with when it arrived: order by time puts it after signup.
    const sorted = (list: string[]) => [...list].sort();
    expect(sorted(await events(short))).toEqual(sorted(ALL_EVENTS));
    await setRetention(short, { events_retention_days: 30, visits_retention_days: 45 });

    // A second before the old day's first row is 30 days old: nothing goes.
    at('2026-02-04T09:59:59Z');
    await buildRollups();
    before = await reports(short);
    expect(before.total[0].metrics.slice(0, 3)).toEqual([3, 3, 3]);
    expect(await purgeEvents()).toBe(0);

    // The old day is to be built again (as after an identity link made later): until it is,
    // its pageviews and what belongs to its visits stay; the identify and the server
    // conversion, which no rollup reads, go.
    await t.database.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('stats_rollup_days')
        .where('site_id', '=', short.id)
        .where('day', '=', OLD_DAY)
        .execute();
      await deleteRollupRows(trx, short.id, [OLD_DAY]);
    });
    at('2026-02-04T11:00:01Z');
    expect(await purgeEvents()).toBe(2);
    expect(sorted(await events(short))).toEqual(
      sorted([
        `${OLD_DAY} pageview`,
        `${OLD_DAY} engagement`,
        `${OLD_DAY} event:signup`,
        `${OLD_DAY} pageview`,
        `${RECENT_DAY} pageview`,
      ]),
    );
    expect(await reports(short)).toEqual(before);

    await buildRollups();
    expect(await purgeEvents()).toBe(4);
    expect(await events(short)).toEqual([`${RECENT_DAY} pageview`]);
    // The other site keeps the default: its conversions for a year, the rest for ever.
    expect(sorted(await events(kept))).toEqual(sorted(ALL_EVENTS));
    // Built rollups and daily totals stand: the old days' reports are unchanged.
    expect(await reports(short)).toEqual(before);
    // Visits are not events: they wait for their own setting.
    expect(await visits(short)).toEqual([OLD_DAY, OLD_DAY, RECENT_DAY]);
  });

  it('deletes visits past the setting, then visitors last seen before, and keeps identity links', async () => {
    const links = await linkCount(short);
    expect(links).toBeGreaterThan(0);
    // The old visits ended at 10:01 and 11:00; 45 days later the first has gone, with its
    // visitor, not the second.
    at('2026-02-19T10:30:00Z');
    await buildRollups();
    expect(await purgeVisits()).toBe(2);
    expect(await visits(short)).toEqual([OLD_DAY, RECENT_DAY]);
    expect((await visitorIds(short)).sort()).toEqual([people.second, people.recent].sort());
    at('2026-02-19T11:00:01Z');
    expect(await purgeVisits()).toBe(2);
    expect(await visits(short)).toEqual([RECENT_DAY]);
    expect(await visitorIds(short)).toEqual([people.recent]);
    expect(await linkCount(short)).toBe(links);
    expect(await reports(short)).toEqual(before);
    // Twice is harmless, and so are two at once.
    const [one, two] = await Promise.all([purgeVisits(), purgeVisits()]);
    expect(one + two).toBe(0);
    // The site without a setting keeps its visits and visitors.
    expect(await visits(kept)).toEqual([OLD_DAY, OLD_DAY, RECENT_DAY]);
    expect((await visitorIds(kept)).sort()).toEqual(
      [keptPeople.first, keptPeople.second, keptPeople.recent].sort(),
    );
  });

  it('never takes visits of a day that is not built', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'ungebaut.example.de' });
    const visitor = newVisitorId();
    at('2026-03-02T08:00:00Z');
    await send(pageview(site.snippet_key, visitor, `https://${site.domain}/`));
    await setRetention(site, { events_retention_days: 30, visits_retention_days: 30 });
    at(new Date(Date.parse('2026-03-02T08:00:00Z') + 40 * DAY_MS).toISOString());
    // No rollup run yet: nothing of this site is built, so nothing of it goes.
    await purgeEvents();
    await purgeVisits();
    expect(await events(site)).toEqual(['2026-03-02 pageview']);
    expect(await visits(site)).toEqual(['2026-03-02']);
    expect(await visitorIds(site)).toEqual([visitor]);
    await buildRollups();
    const report = await reports(site);
    await purgeEvents();
    await purgeVisits();
    expect(await events(site)).toEqual([]);
    expect(await visits(site)).toEqual([]);
    expect(await visitorIds(site)).toEqual([]);
    expect(await reports(site)).toEqual(report);
  });

  it('works in bounded runs that resume where the last one stopped', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'schritte.example.de' });
    at('2026-04-01T08:00:00Z');
    for (let i = 0; i < 5; i++)
      await send(pageview(site.snippet_key, newVisitorId(), `https://${site.domain}/${i}`));
    await setRetention(site, { events_retention_days: 30, visits_retention_days: 30 });
    at('2026-05-15T00:00:00Z');
    await buildRollups();
    // One statement of at most two rows per run; the other sites of this file take turns too.
    const run = () => t.app.services.retention.purgeExpiredVisits({ batchSize: 2, maxBatches: 1 });
    let deleted = 0;
    let unfinished = 0;
    for (let runs = 0, finished = false; !finished && runs < 30; runs++) {
      const next = await run();
      expect(next.deleted).toBeLessThanOrEqual(2);
      deleted += next.deleted;
      finished = next.finished;
      if (!finished) unfinished++;
    }
    expect(unfinished).toBeGreaterThan(3);
    // Five visits, then their five visitors.
    expect(deleted).toBe(10);
    expect(await visits(site)).toEqual([]);
    expect(await visitorIds(site)).toEqual([]);
  });

  it('keeps the built days whose raw rows are gone when an identity link made later would build them again', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'verknuepft.example.de' });
    const [phone, laptop] = [newVisitorId(), newVisitorId()];
    at('2026-06-01T08:00:00Z');
    await send(pageview(site.snippet_key, phone, `https://${site.domain}/`));
    at('2026-06-01T18:00:00Z');
    await send(pageview(site.snippet_key, laptop, `https://${site.domain}/preise`));
    await setRetention(site, { events_retention_days: 30 });
    at('2026-07-15T12:00:00Z');
    await buildRollups();
    const june = { date_range: ['2026-06-01', '2026-06-30'] };
    const report = await reports(site, june);
    expect(report.pages).toHaveLength(2);
    await purgeEvents();
    expect(await events(site)).toEqual([]);
    // The two visitor ids turn out to be one person, after the day's pageviews went.
    for (const vid of [phone, laptop])
      await send({
        type: 'identify',
        site: site.snippet_key,
        vid,
        url: `https://${site.domain}/`,
        uid: 'kunde-9',
      });
    at('2026-07-15T12:10:00Z');
    await buildRollups();
    expect(await reports(site, june)).toEqual(report);
  });
});
