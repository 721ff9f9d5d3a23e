/**
 * The plain computation the session answers are checked against, over the plan of
 * visits.dataset.ts, and the app holding that traffic (sent through the real ingest, payments and
 * server events endpoints with the clock moved to each moment).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, expect } from 'vitest';
import { collect } from '../ingest/ingest.fixtures.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import {
  CAMPAIGN_QUERY,
  CHANNELS,
  type Dataset,
  generateDataset,
  momentOf,
  type PlannedPayment,
  type PlannedVisit,
  REFERRERS,
  requestsOf,
} from './visits.dataset.js';

const MINUTE_MS = 60_000;
const PROPERTIES_MAX_BYTES = 8192;
const EUR_IN_USD = 1.1;

/** The visit's last browser activity: pageviews, engagement reports and browser events. */
export function lastActivityOf(visit: PlannedVisit): Date {
  const seconds = visit.pages.flatMap((page, i) => {
    const next = visit.pages[i + 1];
    return [page.at, ...(page.engaged > 0 ? [next ? next.at - 1 : page.at + visit.leave] : [])];
  });
  for (const event of visit.events) if (event.origin === 'browser') seconds.push(event.at);
  return momentOf(visit, Math.max(...seconds));
}

/** The visit the payment's visitor had open when it was paid: the latest started, if not idle 30 min. */
export function visitOfPayment(payment: PlannedPayment, visits: PlannedVisit[]): PlannedVisit | null {
  const started = visits
    .filter((v) => v.visitor === payment.visitor && v.start <= payment.at)
    .sort((a, b) => b.start.getTime() - a.start.getTime())[0];
  if (!started) return null;
  return payment.at.getTime() <= lastActivityOf(started).getTime() + 30 * MINUTE_MS ? started : null;
}

const usdCents = (payment: PlannedPayment, amount: number) =>
  Math.round(amount * 100 * (payment.currency === 'EUR' ? EUR_IN_USD : 1));

export function expectedSession(visit: PlannedVisit, data: Dataset) {
  const ownVisits = data.visits.filter((v) => v.visitor === visit.visitor);
  const payments = data.payments.filter((p) => visitOfPayment(p, data.visits) === visit);
  const first = visit.pages[0];
  const last = visit.pages.at(-1);
  const isAi = CHANNELS[visit.source] === 'ai';
  return {
    started_at: visit.start.toISOString(),
    last_activity_at: lastActivityOf(visit).toISOString(),
    duration_sec: visit.pages.reduce((sum, page) => sum + page.engaged, 0),
    pageviews: visit.pages.length,
    channel: CHANNELS[visit.source],
    ai_source: isAi ? visit.source : null,
    source_kind: isAi ? 'ai' : visit.source === 'direct' ? 'unknown' : 'non_ai',
    referrer: REFERRERS[visit.source]
      ? new URL(REFERRERS[visit.source]).hostname.replace(/^www\./, '')
      : visit.source === 'newsletter'
        ? 'newsletter'
        : null,
    campaign: visit.source === 'newsletter' ? 'spring' : null,
    entry_page: first?.path,
    exit_page: last?.path,
    country_code: null,
    city: null,
    is_new: ownVisits.every((v) => v.start >= visit.start),
    conversions: visit.events.length + payments.length,
    revenue: {
      net_cents: payments
        .filter((p) => p.amount > 0)
        .reduce((sum, p) => sum + usdCents(p, p.amount) - usdCents(p, p.refund?.total ?? 0), 0),
      currency: 'USD',
    },
  };
}

export function expectedEntry(visit: PlannedVisit, domain: string) {
  const session = expectedSession(visit, { visits: [visit], payments: [], rates: [] });
  const query = visit.source === 'newsletter' ? CAMPAIGN_QUERY : '';
  return {
    channel: session.channel,
    ai_source: session.ai_source,
    source_kind: session.source_kind,
    referrer: session.referrer,
    campaign: session.campaign,
    ref: null,
    url: `https://${domain}${visit.pages[0]?.path}${query}`,
  };
}

function propertiesShown(properties: Record<string, unknown>) {
  return Buffer.byteLength(JSON.stringify(properties)) > PROPERTIES_MAX_BYTES ? null : properties;
}

