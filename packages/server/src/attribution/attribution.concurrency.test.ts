/**
 * Two workers at once, as two processes would run them. On PostgreSQL the batches really run
 * side by side (SKIP LOCKED hands each job to one of them); on PGlite's single connection they
 * are serialised, and the same assertions hold. And a worker whose connection dies mid-job.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { DB } from '../db/types.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { withDatabaseName } from '../test/global-setup.js';
import { arrive, recordPayment, revenueRows } from './attribution.fixtures.js';
import { createAttributionWorker } from './attribution.worker.js';

const PAYMENTS = 40;

describe('attribution worker under concurrency and crashes', () => {
  const t = useTestApp();

  it('never works one job twice when two workers run at once', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'busy.example.com' });
    const vid = newVisitorId();
    await arrive(t, site, vid, 'chatgpt');
    const eventIds: string[] = [];
    for (let i = 0; i < PAYMENTS; i++) {
      eventIds.push((await recordPayment(t, site, { amountMinor: 1_000 + i, visitorId: vid })).eventId);
    }

    const workers = [1, 2].map(() => createAttributionWorker({ db: t.database.db, clock: t.clock }));
    const [a, b] = await Promise.all(workers.map((worker) => worker.runAttributionBatch({ limit: 100 })));
    const first = (a ?? []).map((job) => job.eventId);
    const second = (b ?? []).map((job) => job.eventId);
    expect([...first, ...second].sort()).toEqual([...eventIds].sort());
    expect(first.filter((id) => second.includes(id))).toEqual([]);
    expect([...(a ?? []), ...(b ?? [])].every((job) => job.outcome === 'done')).toBe(true);
    if (t.database.kind === 'postgres') {
      expect(first.length).toBeGreaterThan(0);
      expect(second.length).toBeGreaterThan(0);
    }

    // Every payment landed in the shared daily rows exactly once.
    const expectedGross = Array.from({ length: PAYMENTS }, (_, i) => 1_000 + i).reduce((x, y) => x + y, 0);
    for (const model of ['first_touch', 'last_touch', 'linear', 'time_decay']) {
      const [row, ...others] = await revenueRows(t, site.id, model);
      expect(others).toEqual([]);
      expect(row).toMatchObject({ source: 'chatgpt', gross_minor: expectedGross, conversions: PAYMENTS });
    }
    const facts = await t.database.db
      .selectFrom('outbox_events')
      .select('dedupe_key')
      .where('site_id', '=', site.id)
      .where('type', '=', 'conversion.attributed')
      .execute();
    expect(facts).toHaveLength(PAYMENTS);
  });

  it('leaves a job pending with nothing committed when its connection dies mid-job (PostgreSQL)', async (ctx) => {
    if (t.database.kind !== 'postgres') ctx.skip();
    const site = await insertSite(t, t.owner.accountId, { domain: 'crash.example.com' });
    const vid = newVisitorId();
    await arrive(t, site, vid, 'perplexity');
    const { eventId } = await recordPayment(t, site, { amountMinor: 4_200, visitorId: vid });
    // The dying worker gets a pool of its own: a real process would die with its connection,
    // this test outlives it, so the pool must swallow the lost connection's late error event.
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.database.db);
    const pool = new pg.Pool({
      connectionString: withDatabaseName(process.env.DATABASE_URL as string, rows[0]?.name as string),
      max: 1,
    });
    pool.on('connect', (client) => client.on('error', () => {}));
    const ownDb = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    const dying = createAttributionWorker({
      db: ownDb,
      clock: t.clock,
      hooks: {
        // The server ends this backend after the credits are written: as if the process died.
        afterCredits: async (_job, trx) => {
          await sql`select pg_terminate_backend(pg_backend_pid())`.execute(trx);
        },
      },
    });
    await expect(dying.runAttributionBatch()).rejects.toThrow();
    await ownDb.destroy();

    const job = await t.database.db
      .selectFrom('attribution_jobs')
      .select(['status', 'attempts'])
      .where('site_id', '=', site.id)
      .where('event_id', '=', eventId)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'pending', attempts: 0 });
    expect(await revenueRows(t, site.id, 'linear')).toEqual([]);
    const credits = await t.database.db
      .selectFrom('attribution_credits')
      .select('source')
      .where('site_id', '=', site.id)
      .execute();
    expect(credits).toEqual([]);

    await createAttributionWorker({ db: t.database.db, clock: t.clock }).runUntilIdle();
    expect(await revenueRows(t, site.id, 'linear')).toMatchObject([
      { source: 'perplexity', gross_minor: 4_200 },
    ]);
  });
});
