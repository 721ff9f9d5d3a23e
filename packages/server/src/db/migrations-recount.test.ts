/**
 * Migration 036 recounts daily_revenue's conversions, as the ledger now posts them (one whole
 * conversion for the largest share), on a database whose rows the old ledger wrote (fractional
 * shares). The same payments go through the real app's ledger on a fresh database; their
 * payments, refunds and credits are copied to a database migrated up to 035, with the rows the
 * old ledger posted for them: the same money, counts split by share (splitAmount(1, shares)).
 * Once migrated, it must read exactly what the fresh ledger wrote.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrive, convert } from '../attribution/attribution.fixtures.js';
import { ATTRIBUTION_MODELS } from '../attribution/models.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../lib/clock.js';
import { UNATTRIBUTED_SOURCE } from '../revenue/revenue-ledger.js';
import { microToDecimal, splitAmount } from '../revenue/split-amount.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { withDatabaseName } from '../test/global-setup.js';
import { type Database, openDatabase } from './database.js';
import { MIGRATIONS_DIR, migrate } from './migrate.js';
import type { AttributionModel, DB } from './types.js';

const RECOUNT = '036_conversions_counted_once.sql';

/** An empty database on the engine under test, dropped on close. */
async function openEmptyDatabase(): Promise<Database> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return openDatabase({ kind: 'pglite' });
  const name = `tt_recount_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const database = await openDatabase({
    kind: 'postgres',
    url: withDatabaseName(adminUrl, name),
    poolSize: 2,
  });
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** Applies the migrations numbered before `stopAt` only. */
async function migrateBefore(db: Kysely<DB>, stopAt: string) {
  const dir = await mkdtemp(path.join(tmpdir(), 'tt-migrations-'));
  try {
    for (const name of await readdir(MIGRATIONS_DIR)) {
      if (name < stopAt) await copyFile(path.join(MIGRATIONS_DIR, name), path.join(dir, name));
    }
    return await migrate(db, `${dir}/`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface RevenueRow {
  site_id: string;
  day: string;
  model: string;
  source: string;
  currency: string;
  gross_minor: string;
  refunded_minor: string;
  conversions: string;
  trials: string;
}

/** Every daily_revenue row, numbers as the exact text of the numeric columns. */
async function revenueRows(db: Kysely<DB>): Promise<RevenueRow[]> {
  const { rows } = await sql<RevenueRow>`
    select site_id, day, model, source, currency, gross_minor::text as gross_minor,
      refunded_minor::text as refunded_minor, conversions::text as conversions, trials::text as trials
    from daily_revenue order by site_id, day, model, source, currency`.execute(db);
  return rows;
}

/** Copies a table's rows by column name (the copy's schema may be older, with fewer columns). */
async function copyRows(
  from: Kysely<DB>,
  to: Kysely<DB>,
  table: 'payments' | 'refunds' | 'attribution_credits',
) {
  const { rows } = await sql<{ rows: unknown[] | null }>`
    select jsonb_agg(to_jsonb(t)) as rows from ${sql.table(table)} t`.execute(from);
  const json = JSON.stringify(rows[0]?.rows ?? []);
  await sql`insert into ${sql.table(table)}
    select * from jsonb_populate_recordset(null::${sql.table(table)}, ${json}::jsonb)`.execute(to);
}

/**
 * The rows as the old ledger posted them: the same money, and each posted payment's conversion
 * (and trial) split by share under each model, as `splitAmount(1, shares)` split it.
 */
async function asOldLedgerPosted(db: Kysely<DB>, rows: RevenueRow[]): Promise<RevenueRow[]> {
  const { rows: payments } = await sql<{
    site_id: string;
    event_id: string;
    kind: string;
    day: string;
    currency: string;
  }>`select site_id, event_id, kind, (paid_at at time zone 'UTC')::date as day,
      coalesce(settlement_currency, currency) as currency
    from payments where attributed_at is not null`.execute(db);
  const credits = await db
    .selectFrom('attribution_credits')
    .select(['site_id', 'event_id', 'model', 'source', 'share'])
    .execute();
  const counts = new Map<string, { conversions: bigint; trials: bigint }>();
  for (const payment of payments) {
    for (const model of ATTRIBUTION_MODELS) {
      const own = credits.filter(
        (c) => c.site_id === payment.site_id && c.event_id === payment.event_id && c.model === model,
      );
      const shares =
        own.length > 0 ? new Map(own.map((c) => [c.source, c.share])) : new Map([[UNATTRIBUTED_SOURCE, 1]]);
      for (const [source, micro] of splitAmount(1, shares)) {
        const key = JSON.stringify([payment.site_id, payment.day, model, source, payment.currency]);
        const count = counts.get(key) ?? { conversions: 0n, trials: 0n };
        count.conversions += micro;
        if (payment.kind === 'trial') count.trials += micro;
        counts.set(key, count);
      }
    }
  }
  return rows.map((row) => {
    const count = counts.get(JSON.stringify([row.site_id, row.day, row.model, row.source, row.currency]));
    return {
      ...row,
      conversions: microToDecimal(count?.conversions ?? 0n),
      trials: microToDecimal(count?.trials ?? 0n),
    };
  });
}

describe(`migration ${RECOUNT}`, () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  let fresh: RevenueRow[];
  let old: Database;
  let posted: RevenueRow[];

  const pay = async (body: Record<string, unknown>) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key, currency: 'USD', ...body },
    });
    expect(response.statusCode, response.body).toBe(202);
    return response.json().event_id as string;
  };
  /** Credits stored before the job runs, which it then uses as they are. */
  const credit = (eventId: string, credits: [model: AttributionModel, source: string, share: number][]) =>
    t.database.db
      .insertInto('attribution_credits')
      .values(
        credits.map(([model, source, share]) => ({
          site_id: site.id,
          event_id: eventId,
          model,
          source,
          source_kind: 'ai',
          share,
        })),
      )
      .execute();
  const row = (rows: RevenueRow[], day: string, model: string, source: string, currency = 'USD') =>
    rows.find((r) => r.day === day && r.model === model && r.source === source && r.currency === currency);

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'recount.example.com' });
    t.clock.set(new Date('2026-05-04T08:00:00Z'));
    const [buyer, trialist] = [newVisitorId(), newVisitorId()];
    // The buyer comes from ChatGPT, then from search: linear halves (a tie, to chatgpt by name),
    // time decay more for search, the newer. The trialist: search, then ChatGPT twice.
    await arrive(t, site, buyer, 'chatgpt');
    await arrive(t, site, trialist, 'search');
    t.clock.advance(HOUR_MS);
    await arrive(t, site, trialist, 'chatgpt');
    t.clock.advance(HOUR_MS);
    await arrive(t, site, buyer, 'search');
    await arrive(t, site, trialist, 'chatgpt');
    // Within their visits: the signup is no visit of its own.
    t.clock.advance(10 * MINUTE_MS);
    await pay({ transaction_id: 'pi_buyer', amount: 90, visitor_id: buyer });
    // A goal conversion: attributed, but never in daily_revenue.
    await convert(t, site, buyer, 'signup');
    await pay({ transaction_id: 'pi_trial', amount: 0, is_free_trial: true, visitor_id: trialist });
    // No visit: unattributed, in what the processor paid out, or in the payment's own currency.
    await pay({
      transaction_id: 'pi_settled',
      amount: 50,
      currency: 'EUR',
      settlement_amount: 55,
      settlement_currency: 'USD',
      visitor_id: newVisitorId(),
    });
    await pay({ transaction_id: 'pi_euros', amount: 30, currency: 'EUR' });
    // Shares equal to nine decimals: a tie, to chatgpt by name though perplexity's is larger.
    // No credit under time_decay: unattributed under that model alone.
    const tie = await pay({ transaction_id: 'pi_tie', amount: 10 });
    await credit(tie, [
      ['first_touch', 'perplexity', 1],
      ['last_touch', 'perplexity', 1],
      ['linear', 'chatgpt', 0.4999999999],
      ['linear', 'perplexity', 0.5000000001],
    ]);
    // Math.round(share * 1e9) tells these two apart (266960292 and 266960293), so perplexity's
    // is the largest; round(share::numeric, 9) would read a tie, to chatgpt.
    const edge = await pay({ transaction_id: 'pi_edge', amount: 20 });
    await credit(edge, [
      ['first_touch', 'search', 1],
      ['last_touch', 'search', 1],
      ['time_decay', 'search', 1],
      ['linear', 'chatgpt', 0.2669602925],
      ['linear', 'perplexity', 0.266960293],
      ['linear', 'search', 0.233039707],
      ['linear', 'referral', 0.2330397075],
    ]);
    await t.app.services.attribution.runUntilIdle();
    // The next day: part of the buyer's payment comes back, and they pay again.
    t.clock.advance(DAY_MS);
    await pay({ transaction_id: 'pi_buyer', amount: 90, visitor_id: buyer, refunded_amount: 40 });
    await pay({ transaction_id: 'pi_buyer_again', amount: 90, visitor_id: buyer, renewal: true });
    await t.app.services.attribution.runUntilIdle();
    fresh = await revenueRows(t.database.db);

    old = await openEmptyDatabase();
    const applied = await migrateBefore(old.db, RECOUNT);
    expect(applied.at(-1)).toBe('035_ingest_refusals.sql');
    for (const table of ['payments', 'refunds', 'attribution_credits'] as const) {
      await copyRows(t.database.db, old.db, table);
    }
    posted = await asOldLedgerPosted(t.database.db, fresh);
    const num = (text: string) => sql<number>`${text}::numeric`;
    await old.db
      .insertInto('daily_revenue')
      .values(
        posted.map((r) => ({
          ...r,
          gross_minor: num(r.gross_minor),
          refunded_minor: num(r.refunded_minor),
          conversions: num(r.conversions),
          trials: num(r.trials),
        })),
      )
      .execute();
  });
  afterAll(() => old?.close());

  it('starts from fractional counts where the old ledger split a conversion', async () => {
    const day = '2026-05-04';
    expect(row(posted, day, 'linear', 'chatgpt')).toMatchObject({
      conversions: '1.933627',
      trials: '0.666667',
    });
    expect(row(posted, day, 'linear', 'search')).toMatchObject({
      conversions: '1.066373',
      trials: '0.333333',
    });
    expect(row(posted, day, 'linear', 'perplexity')?.conversions).toBe('0.766960');
    expect(await revenueRows(old.db)).toEqual(posted);
  });

  it('the fresh ledger counts each conversion once, for the largest share, under the ledger’s keys', () => {
    const day = '2026-05-04';
    const counts = (model: string, source: string, currency = 'USD') => {
      const found = row(fresh, day, model, source, currency);
      return found && [Number(found.conversions), Number(found.trials)];
    };
    // buyer (tie: chatgpt), trial (two thirds: chatgpt), tie (chatgpt); edge: perplexity.
    expect(counts('linear', 'chatgpt')).toEqual([3, 1]);
    expect(counts('linear', 'search')).toEqual([0, 0]);
    expect(counts('linear', 'perplexity')).toEqual([1, 0]);
    expect(counts('linear', 'referral')).toEqual([0, 0]);
    expect(counts('time_decay', 'search')).toEqual([2, 0]);
    expect(counts('time_decay', 'chatgpt')).toEqual([1, 1]);
    // settled (in USD) and tie under time_decay, which credited nobody; the euros apart.
    expect(counts('time_decay', '')).toEqual([2, 0]);
    expect(counts('time_decay', '', 'EUR')).toEqual([1, 0]);
    expect(counts('linear', '')).toEqual([1, 0]);
    // The refund's day: the new payment's count, the refund's money, no count of its own.
    expect(row(fresh, '2026-05-05', 'linear', 'chatgpt')).toMatchObject({ conversions: '1.000000' });
    expect(row(fresh, '2026-05-05', 'linear', 'search')).toMatchObject({
      refunded_minor: '2000.000000',
      conversions: '0.000000',
    });
  });

  it('reads, once migrated, exactly what the fresh ledger posted, money untouched', async () => {
    expect(await migrate(old.db)).toContain(RECOUNT);
    expect(await revenueRows(old.db)).toEqual(fresh);
  });

  it('changes nothing in rows the new ledger wrote', async () => {
    const script = await readFile(path.join(MIGRATIONS_DIR, RECOUNT), 'utf8');
    await sql.raw(script).execute(t.database.db);
    expect(await revenueRows(t.database.db)).toEqual(fresh);
  });
});
