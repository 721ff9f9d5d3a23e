/**
 * Erasure: the person leaves no trace by the table-by-table check, reports over past
 * days do not change, payments keep their amounts, facts and queued deliveries about the person
 * go, and the work resumes after a crash and survives the person's visits arriving meanwhile.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { emailPersonKey, userPersonKey } from '../identity/person-key.js';
import { collect, pageview } from '../ingest/ingest.fixtures.js';
import { DAY_MS, MINUTE_MS } from '../lib/clock.js';
import { bearer } from '../test/app.js';
import { useWebhookTestApp } from '../webhooks/webhooks.test-app.js';
import { type SeededPerson, seedPerson } from './privacy.fixtures.js';
import { findTraces, type Trace } from './privacy.trace.query.js';
import { PRIVACY_LEASE_MS } from './privacy-jobs.js';

describe('privacy erasure', () => {
  // Past days keep their counts in PostgreSQL's rollups after raw rows go; ClickHouse reads raw
  // rows, so with it on these figures drop (README, "Running on ClickHouse"): PostgreSQL only.
  const w = useWebhookTestApp({}, { clickhouse: false });
  const t = w.t;
  const site = () => ({ snippet_key: w.site.site_id, domain: 'shop.example' });
  let start = new Date('2026-02-02T10:00:00Z');
  const nextWeek = () => {
    start = new Date(start.getTime() + 7 * DAY_MS);
    return start;
  };
  const erase = async (subject: { kind: string; value: string }) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/privacy/requests',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: w.siteId, type: 'erasure', subject },
    });
    expect(response.statusCode, response.body).toBe(202);
    return response.json() as { id: string; matched: Record<string, number> };
  };
  /** The erasure step a request will run next. */
  const stepOf = async (id: string) =>
    (
      await t.database.db
        .selectFrom('privacy_requests')
        .select('step')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).step;
  const status = async (id: string) =>
    (
      await t.request({ method: 'GET', url: `/v1/privacy/requests/${id}`, headers: bearer(t.owner.apiKey) })
    ).json();

  /** Every id and keyed hash of the person, and their people-list hashes. */
  function needlesOf(person: SeededPerson) {
    const secret = t.config.secretKey as string;
    const keys = [emailPersonKey(secret, person.email), userPersonKey(secret, person.userId)];
    return {
      strings: [...person.visitors, ...keys, person.customerId, person.email, person.userId],
      people: [...person.visitors.map((id) => `v:${id}`), ...keys.map((key) => `p:${key}`)],
    };
  }

  const statsOver = async (
    from: string,
    to: string,
    dimensions: string[] = [],
    metrics = ['visitors', 'visits', 'pageviews', 'bounce_rate', 'visit_duration'],
  ) => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/stats/query',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: w.site.site_id, metrics, date_range: [from, to], dimensions },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().results;
  };
  const revenueOver = async (from: string, to: string) => {
    const response = await t.request({
      method: 'GET',
      url: `/v1/revenue?site_id=${w.site.site_id}&from=${from}&to=${to}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  beforeAll(async () => {
    const receiver = await w.startReceiver();
    await w.api.add(receiver.url, ['ai_session.classified', 'conversion.attributed']);
  });

  it('leaves no trace of the person in any table, keeps reports over past days and the books', async () => {
    const ada = await seedPerson(t, site(), t.owner.apiKey, 'ada', nextWeek());
    const bob = await seedPerson(t, site(), t.owner.apiKey, 'bob', start);
    await t.app.services.attribution.runUntilIdle();
    await t.app.services.webhooks.dispatchOutbox();
    // The last day is left for the erasure to build; the rollup job builds the others.
    t.clock.set(new Date(start.getTime() + 2 * DAY_MS + 30 * MINUTE_MS));
    await t.app.services.statsRollups.runOnce();
    t.clock.set(new Date(start.getTime() + 4 * DAY_MS));
    const from = start.toISOString().slice(0, 10);
    const to = new Date(start.getTime() + 2 * DAY_MS).toISOString().slice(0, 10);
    const before = {
      total: await statsOver(from, to),
      byDay: await statsOver(from, to, ['time:day']),
      byChannel: await statsOver(from, to, ['visit:ai_source']),
      byGoal: await statsOver(from, to, ['event:goal'], ['visitors', 'conversions', 'events']),
      revenue: await revenueOver(from, to),
    };
    expect(before.byGoal.length).toBeGreaterThan(0);
    const adaBefore = (await findTraces(t.database.db, needlesOf(ada))).map((trace) => trace.table);
    for (const table of [
      'visits',
      'events',
      'identity_links',
      'payments',
      'stats_visit_rollups',
      'stats_goal_rollups',
    ])
      expect(adaBefore).toContain(table);
    const aiVisitsOf = (person: SeededPerson) =>
      t.database.db
        .selectFrom('visits')
        .select('id')
        .where('visitor_id', 'in', person.visitors)
        .where('source_kind', '=', 'ai')
        .execute();
    const [adaAiVisits, bobAiVisits] = [await aiVisitsOf(ada), await aiVisitsOf(bob)];
    const queued = await t.database.db
      .selectFrom('webhook_deliveries')
      .select('payload')
      .where('status', '=', 'pending')
      .execute();
    for (const visit of adaAiVisits) expect(JSON.stringify(queued)).toContain(visit.id);
    const bobTraces = await findTraces(t.database.db, needlesOf(bob));

    const request = await erase({ kind: 'email', value: ada.email });
    expect(request.matched).toEqual({
      visitors: 3,
      visits: 3,
      events: 8,
      identity_links: 4,
      payments: 1,
      refunds: 1,
    });
    const report = await t.app.services.privacyJobs.runPrivacyOnce();
    expect(report).toEqual({ completed: [request.id], unfinished: [], failed: [] });
    expect(await status(request.id)).toMatchObject({
      status: 'completed',
      matched: request.matched,
      error: null,
    });

    expect(await findTraces(t.database.db, needlesOf(ada))).toEqual([]);
    // Bob's rows are untouched; the last day's rollups, built by the erasure, hold him too.
    const outsideRollups = (traces: Trace[]) => traces.filter((trace) => !trace.table.startsWith('stats_'));
    expect(outsideRollups(await findTraces(t.database.db, needlesOf(bob)))).toEqual(
      outsideRollups(bobTraces),
    );
    expect(await statsOver(from, to)).toEqual(before.total);
    expect(await statsOver(from, to, ['time:day'])).toEqual(before.byDay);
    expect(await statsOver(from, to, ['visit:ai_source'])).toEqual(before.byChannel);
    // Her goal conversions are gone, but the goal rollups keep them in the figures.
    expect(await statsOver(from, to, ['event:goal'], ['visitors', 'conversions', 'events'])).toEqual(
      before.byGoal,
    );
    expect(await revenueOver(from, to)).toEqual(before.revenue);

    const payment = await t.database.db
      .selectFrom('payments')
      .selectAll()
      .where('transaction_id', '=', ada.transactionId)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({
      amount_minor: 4900,
      refunded_minor: 1000,
      visitor_id: null,
      person_key: null,
      customer_id: null,
    });
    // Bob's queued deliveries and facts stay; Ada's went (the trace check found none naming her visits).
    const deliveries = JSON.stringify(
      await t.database.db.selectFrom('webhook_deliveries').select('payload').execute(),
    );
    const facts = JSON.stringify(await t.database.db.selectFrom('outbox_events').select('payload').execute());
    for (const visit of bobAiVisits) {
      expect(deliveries).toContain(visit.id);
      expect(facts).toContain(visit.id);
    }
    for (const visit of adaAiVisits) {
      expect(deliveries).not.toContain(visit.id);
      expect(facts).not.toContain(visit.id);
    }

    const again = await erase({ kind: 'customer_id', value: ada.customerId });
    expect(Object.values(again.matched)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('ends earlier access exports about the person', async () => {
    const cy = await seedPerson(t, site(), t.owner.apiKey, 'cy', nextWeek());
    const access = await t.request({
      method: 'POST',
      url: '/v1/privacy/requests',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: w.site.site_id, type: 'access', subject: { kind: 'user_id', value: cy.userId } },
    });
    await t.app.services.privacyJobs.runPrivacyOnce();
    await erase({ kind: 'visitor_id', value: cy.visitors[2] as string });
    await t.app.services.privacyJobs.runPrivacyOnce();
    const download = await t.request({
      method: 'GET',
      url: `/v1/privacy/requests/${access.json().id}/export`,
      headers: bearer(t.owner.apiKey),
    });
    expect(download.statusCode).toBe(410);
    expect(await findTraces(t.database.db, needlesOf(cy))).toEqual([]);
  });

  it('resumes after a worker dies holding the request, at the step it reached', async () => {
    const dee = await seedPerson(t, site(), t.owner.apiKey, 'dee', nextWeek());
    const request = await erase({ kind: 'user_id', value: dee.userId });
    // Four rows a batch, five batches: the run stops part-way through.
    const first = await t.app.services.privacyJobs.runPrivacyOnce({
      batchSize: 4,
      maxBatches: 5,
      workerId: 'w1',
    });
    expect(first.unfinished).toEqual([request.id]);
    expect(await stepOf(request.id)).not.toBeNull();
    // As if the next worker died mid-batch: its lease stands until it runs out.
    await t.database.db
      .updateTable('privacy_requests')
      .set({ locked_by: 'dead-worker', locked_until: new Date(t.clock.now().getTime() + PRIVACY_LEASE_MS) })
      .where('id', '=', request.id)
      .execute();
    expect((await t.app.services.privacyJobs.runPrivacyOnce()).completed).toEqual([]);
    expect((await status(request.id)).status).toBe('running');
    t.clock.advance(PRIVACY_LEASE_MS);
    expect((await t.app.services.privacyJobs.runPrivacyOnce({ workerId: 'w2' })).completed).toEqual([
      request.id,
    ]);
    expect(await findTraces(t.database.db, needlesOf(dee))).toEqual([]);
  });

  it('deletes the events of a visit that started between its events step and its visits step', async () => {
    const fay = await seedPerson(t, site(), t.owner.apiKey, 'fay', nextWeek());
    const request = await erase({ kind: 'email', value: fay.email });
    for (let batch = 0; (await stepOf(request.id)) !== 'visits'; batch += 1) {
      expect(batch).toBeLessThan(100);
      await t.app.services.privacyJobs.runPrivacyOnce({ maxBatches: 1 });
    }
    // The events step is over: this visit and its pageview are new to the erasure.
    const response = await collect(
      t,
      pageview(w.site.site_id, fay.visitors[0] as string, 'https://shop.example/late'),
    );
    expect(response.statusCode).toBeLessThan(300);
    expect((await t.app.services.privacyJobs.runPrivacyOnce()).completed).toEqual([request.id]);
    expect(await findTraces(t.database.db, needlesOf(fay))).toEqual([]);
  });

  it('erases visits that arrive for the person while it runs, and answers every ingest', async () => {
    const eve = await seedPerson(t, site(), t.owner.apiKey, 'eve', nextWeek());
    const request = await erase({ kind: 'email', value: eve.email });
    await t.app.services.privacyJobs.runPrivacyOnce({ batchSize: 1, maxBatches: 12 });
    // The visits step has run; the person comes back on two of their browsers.
    for (const visitor of eve.visitors.slice(0, 2)) {
      const response = await collect(t, pageview(w.site.site_id, visitor, 'https://shop.example/again'));
      expect(response.statusCode).toBeLessThan(300);
    }
    expect((await t.app.services.privacyJobs.runPrivacyOnce()).completed).toEqual([request.id]);
    expect(await findTraces(t.database.db, needlesOf(eve))).toEqual([]);

    // A visit and an erasure at the same moment: both succeed; the visit is either erased or
    // came after the erasure finished, and then a new request finds it.
    const again = await erase({ kind: 'visitor_id', value: eve.visitors[2] as string });
    const [ingested, run] = await Promise.all([
      collect(t, pageview(w.site.site_id, eve.visitors[2] as string, 'https://shop.example/more')),
      t.app.services.privacyJobs.runPrivacyOnce({ batchSize: 2 }),
    ]);
    expect(ingested.statusCode).toBeLessThan(300);
    expect(run).toMatchObject({ completed: [again.id], failed: [] });
    const left = await t.database.db
      .selectFrom('visits')
      .select('entry_url')
      .where('visitor_id', 'in', eve.visitors)
      .execute();
    expect(left.every((visit) => visit.entry_url === 'https://shop.example/more')).toBe(true);
    await erase({ kind: 'visitor_id', value: eve.visitors[2] as string });
    await t.app.services.privacyJobs.runPrivacyOnce();
    expect(await findTraces(t.database.db, needlesOf(eve))).toEqual([]);
  });
});
