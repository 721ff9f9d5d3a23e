import type { KyselyPlugin, PluginTransformQueryArgs, RootOperationNode } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createManualClock } from '../lib/clock.js';
import { createTestApp, SETUP_TOKEN, setUpOwner, type TestApp, useTestApp } from '../test/app.js';
import { openTestDatabase } from '../test/database.js';
import { insertSite } from '../test/factories.js';
import { newTransactionId, postPayment, storedRows, sumOf } from './payments.fixtures.js';

describe('POST /v1/server/payments under concurrency', () => {
  const t = useTestApp();

  it('creates exactly one payment from 50 concurrent identical posts: one recorded, 49 duplicate', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const body = {
      site_id: site.snippet_key,
      transaction_id: 'pi_race',
      amount: 25,
      currency: 'GBP',
      provider: 'stripe',
    };
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => postPayment(t, t.owner.apiKey, body)),
    );
    expect(responses.every((r) => r.statusCode === 202)).toBe(true);
    const statuses = responses.map((r) => r.json().status);
    expect(statuses.filter((s) => s === 'recorded')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'duplicate')).toHaveLength(49);
    const rows = await storedRows(t, site.id);
    expect(rows.payments).toHaveLength(1);
    expect(rows.events).toHaveLength(1);
    expect(rows.jobs).toHaveLength(1);
    expect(rows.completions).toEqual([expect.objectContaining({ completions: 1 })]);
  });

  it('never subtracts more than outstanding under concurrent refunds, posted or not yet posted', async () => {
    for (const isPostedFirst of [true, false]) {
      const site = await insertSite(t, t.owner.accountId);
      const body = {
        site_id: site.snippet_key,
        transaction_id: newTransactionId(),
        amount: 100,
        currency: 'USD',
      };
      if (isPostedFirst) await postPayment(t, t.owner.apiKey, body);
      const totals = [10, 35, 35, 60, 99.99, 120, 5, 80, null, null, 45, 100, 70, 20, null];
      const responses = await Promise.all(
        totals.map((total) =>
          postPayment(
            t,
            t.owner.apiKey,
            total === null ? { ...body, refunded: true } : { ...body, refunded_amount: total },
          ),
        ),
      );
      expect(responses.map((r) => r.json().status)).toEqual(totals.map(() => 'refunded'));
      const { payments, refunds, events } = await storedRows(t, site.id);
      expect(payments).toHaveLength(1);
      expect(events).toHaveLength(1);
      expect(payments[0]?.refunded_minor).toBe(10_000);
      expect(sumOf(refunds.map((r) => r.amount_minor))).toBe(10_000);
      expect(refunds.every((r) => r.amount_minor > 0)).toBe(true);
    }
  });
});

/**
 * Stops every query once on, as a lost connection would; `at` turns it on at a given table's
 * insert, built with Kysely's builder or written as SQL.
 */
function createOutage() {
  const outage = { isOn: false, atConversion: false };
  // The conversion is written by a database function (ingest.store.ts recordEvents).
  const writesConversion = (node: RootOperationNode) =>
    node.kind === 'RawNode' && JSON.stringify(node).includes('touchtrail_record_events(');
  const plugin: KyselyPlugin = {
    transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
      if (outage.atConversion && writesConversion(node)) outage.isOn = true;
      if (outage.isOn)
        throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { outage, plugin };
}

describe('POST /v1/server/payments when the database fails', () => {
  it('answers 503 unavailable when the database is closed', async () => {
    const t = await createTestApp();
    const owner = await setUpOwner(t);
    const site = await insertSite(t, owner.accountId);
    await t.database.close();
    const response = await postPayment(t, owner.apiKey, {
      site_id: site.snippet_key,
      transaction_id: 'pi_down',
      amount: 5,
      currency: 'USD',
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: 'unavailable' });
    await t.app.close();
  });

  it('records nothing when the connection is lost mid-transaction, and a retry records once', async () => {
    const database = await openTestDatabase();
    const { outage, plugin } = createOutage();
    const clock = createManualClock(new Date());
    const config = loadConfig({ SETUP_TOKEN, SECRET_KEY: 'k'.repeat(40) });
    const app = await buildApp({
      config,
      database: { ...database, db: database.db.withPlugin(plugin) },
      clock,
      logger: false,
    });
    const t: TestApp = {
      app,
      database,
      clock,
      config,
      logs: () => '',
      request: (o) => app.inject(o),
      rawRequest: (o) => app.inject(o),
      close: async () => {},
    };
    try {
      const owner = await setUpOwner(t);
      const site = await insertSite(t, owner.accountId);
      const body = {
        site_id: site.snippet_key,
        transaction_id: 'pi_flaky',
        amount: 5,
        currency: 'USD',
        email: 'x@example.com',
      };

      outage.isOn = true;
      const refused = await postPayment(t, owner.apiKey, body);
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toEqual({ error: 'unavailable' });

      outage.isOn = false;
      // The payment row is written by then; the conversion's statement never reaches the database.
      outage.atConversion = true;
      const cut = await postPayment(t, owner.apiKey, body);
      expect(cut.statusCode).toBe(503);
      expect(cut.json()).toEqual({ error: 'unavailable' });
      const nothing = await storedRows(t, site.id);
      expect([nothing.payments, nothing.events, nothing.completions, nothing.jobs]).toEqual([[], [], [], []]);

      outage.isOn = false;
      outage.atConversion = false;
      const recorded = (await postPayment(t, owner.apiKey, body)).json();
      expect(recorded).toEqual({
        status: 'recorded',
        transaction_id: 'pi_flaky',
        event_id: expect.any(String),
      });
      expect((await postPayment(t, owner.apiKey, body)).json()).toEqual({
        status: 'duplicate',
        transaction_id: 'pi_flaky',
        event_id: recorded.event_id,
      });
      const once = await storedRows(t, site.id);
      expect(recorded.event_id).toBe(once.payments[0]?.event_id);
      expect([once.payments.length, once.events.length, once.jobs.length]).toEqual([1, 1, 1]);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