interface ExpectedStep {
  type: 'pageview' | 'custom' | 'server' | 'payment';
  name: string;
  page: string | null;
  time_on_page_sec: number | null;
  properties: Record<string, unknown> | null;
  value_cents: number | null;
  currency: string | null;
  is_conversion: boolean;
}

/** The trail: steps in time order, a pageview before an event at the same moment. */
export function expectedTrail(visit: PlannedVisit, data: Dataset) {
  const lastActivity = lastActivityOf(visit);
  const steps: { at: Date; rank: number; step: ExpectedStep }[] = [];
  const conversion = { time_on_page_sec: null, value_cents: null, currency: null, is_conversion: true };
  visit.pages.forEach((page, i) => {
    const next = visit.pages[i + 1];
    const until = next ? momentOf(visit, next.at) : lastActivity;
    const at = momentOf(visit, page.at);
    steps.push({
      at,
      rank: 0,
      step: {
        type: 'pageview',
        name: 'pageview',
        page: page.path,
        time_on_page_sec: Math.round((until.getTime() - at.getTime()) / 1000),
        properties: {},
        value_cents: null,
        currency: null,
        is_conversion: false,
      },
    });
  });
  for (const event of visit.events) {
    const open = visit.pages.filter((page) => page.at <= event.at).at(-1);
    const isServer = event.origin === 'server';
    steps.push({
      at: momentOf(visit, event.at),
      rank: 1,
      step: {
        ...conversion,
        type: isServer ? 'server' : 'custom',
        name: event.name,
        page: isServer ? null : (open?.path ?? null),
        properties: propertiesShown(event.properties ?? {}),
      },
    });
  }
  for (const payment of data.payments.filter((p) => visitOfPayment(p, data.visits) === visit)) {
    steps.push({
      at: payment.at,
      rank: 1,
      step: {
        ...conversion,
        type: 'payment',
        name: payment.amount === 0 ? 'trial' : 'payment',
        page: null,
        properties: { provider: 'api', renewal: false },
        value_cents: Math.round(payment.amount * 100),
        currency: payment.currency,
      },
    });
  }
  return steps
    .sort((a, b) => a.at.getTime() - b.at.getTime() || a.rank - b.rank)
    .map(({ at, step }) => ({ ...step, timestamp: at.toISOString() }));
}

/** Newest first, then by id descending (PostgreSQL orders UUIDs as their lower-case text). */
export function byStartThenId(a: { started_at: string; id: string }, b: { started_at: string; id: string }) {
  return a.started_at === b.started_at ? (a.id < b.id ? 1 : -1) : a.started_at < b.started_at ? 1 : -1;
}

/** The test app with the dataset sent, `list` and `get` asking for its site as its owner. */
export function useVisitsDataset() {
  const t = useTestApp();
  const data = generateDataset();
  let site: Awaited<ReturnType<typeof insertSite>>;

  beforeAll(async () => {
    // The factory's default host is not valid punycode, so URL parsers (campaigns) refuse it.
    site = await insertSite(t, t.owner.accountId, {
      domain: `shop-${randomUUID().slice(0, 8)}.xn--bcher-kva.example`,
    });
    await t.database.db.insertInto('exchange_rates').values(data.rates).execute();
    for (const request of requestsOf(data, site)) {
      t.clock.set(request.at);
      const response =
        request.kind === 'collect'
          ? await collect(t, request.payload)
          : await t.request({
              method: 'POST',
              url: request.kind === 'payment' ? '/v1/server/payments' : '/v1/server/events',
              headers: bearer(t.owner.apiKey),
              payload: request.body,
            });
      if (response.statusCode !== 202)
        throw new Error(`${request.kind} answered ${response.statusCode}: ${response.body}`);
    }
    t.clock.set(new Date('2026-05-12T12:00:00Z'));
  });

  const get = async (url: string, query: Record<string, string>, headers = bearer(t.owner.apiKey)) => {
    const response = await t.request({
      method: 'GET',
      url,
      query: { site_id: site.snippet_key, ...query },
      headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  return {
    t,
    data,
    site: () => site,
    list: (query: Record<string, string> = {}) => get('/v1/sessions', query),
    session: (id: string) => get(`/v1/sessions/${id}`, {}),
    goalVisitors: (goal: string, query: Record<string, string>) => get(`/v1/goals/${goal}/visitors`, query),
  };
}
