/**
 * The shipper on the real engine (npm chdb): committed traffic reaches ClickHouse once, whatever
 * happens between the copy and the cursor; a visit changed after its copy is copied again and
 * its latest version wins; while ClickHouse is away nothing is lost; two workers copy each row
 * once; and on PostgreSQL the cursor never passes a transaction still running.
 */
import { ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { useTestApp } from '../test/app.js';
import { chdbInstalled, copyEverything } from '../test/clickhouse.js';
import { insertSite } from '../test/factories.js';
import type { ClickHouse } from './connection.js';
import { createClickHouseEngine } from './engine.js';
import { createShipper } from './shipper.js';

describe.runIf(chdbInstalled)('the ClickHouse shipper', () => {
  const t = useTestApp({}, { clickhouse: true });
  let site: Awaited<ReturnType<typeof insertSite>>;
  const ch = () => t.clickhouse as ClickHouse;
  const engine = () => {
    const found = t.app.services.clickhouseEngine;
    if (!found) throw new Error('the app runs without ClickHouse');
    return found;
  };

  const count = async (query: string) => {
    const result = await ch().client.query({
      query: query.replaceAll('{db}', ch().database),
      query_params: { site: site.id },
      format: 'JSONEachRow',
    });
    return Number(((await result.json()) as { n: string }[])[0]?.n);
  };
  /** Events after the cursor whose transactions have all finished. */
  const rowsShippable = async () =>
    Number(
      (
        await sql<{ n: number }>`select count(*)::float8 as n from events e, clickhouse_ship_cursors c
          where c.stream = 'events' and (e.ship_xid, e.ship_seq) > (c.ship_xid, c.ship_seq)
            and e.ship_xid < pg_snapshot_xmin(pg_current_snapshot())`.execute(t.database.db)
      ).rows[0]?.n,
    );
  const finalEvents = () => count('SELECT count() AS n FROM {db}.events FINAL WHERE site_id = {site:UUID}');
  const storedEvents = () => count('SELECT count() AS n FROM {db}.events WHERE site_id = {site:UUID}');
  const pgEvents = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('site_id', '=', site.id)
          .executeTakeFirstOrThrow()
      ).n,
    );

  const copyAll = () => copyEverything(t.database.db, engine().shipper);
  const view = async (vid: string, path: string, ref = '') => {
    const response = await collect(t, pageview(site.snippet_key, vid, `https://${site.domain}${path}`, ref));
    expect(response.statusCode, response.body).toBe(202);
  };

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'ship.example.com' });
  });

  it('copies committed pageviews and their visits, with the visit attributes on each event', async () => {
    const vid = newVisitorId();
    await view(vid, '/a', 'https://chatgpt.com/');
    await view(vid, '/b');
    await copyAll();
    expect(await finalEvents()).toBe(await pgEvents());
    const rows = await ch().client.query({
      query: `SELECT path, source_kind, session_ai_source FROM ${ch().database}.events FINAL
        WHERE site_id = {site:UUID} ORDER BY path`,
      query_params: { site: site.id },
      format: 'JSONEachRow',
    });
    expect(await rows.json()).toEqual([
      { path: '/a', source_kind: 'ai', session_ai_source: 'chatgpt' },
      { path: '/b', source_kind: 'ai', session_ai_source: 'chatgpt' },
    ]);
    // The visit's latest version (two pageviews) wins over its first copy (one).
    const visits = await ch().client.query({
      query: `SELECT pageviews FROM ${ch().database}.visits FINAL WHERE site_id = {site:UUID}`,
      query_params: { site: site.id },
      format: 'JSONEachRow',
    });
    expect(await visits.json()).toEqual([{ pageviews: 2 }]);
    expect(await engine().shipper.lagSeconds()).toEqual({
      events: 0,
      visits: 0,
      identity_links: 0,
      crawler_hits: 0,
    });
  });

  it('drops a batch sent again after the cursor was lost (a crash between the copy and the cursor)', async () => {
    await view(newVisitorId(), '/c');
    const before = await t.database.db.selectFrom('clickhouse_ship_cursors').selectAll().execute();
    await copyAll();
    const stored = await storedEvents();
    // The cursors go back to where they were before that copy, as if its commit never happened.
    for (const cursor of before)
      await t.database.db
        .updateTable('clickhouse_ship_cursors')
        .set({ ship_xid: cursor.ship_xid, ship_seq: cursor.ship_seq })
        .where('stream', '=', cursor.stream)
        .execute();
    await copyAll();
    expect(await storedEvents()).toBe(stored);
    expect(await finalEvents()).toBe(await pgEvents());
  });

  it('keeps acknowledged traffic while ClickHouse is away and copies it once it is back', async () => {
    const away = createClient({
      url: 'http://127.0.0.1:9',
      request_timeout: 1000,
      log: { level: ClickHouseLogLevel.OFF },
    });
    const warnings: string[] = [];
    const down = createShipper({
      db: t.database.db,
      clock: t.clock,
      clickhouse: { client: away, database: ch().database, cluster: undefined, close: () => away.close() },
      log: { warn: (line) => warnings.push(line), info: () => {} },
    });
    await view(newVisitorId(), '/d');
    await view(newVisitorId(), '/e');
    // Rows of transactions still running anywhere on the server wait; these must be ready.
    await expect.poll(() => rowsShippable(), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect(down.shipOnce()).rejects.toThrow();
    // Backing off: the next round waits instead of trying at once.
    expect(await down.shipOnce()).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^ClickHouse shipping failed .*copied once ClickHouse answers$/);
    expect((await engine().shipper.lagSeconds()).events).toBeGreaterThanOrEqual(0);
    await away.close();
    await copyAll();
    expect(await finalEvents()).toBe(await pgEvents());
  });

  it('copies each row once with two workers at the same time', async () => {
    await copyAll();
    const stored = await storedEvents();
    for (let i = 0; i < 30; i++) await view(newVisitorId(), `/w${i}`);
    const other = createShipper({ db: t.database.db, clock: t.clock, clickhouse: ch() });
    await Promise.all([engine().shipper.shipAll(), other.shipAll(), engine().shipper.shipAll()]);
    await copyEverything(t.database.db, other);
    expect(await storedEvents()).toBe(stored + 30);
    expect(await finalEvents()).toBe(await pgEvents());
  });

  it.runIf(process.env.DATABASE_URL)('never passes a transaction still running', async () => {
    await copyAll();
    const shipped = await finalEvents();
    await t.database.db.transaction().execute(async (trx) => {
      // A write that has begun but not committed …
      await sql`insert into events (site_id, event_id, type, occurred_at, received_at, origin)
        values (${site.id}, 'slow-writer', 'event', now(), now(), 'server')`.execute(trx);
      // … and a later one that commits first: neither is copied until the first commits.
      await view(newVisitorId(), '/after');
      await engine().shipper.shipAll();
      expect(await finalEvents()).toBe(shipped);
    });
    await copyAll();
    expect(await finalEvents()).toBe(shipped + 2);
  });

  it('tries the schema of a ClickHouse that does not answer after a growing pause, not every second', async () => {
    const away = createClient({
      url: 'http://127.0.0.1:9',
      request_timeout: 1000,
      log: { level: ClickHouseLogLevel.OFF },
    });
    const unreachable = createClickHouseEngine({
      db: t.database.db,
      clock: t.clock,
      clickhouse: { client: away, database: 'touchtrail', cluster: undefined, close: () => away.close() },
    });
    // An attempt rejects; a round inside the pause is skipped (null) without asking ClickHouse.
    await expect(unreachable.shipOnce()).rejects.toThrow();
    await expect(unreachable.shipOnce()).resolves.toBeNull();
    t.clock.advance(1_000);
    await expect(unreachable.shipOnce()).rejects.toThrow();
    t.clock.advance(1_000);
    await expect(unreachable.shipOnce()).resolves.toBeNull();
    t.clock.advance(1_000);
    await expect(unreachable.shipOnce()).rejects.toThrow();
    await away.close();
  });
});
