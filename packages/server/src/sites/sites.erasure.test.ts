/**
 * The erasure worker, driven by the test clock: nothing before the deadline; bounded batches
 * that resume; a crashed worker's lease running out; a failure recorded and retried; two
 * workers at once. Keys authenticate throughout, since moving the clock 30 days ends sessions.
 */
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS } from '../lib/clock.js';
import { createTestApp, mintKey, type Owner, setUpOwner, type TestApp } from '../test/app.js';
import { ERASURE_LEASE_MS, ERASURE_RETRY_DELAY_MS, SITE_DATA } from './site-erasure.js';
import { addSite, asKey, type CreatedSite, siteUuid } from './sites.fixtures.js';

const WINDOW_MS = 30 * DAY_MS;

describe('site erasure', () => {
  let t: TestApp;
  let owner: Owner;
  let site: CreatedSite;
  let uuid: string;
  let keeper: CreatedSite;
  beforeEach(async () => {
    t = await createTestApp();
    owner = await setUpOwner(t);
    site = await addSite(t, asKey(owner.apiKey), 'shop.example');
    uuid = await siteUuid(t, site.site_id);
    // Three more keys restricted to the site: four rows to erase from api_keys.
    for (let i = 0; i < 3; i++)
      await mintKey(t, owner.cookie, { scopes: ['stats:read'], site_id: site.site_id });
    keeper = await addSite(t, asKey(owner.apiKey), 'keep.example');
    await scheduleDeletion(site);
  });
  afterEach(() => t.close());

  const run = (options?: Parameters<TestApp['app']['services']['sites']['runErasureOnce']>[0]) =>
    t.app.services.sites.runErasureOnce(options);
  async function scheduleDeletion(target: CreatedSite) {
    const response = await t.request({
      method: 'DELETE',
      url: `/v1/sites/${target.site_id}`,
      headers: asKey(owner.apiKey),
      payload: { confirm_domain: target.domain },
    });
    expect(response.statusCode).toBe(200);
  }
  const siteKeys = async (id = uuid) =>
    (await t.database.db.selectFrom('api_keys').select('id').where('site_id', '=', id).execute()).length;
  const siteRow = (id = uuid) =>
    t.database.db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirst();
  const job = () =>
    t.database.db.selectFrom('site_erasures').selectAll().where('site_id', '=', uuid).executeTakeFirst();
  const restore = (ref = site.site_id) =>
    t.request({ method: 'POST', url: `/v1/sites/${ref}/restore`, headers: asKey(owner.apiKey) });

  it('does nothing before the deadline', async () => {
    t.clock.advance(WINDOW_MS - 1);
    expect(await run()).toEqual({ started: [], erased: [], unfinished: [], failed: [] });
    expect(await siteKeys()).toBe(4);
    expect((await siteRow())?.erasure_started_at).toBeNull();
  });

  it("erases the site's keys and row once the deadline passes, and nothing else", async () => {
    t.clock.advance(WINDOW_MS);
    expect(await run()).toEqual({
      started: [site.site_id],
      erased: [site.site_id],
      unfinished: [],
      failed: [],
    });
    expect(await siteRow()).toBeUndefined();
    expect(await siteKeys()).toBe(0);
    expect(await job()).toMatchObject({ status: 'done', finished_at: t.clock.now(), locked_by: null });
    expect(await siteKeys(await siteUuid(t, keeper.site_id))).toBe(1);
    const keeperRead = await t.request({
      method: 'GET',
      url: `/v1/sites/${keeper.site_id}`,
      headers: asKey(keeper.api_key),
    });
    expect(keeperRead.statusCode).toBe(200);

    expect(
      (await t.request({ method: 'GET', url: '/v1/sites', headers: asKey(site.api_key) })).statusCode,
    ).toBe(401);
    const gone = await t.request({
      method: 'GET',
      url: `/v1/sites/${site.site_id}`,
      headers: asKey(owner.apiKey),
    });
    expect(gone.statusCode).toBe(404);
    const afterwards = await restore();
    expect(afterwards.statusCode).toBe(409);
    expect(afterwards.json()).toMatchObject({ error: 'deletion_in_progress' });
    expect(await run()).toEqual({ started: [], erased: [], unfinished: [], failed: [] });
  });

  it('erases the rows of every per-site table, leaving other sites alone', async () => {
    const keeperUuid = await siteUuid(t, keeper.site_id);
    const at = t.clock.now();
    for (const [siteId, eventId] of [
      [uuid, 'e1'],
      [uuid, 'e2'],
      [keeperUuid, 'e3'],
    ]) {
      await sql`insert into events (site_id, event_id, type, occurred_at, received_at, origin)
        values (${siteId}, ${eventId}, 'pageview', ${at}, ${at}, 'browser')`.execute(t.database.db);
    }
    await sql`insert into goals (site_id, id, name, created_at) values (${uuid}, ${uuid}, 'signup', ${at})`.execute(
      t.database.db,
    );
    await sql`insert into daily_goal_completions values (${uuid}, '2026-01-01', 'signup', 3)`.execute(
      t.database.db,
    );
    t.clock.advance(WINDOW_MS);
    expect((await run({ batchSize: 1 })).erased).toEqual([site.site_id]);
    for (const target of SITE_DATA) {
      const left = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(target.table)}
        where ${sql.ref(target.ownerColumn)} = ${uuid}`.execute(t.database.db);
      expect(left.rows[0]?.n, target.table).toBe(0);
    }
    const kept = await sql<{ event_id: string }>`select event_id from events`.execute(t.database.db);
    expect(kept.rows).toEqual([{ event_id: 'e3' }]);
  });

  it('answers deletion_in_progress on restore as soon as erasure has begun', async () => {
    t.clock.advance(WINDOW_MS);
    const report = await run({ batchSize: 1, maxBatches: 1 });
    expect(report).toMatchObject({ started: [site.site_id], unfinished: [site.site_id], erased: [] });
    expect((await siteRow())?.erasure_started_at).toEqual(t.clock.now());
    expect((await restore()).json()).toMatchObject({ error: 'deletion_in_progress' });
    const listed = await t.request({
      method: 'GET',
      url: '/v1/sites?include_deleted=true',
      headers: asKey(owner.apiKey),
    });
    expect(listed.json().sites.map((s: { id: string }) => s.id)).toContain(site.site_id);
  });

  it('works in bounded batches and resumes where the last run stopped', async () => {
    t.clock.advance(WINDOW_MS);
    await run({ batchSize: 1, maxBatches: 1 });
    // The first table was empty: one batch finished it, and the job records the next one.
    expect(await job()).toMatchObject({ status: 'running', step: SITE_DATA[1]?.table, locked_by: null });
    // One-row batches, one batch per run: every run removes at most one row, the site row last.
    const keyCounts = new Set<number>();
    let runs = 1;
    while ((await siteRow()) !== undefined) {
      const before = await siteKeys();
      expect((await run({ batchSize: 1, maxBatches: 1 })).failed).toEqual([]);
      expect(before - (await siteKeys())).toBeLessThanOrEqual(1);
      keyCounts.add(await siteKeys());
      runs += 1;
      expect(runs).toBeLessThanOrEqual(SITE_DATA.length + 6);
    }
    expect(keyCounts).toContain(2);
    // One batch per table, four key rows plus the batch that finds none left, and the site row.
    expect(runs).toBe(SITE_DATA.length + 4 + 1);
    expect(await job()).toMatchObject({ status: 'done', step: 'sites' });
  });

  it('goes back for rows written to a table after its turn', async () => {
    t.clock.advance(WINDOW_MS);
    // Every table before api_keys is done, and one key is gone.
    await run({ batchSize: 1, maxBatches: SITE_DATA.length });
    expect(await job()).toMatchObject({ step: 'api_keys' });
    const at = t.clock.now();
    await sql`insert into events (site_id, event_id, type, occurred_at, received_at, origin)
      values (${uuid}, 'late', 'pageview', ${at}, ${at}, 'browser')`.execute(t.database.db);
    expect((await run()).erased).toEqual([site.site_id]);
    const events = await sql`select 1 from events where site_id = ${uuid}`.execute(t.database.db);
    expect(events.rows).toEqual([]);
  });

  it('leaves a crashed worker’s job alone until its lease runs out, then finishes it', async () => {
    t.clock.advance(WINDOW_MS);
    await run({ batchSize: 1, maxBatches: SITE_DATA.length });
    const left = await siteKeys();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(4);
    // The worker dies in the middle: it still holds the lease it renewed after its last batch.
    await t.database.db
      .updateTable('site_erasures')
      .set({
        locked_by: 'crashed-worker',
        locked_until: new Date(t.clock.now().getTime() + ERASURE_LEASE_MS),
      })
      .execute();
    expect(await run()).toEqual({ started: [], erased: [], unfinished: [], failed: [] });
    expect(await siteKeys()).toBe(left);
    t.clock.advance(ERASURE_LEASE_MS);
    expect((await run()).erased).toEqual([site.site_id]);
    expect(await siteKeys()).toBe(0);
    expect((await job())?.attempts).toBe(2);
  });

  it('records a failure and retries after a delay', async () => {
    // A row in a table the erasure does not know about blocks deleting the site row.
    await sql`create table erasure_blocker (site_id uuid references sites (id))`.execute(t.database.db);
    await sql`insert into erasure_blocker values (${uuid})`.execute(t.database.db);
    t.clock.advance(WINDOW_MS);
    const failed = await run();
    expect(failed.failed).toEqual([
      { snippet_key: site.site_id, error: 'database error 23503 (erasure_blocker_site_id_fkey)' },
    ]);
    expect(await job()).toMatchObject({
      status: 'running',
      locked_by: null,
      last_error: 'database error 23503 (erasure_blocker_site_id_fkey)',
    });
    await sql`delete from erasure_blocker`.execute(t.database.db);
    expect((await run()).erased).toEqual([]);
    t.clock.advance(ERASURE_RETRY_DELAY_MS);
    expect((await run()).erased).toEqual([site.site_id]);
    expect(await job()).toMatchObject({ status: 'done', last_error: null });
  });

  it('never erases a site restored before its deadline', async () => {
    expect((await restore()).statusCode).toBe(200);
    t.clock.advance(2 * WINDOW_MS);
    expect((await run()).started).toEqual([]);
    expect(await siteKeys()).toBe(4);
  });

  it('lets two workers run at once, erasing every site exactly once', async () => {
    const more = [
      await addSite(t, asKey(owner.apiKey), 'a.example'),
      await addSite(t, asKey(owner.apiKey), 'b.example'),
    ];
    for (const extra of more) await scheduleDeletion(extra);
    t.clock.advance(WINDOW_MS);
    const reports = await Promise.all([
      run({ workerId: 'worker-a', batchSize: 1 }),
      run({ workerId: 'worker-b', batchSize: 1 }),
    ]);
    const expected = [site.site_id, ...more.map((s) => s.site_id)].sort();
    expect(reports.flatMap((r) => r.started).sort()).toEqual(expected);
    expect(reports.flatMap((r) => r.erased).sort()).toEqual(expected);
    expect(reports.flatMap((r) => r.failed)).toEqual([]);
    const left = await t.database.db.selectFrom('sites').select('snippet_key').execute();
    expect(left.map((row) => row.snippet_key)).toEqual([keeper.site_id]);
    expect(await run()).toEqual({ started: [], erased: [], unfinished: [], failed: [] });
  });
});
