import { describe, expect, it } from 'vitest';
import { emailPersonKey } from '../identity/person-key.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { arrive, recordPayment, recordRefund, revenueRows, serverEvent } from './attribution.fixtures.js';
import { createAttributionWorker } from './attribution.worker.js';

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

describe('attribution of payments', () => {
  const t = useTestApp();

  let sites = 0;
  const newSite = () => insertSite(t, t.owner.accountId, { domain: `pay-${++sites}.example.com` });
  const attribute = () => createAttributionWorker({ db: t.database.db, clock: t.clock }).runUntilIdle();
  const paymentOf = (siteId: string, id: string) =>
    t.database.db
      .selectFrom('payments')
      .selectAll()
      .where('site_id', '=', siteId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('puts a payment’s gross and conversion on its day under every model', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    await arrive(t, site, vid, 'chatgpt');
    t.clock.advance(7 * DAY_MS);
    await arrive(t, site, vid, 'search');
    const payment = await recordPayment(t, site, { amountMinor: 9000, currency: 'EUR', visitorId: vid });
    const day = dayOf(t.clock.now());

    await attribute();
    const row = (source: string, gross: number, conversions: number) => ({
      day,
      source,
      currency: 'EUR',
      gross_minor: gross,
      refunded_minor: 0,
      conversions,
      trials: 0,
    });
    expect(await revenueRows(t, site.id, 'first_touch')).toEqual([row('chatgpt', 9000, 1)]);
    expect(await revenueRows(t, site.id, 'last_touch')).toEqual([row('search', 9000, 1)]);
    // The money is split; the conversion counts once, for the largest share (a tie: by name).
    expect(await revenueRows(t, site.id, 'linear')).toEqual([
      row('chatgpt', 4500, 1),
      row('search', 4500, 0),
    ]);
    // Weights 1/2 and 1: a third and two thirds, in exact millionths that add up to the whole.
    expect(await revenueRows(t, site.id, 'time_decay')).toEqual([
      row('chatgpt', 3000, 0),
      row('search', 6000, 1),
    ]);
    expect((await paymentOf(site.id, payment.id)).attributed_at).toEqual(t.clock.now());
    const fact = await t.database.db
      .selectFrom('outbox_events')
      .select('payload')
      .where('site_id', '=', site.id)
      .where('dedupe_key', '=', payment.eventId)
      .executeTakeFirstOrThrow();
    expect(fact.payload).toMatchObject({
      event_name: 'payment',
      value_cents: 9000,
      currency: 'EUR',
      transaction_id: `tx_${payment.id.slice(0, 8)}`,
      provider: 'api',
      renewal: false,
      refunded_cents: 0,
    });

    // Attributing again adds nothing.
    await t.database.db
      .updateTable('attribution_jobs')
      .set({ status: 'pending' })
      .where('site_id', '=', site.id)
      .execute();
    await attribute();
    expect(await revenueRows(t, site.id, 'linear')).toEqual([
      row('chatgpt', 4500, 1),
      row('search', 4500, 0),
    ]);
  });

  it('counts a trial as a conversion and a trial with no revenue, and an unmatched payment under source ""', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    await arrive(t, site, vid, 'perplexity');
    await recordPayment(t, site, { amountMinor: 0, kind: 'trial', visitorId: vid });
    // Matched by email through nobody's visits: unattributed, still counted.
    await recordPayment(t, site, {
      amountMinor: 123_456,
      currency: 'JPY',
      personKey: emailPersonKey('k'.repeat(40), 'x@example.com'),
    });
    await attribute();
    const day = dayOf(t.clock.now());
    for (const model of ['first_touch', 'last_touch', 'linear', 'time_decay']) {
      expect(await revenueRows(t, site.id, model)).toEqual([
        {
          day,
          source: '',
          currency: 'JPY',
          gross_minor: 123_456,
          refunded_minor: 0,
          conversions: 1,
          trials: 0,
        },
        {
          day,
          source: 'perplexity',
          currency: 'USD',
          gross_minor: 0,
          refunded_minor: 0,
          conversions: 1,
          trials: 1,
        },
      ]);
    }
  });

  it('applies refunds posted before attribution on their own days, once', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    await arrive(t, site, vid, 'chatgpt');
    t.clock.advance(HOUR_MS);
    await arrive(t, site, vid, 'search');
    const paidDay = dayOf(t.clock.now());
    const payment = await recordPayment(t, site, { amountMinor: 10_000, visitorId: vid });
    // The worker is late: two refunds arrive first, on the next two days.
    t.clock.advance(DAY_MS);
    await recordRefund(t, site, payment.id, 2_500);
    const firstRefundDay = dayOf(t.clock.now());
    t.clock.advance(DAY_MS);
    await recordRefund(t, site, payment.id, 1_001);
    const secondRefundDay = dayOf(t.clock.now());

    await attribute();
    const linear = await revenueRows(t, site.id, 'linear');
    const bySourceAndDay = (source: string, day: string) =>
      linear.find((row) => row.source === source && row.day === day);
    expect(bySourceAndDay('chatgpt', paidDay)).toMatchObject({
      gross_minor: 5000,
      refunded_minor: 0,
      conversions: 1,
    });
    expect(bySourceAndDay('search', paidDay)).toMatchObject({
      gross_minor: 5000,
      refunded_minor: 0,
      conversions: 0,
    });
    expect(bySourceAndDay('chatgpt', firstRefundDay)).toMatchObject({
      gross_minor: 0,
      refunded_minor: 1250,
      conversions: 0,
    });
    expect(bySourceAndDay('search', secondRefundDay)).toMatchObject({ refunded_minor: 500.5 });
    const total = linear.reduce((sum, row) => sum + row.refunded_minor, 0);
    expect(total).toBe(3501);
    expect(await revenueRows(t, site.id, 'last_touch')).toEqual([
      {
        day: paidDay,
        source: 'search',
        currency: 'USD',
        gross_minor: 10_000,
        refunded_minor: 0,
        conversions: 1,
        trials: 0,
      },
      {
        day: firstRefundDay,
        source: 'search',
        currency: 'USD',
        gross_minor: 0,
        refunded_minor: 2500,
        conversions: 0,
        trials: 0,
      },
      {
        day: secondRefundDay,
        source: 'search',
        currency: 'USD',
        gross_minor: 0,
        refunded_minor: 1001,
        conversions: 0,
        trials: 0,
      },
    ]);
    const refunds = await t.database.db
      .selectFrom('refunds')
      .select('applied')
      .where('payment_id', '=', payment.id)
      .execute();
    expect(refunds).toEqual([{ applied: true }, { applied: true }]);
    // The payment's fact says what was refunded before it; each refund has its own fact.
    const facts = async () =>
      t.database.db
        .selectFrom('outbox_events')
        .select(['type', 'payload'])
        .where('site_id', '=', site.id)
        .where('type', 'like', 'conversion.%')
        .orderBy('type')
        .execute();
    const queued = await facts();
    expect(queued.map((fact) => fact.type)).toEqual([
      'conversion.attributed',
      'conversion.refunded',
      'conversion.refunded',
    ]);
    expect(queued[0]?.payload).toMatchObject({ event_id: payment.eventId, refunded_cents: 3501 });
    const refundFacts = queued.slice(1).map((fact) => fact.payload as { refunded_cents: number });
    expect(refundFacts.map((fact) => fact.refunded_cents).sort()).toEqual([1001, 2500]);

    await t.database.db
      .updateTable('attribution_jobs')
      .set({ status: 'pending' })
      .where('site_id', '=', site.id)
      .execute();
    await attribute();
    expect((await revenueRows(t, site.id, 'linear')).reduce((sum, row) => sum + row.refunded_minor, 0)).toBe(
      3501,
    );
    expect(await facts()).toHaveLength(3);
  });

  it('credits a payment that carries only an email to the visitor a server event linked by user id and email', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    await arrive(t, site, vid, 'chatgpt');
    t.clock.advance(HOUR_MS);
    await serverEvent(t, t.owner.apiKey, {
      site_id: site.snippet_key,
      name: 'signup',
      visitor_id: vid,
      user_id: 'user-77',
      email: 'Buyer@Example.com',
    });
    t.clock.advance(DAY_MS);
    const paid = await t.request({
      method: 'POST',
      url: '/v1/server/payments',
      headers: bearer(t.owner.apiKey),
      payload: {
        site_id: site.snippet_key,
        transaction_id: 'tx-email-only',
        amount: 49,
        currency: 'EUR',
        email: 'buyer@example.com',
      },
    });
    expect(paid.statusCode).toBe(202);
    await attribute();
    const credits = await t.database.db
      .selectFrom('attribution_credits as c')
      .innerJoin('events as e', (join) =>
        join.onRef('e.site_id', '=', 'c.site_id').onRef('e.event_id', '=', 'c.event_id'),
      )
      .select(['c.model', 'c.source'])
      .where('c.site_id', '=', site.id)
      .where('e.name', '=', 'payment')
      .orderBy('c.model')
      .execute();
    expect(credits).toEqual(
      ['first_touch', 'last_touch', 'linear', 'time_decay'].map((model) => ({ model, source: 'chatgpt' })),
    );
    // The visitor's person is still the user id: its link came first.
    const links = await t.database.db
      .selectFrom('identity_links')
      .select(['person_key', 'created_at'])
      .where('site_id', '=', site.id)
      .orderBy('created_at')
      .execute();
    expect(links.map((link) => link.person_key.slice(0, 2))).toEqual(['u:', 'e:']);
  });

  it('splits a zero-decimal amount over three sources without losing a fraction', async () => {
    const site = await newSite();
    const vid = newVisitorId();
    for (const from of ['chatgpt', 'search', 'perplexity'] as const) {
      await arrive(t, site, vid, from);
      t.clock.advance(HOUR_MS);
    }
    await recordPayment(t, site, { amountMinor: 1_000, currency: 'JPY', visitorId: vid });
    await attribute();
    for (const model of ['linear', 'time_decay']) {
      const rows = await revenueRows(t, site.id, model);
      expect(rows).toHaveLength(3);
      // numeric(24, 6) sums compared in millionths: exact.
      expect(rows.reduce((sum, row) => sum + Math.round(row.gross_minor * 1e6), 0)).toBe(1_000 * 1e6);
      expect(rows.reduce((sum, row) => sum + Math.round(row.conversions * 1e6), 0)).toBe(1e6);
    }
  });
});
