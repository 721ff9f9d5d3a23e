/**
 * The site export's contract dataset, collected through the front doors at the test clock's
 * time: a visit from ChatGPT with a campaign (the first millisecond of the window), a custom
 * event with a value and properties full of commas, quotes, a line break and an emoji, an
 * identify, a server event naming the user, a EUR payment with an email (so person keys exist to
 * be left out) whose transaction id holds a comma, quotes and a line break, refunded in part, a
 * JPY renewal, a direct visit in the last millisecond, and visits a millisecond before and after.
 */
import { expect } from 'vitest';
import { arrive, convert, identify, serverEvent } from '../attribution/attribution.fixtures.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { DAY_MS } from '../lib/clock.js';
import { newTransactionId, postPayment } from '../payments/payments.fixtures.js';
import type { TestApp, TestContext } from '../test/app.js';
import { insertSite } from '../test/factories.js';

export const day = (date: Date) => date.toISOString().slice(0, 10);
export const AWKWARD = { note: 'a, "quoted"\nline', emoji: '📚' };
export const TRANSACTION = 'order, "7"\nsecond line';

export type ExportDataset = Awaited<ReturnType<typeof seedExportDataset>>;

/** The dataset, around a window of two UTC days starting the day after the clock's day. */
export async function seedExportDataset(t: TestContext) {
  const site = await insertSite(t, t.owner.accountId);
  const start = new Date(Math.ceil(t.clock.now().getTime() / DAY_MS) * DAY_MS);
  const window = { from: day(start), to: day(new Date(start.getTime() + DAY_MS)) };
  const end = new Date(start.getTime() + 2 * DAY_MS);
  const [before, buyer, last, after] = [newVisitorId(), newVisitorId(), newVisitorId(), newVisitorId()];

  t.clock.set(new Date(start.getTime() - 1));
  await arrive(t, site, before, 'search');
  t.clock.set(start);
  await arrive(
    t,
    site,
    buyer,
    'chatgpt',
    '/pricing?utm_source=newsletter&utm_medium=email&utm_campaign=spring',
  );
  t.clock.advance(5_000);
  await convert(t, site, buyer, 'plan_chosen', { props: AWKWARD, value: 12.5, currency: 'EUR' });
  t.clock.advance(5_000);
  await identify(t, site, buyer, 'user-42');
  t.clock.advance(5_000);
  await serverEvent(t, t.owner.apiKey, {
    site_id: site.snippet_key,
    name: 'signed_up',
    user_id: 'user-42',
    visitor_id: buyer,
  });
  t.clock.advance(5_000);
  const paid = await postPayment(t, t.owner.apiKey, {
    site_id: site.snippet_key,
    transaction_id: TRANSACTION,
    amount: 49.99,
    currency: 'EUR',
    visitor_id: buyer,
    email: 'buyer@example.com',
    customer_id: 'cus_42',
  });
  expect(paid.statusCode, paid.body).toBe(202);
  t.clock.advance(5_000);
  const refunded = await postPayment(t, t.owner.apiKey, {
    site_id: site.snippet_key,
    transaction_id: TRANSACTION,
    amount: 49.99,
    currency: 'EUR',
    refunded_amount: 10,
  });
  expect(refunded.statusCode, refunded.body).toBe(202);
  const yen = await postPayment(t, t.owner.apiKey, {
    site_id: site.snippet_key,
    transaction_id: newTransactionId(),
    amount: 1500,
    currency: 'JPY',
    renewal: true,
  });
  expect(yen.statusCode, yen.body).toBe(202);
  t.clock.set(new Date(end.getTime() - 1));
  await arrive(t, site, last, 'direct', '/last');
  t.clock.set(end);
  await arrive(t, site, after, 'direct');
  return { site, window, start, end };
}

/** The site's rows of the window as stored, in export order. */
export async function storedInWindow(t: TestApp, { site, start, end }: ExportDataset) {
  const db = t.database.db;
  const [visits, events, payments] = await Promise.all([
    db
      .selectFrom('visits')
      .selectAll()
      .where('site_id', '=', site.id)
      .where('started_at', '>=', start)
      .where('started_at', '<', end)
      .orderBy('started_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('events')
      .selectAll()
      .where('site_id', '=', site.id)
      .where('occurred_at', '>=', start)
      .where('occurred_at', '<', end)
      .orderBy('occurred_at')
      .orderBy('event_id')
      .execute(),
    db
      .selectFrom('payments')
      .selectAll()
      .where('site_id', '=', site.id)
      .where('paid_at', '>=', start)
      .where('paid_at', '<', end)
      .orderBy('paid_at')
      .orderBy('id')
      .execute(),
  ]);
  return { visits, events, payments };
}

/** What the export must write for the stored rows, field by field. */
export async function expectedRecords(t: TestApp, dataset: ExportDataset) {
  const stored = await storedInWindow(t, dataset);
  const visits = stored.visits.map((v) => ({
    record: 'visit',
    id: v.id,
    visitor_id: v.visitor_id,
    started_at: v.started_at.toISOString(),
    last_activity_at: v.last_activity_at.toISOString(),
    entry_url: v.entry_url,
    exit_url: v.exit_url,
    source_kind: v.source_kind,
    session_ai_source: v.session_ai_source,
    source_name: v.source_name,
    campaign: v.campaign,
    utm_source: v.utm_source,
    utm_medium: v.utm_medium,
    utm_content: v.utm_content,
    utm_term: v.utm_term,
    ref: v.ref,
    device_type: v.device_type,
    os: v.os,
    browser: v.browser,
    country_code: v.country_code,
    city: v.city,
    pageviews: v.pageviews,
    engaged_seconds: v.engaged_seconds,
    is_new: v.is_new,
  }));
  const events = stored.events.map((e) => ({
    record: 'event',
    id: e.event_id,
    type: e.type,
    name: e.name,
    visitor_id: e.visitor_id,
    visit_id: e.visit_id,
    occurred_at: e.occurred_at.toISOString(),
    url: e.url,
    properties: e.properties,
    value_minor: e.value_minor,
    currency: e.currency,
    origin: e.origin,
  }));
  const payments = stored.payments.map((p) => ({
    record: 'payment',
    provider: p.provider,
    transaction_id: p.transaction_id,
    kind: p.kind,
    amount: p.currency === 'JPY' ? String(p.amount_minor) : (p.amount_minor / 100).toFixed(2),
    currency: p.currency,
    refunded_amount: p.currency === 'JPY' ? String(p.refunded_minor) : (p.refunded_minor / 100).toFixed(2),
    renewal: p.renewal,
    customer_id: p.customer_id,
    visitor_id: p.visitor_id,
    paid_at: p.paid_at.toISOString(),
    event_id: p.event_id,
  }));
  return { stored, visits, events, payments };
}
