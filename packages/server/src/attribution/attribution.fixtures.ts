/**
 * Test data for attribution, conversions and revenue. Visits and goal events go through the
 * front door (POST /v1/collect, POST /v1/server/events) at the test clock's time. Payments and
 * refunds are written straight to the database, exactly as the payments endpoint stores them
 * (contract: migrations/006_revenue.sql) — a `payments` row, its `pay_<id>` conversion event
 * and its attribution job in one transaction — because these suites test what happens after a
 * payment is recorded, not the endpoint that records it.
 */
import { randomUUID } from 'node:crypto';
import { collect, newEventId, pageview } from '../ingest/ingest.fixtures.js';
import { bearer, type TestApp } from '../test/app.js';

export const REFERRERS = {
  chatgpt: 'https://chatgpt.com/',
  perplexity: 'https://www.perplexity.ai/',
  search: 'https://www.google.com/',
  direct: '',
} as const;

type Site = { id: string; snippet_key: string; domain: string };

/** A pageview that starts a visit from `from` now (the test clock). */
export async function arrive(t: TestApp, site: Site, vid: string, from: keyof typeof REFERRERS, path = '/') {
  const response = await collect(
    t,
    pageview(site.snippet_key, vid, `https://${site.domain}${path}`, REFERRERS[from]),
  );
  if (response.statusCode !== 202) throw new Error(`pageview refused: ${response.body}`);
}

/** A browser conversion event now; returns its event id. */
export async function convert(
  t: TestApp,
  site: Site,
  vid: string,
  name: string,
  extra: { props?: object; value?: number; currency?: string } = {},
) {
  const eid = newEventId();
  const response = await collect(t, {
    type: 'event',
    site: site.snippet_key,
    vid,
    eid,
    url: `https://${site.domain}/thanks`,
    name,
    ...extra,
  });
  if (response.statusCode !== 202) throw new Error(`event refused: ${response.body}`);
  return eid;
}

/** `identify()` from the browser: links the visitor id to the user. */
export async function identify(t: TestApp, site: Site, vid: string, uid: string) {
  const response = await collect(t, {
    type: 'identify',
    site: site.snippet_key,
    vid,
    url: `https://${site.domain}/account`,
    uid,
  });
  if (response.statusCode !== 202) throw new Error(`identify refused: ${response.body}`);
}

/** A server event with an API key; returns its event id. */
export async function serverEvent(t: TestApp, apiKey: string, body: Record<string, unknown>) {
  const response = await t.request({
    method: 'POST',
    url: '/v1/server/events',
    headers: bearer(apiKey),
    payload: body,
  });
  if (response.statusCode !== 202) throw new Error(`server event refused: ${response.body}`);
  return response.json().event_id as string;
}

export interface PaymentInput {
  amountMinor: number;
  currency?: string;
  kind?: 'payment' | 'trial';
  visitorId?: string | null;
  personKey?: string | null;
  /** Default: now. */
  paidAt?: Date;
  /** The conversion event's id; default `pay_<id>`, as the payments endpoint makes it. */
  eventId?: string;
}

/** A payment as the payments endpoint records it; returns its id and conversion event id. */
export async function recordPayment(t: TestApp, site: { id: string }, input: PaymentInput) {
  const id = randomUUID();
  const now = t.clock.now();
  const paidAt = input.paidAt ?? now;
  const kind = input.kind ?? 'payment';
  const currency = input.currency ?? 'USD';
  const eventId = input.eventId ?? `pay_${id}`;
  await t.database.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('payments')
      .values({
        site_id: site.id,
        id,
        provider: 'api',
        transaction_id: `tx_${id.slice(0, 8)}`,
        kind,
        amount_minor: input.amountMinor,
        currency,
        visitor_id: input.visitorId ?? null,
        person_key: input.personKey ?? null,
        paid_at: paidAt,
        received_at: now,
        customer_id: null,
        attributed_at: null,
        event_id: eventId,
      })
      .execute();
    await trx
      .insertInto('events')
      .values({
        site_id: site.id,
        event_id: eventId,
        type: 'event',
        name: kind,
        visitor_id: input.visitorId ?? null,
        person_key: input.personKey ?? null,
        visit_id: null,
        occurred_at: paidAt,
        received_at: now,
        url: null,
        properties: JSON.stringify({}),
        value_minor: input.amountMinor,
        currency,
        origin: 'server',
      })
      .execute();
    await trx
      .insertInto('attribution_jobs')
      .values({ site_id: site.id, event_id: eventId, run_after: now, created_at: now, last_error: null })
      .execute();
  });
  return { id, eventId };
}

/** A refund row as the payments endpoint writes it while the payment awaits attribution. */
export async function recordRefund(
  t: TestApp,
  site: { id: string },
  paymentId: string,
  amountMinor: number,
  refundedAt = t.clock.now(),
) {
  await t.database.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('refunds')
      .values({
        site_id: site.id,
        id: randomUUID(),
        payment_id: paymentId,
        amount_minor: amountMinor,
        refunded_at: refundedAt,
        created_at: t.clock.now(),
      })
      .execute();
    await trx
      .updateTable('payments')
      .set((eb) => ({ refunded_minor: eb('refunded_minor', '+', amountMinor) }))
      .where('site_id', '=', site.id)
      .where('id', '=', paymentId)
      .execute();
  });
}

/** daily_revenue rows of a site under one model, amounts rounded to millionths for comparison. */
export async function revenueRows(t: TestApp, siteId: string, model: string) {
  return t.database.db
    .selectFrom('daily_revenue')
    .select(['day', 'source', 'currency', 'gross_minor', 'refunded_minor', 'conversions', 'trials'])
    .where('site_id', '=', siteId)
    .where('model', '=', model)
    .orderBy('day')
    .orderBy('source')
    .execute();
}
