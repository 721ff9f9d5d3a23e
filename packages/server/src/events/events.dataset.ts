/**
 * The traffic of the event listing tests, sent through the real ingest, payments and server
 * event endpoints with the clock moved to each moment. Dataset, 2026-03-01..10 (UTC): person A
 * (one browser) from ChatGPT and later direct, with a custom event carrying a value and an email
 * in its properties, then a payment; person B (two browsers signed in as one user) from Google
 * and Perplexity, with properties of exactly 8,192 bytes and of more, and a server event naming
 * only the user; C direct with a server event joining the visit; D from Facebook with a
 * server event of a custom event's name; five events at one instant (E's visit, a server event
 * and a trial); F long before; identify and engagement signals, never listed; a server event
 * and a trial from nobody; and another site's pageview.
 */
import { randomUUID } from 'node:crypto';
import { collect, newEventId, newVisitorId } from '../ingest/ingest.fixtures.js';
import { MINUTE_MS } from '../lib/clock.js';
import { newTransactionId, postPayment } from '../payments/payments.fixtures.js';
import { bearer, type TestApp } from '../test/app.js';
import type { EventType } from './event-types.js';

export type Referrer = 'chatgpt' | 'perplexity' | 'google' | 'facebook' | 'direct';
const REFERRERS: Record<Referrer, string> = {
  chatgpt: 'https://chatgpt.com/',
  perplexity: 'https://www.perplexity.ai/',
  google: 'https://www.google.com/',
  facebook: 'https://www.facebook.com/',
  direct: '',
};
/** Where each referrer puts a session (DESIGN.md §7). */
export const SOURCES: Record<Referrer, { channel: string; ai_source: string | null }> = {
  chatgpt: { channel: 'ai', ai_source: 'chatgpt' },
  perplexity: { channel: 'ai', ai_source: 'perplexity' },
  google: { channel: 'search', ai_source: null },
  facebook: { channel: 'social', ai_source: null },
  direct: { channel: 'direct', ai_source: null },
};

export interface PlannedVisit {
  browser: string;
  start: Date;
  referrer: Referrer;
}

/** One listed event as the test expects it, before ids the server makes are known. */
export interface PlannedEvent {
  /** Null for a payment until it is sent (`pay_` + the payment's id). */
  eventId: string | null;
  transactionId?: string;
  type: EventType;
  name: string;
  at: Date;
  /** Who sent it: the person's letter, or null for nobody known. */
  person: string | null;
  /** The sender as the names report counts it: a visitor id, a user or email, or nobody. */
  sender: string | null;
  visit: PlannedVisit | null;
  path: string | null;
  properties: Record<string, unknown> | null;
  value: { cents: number; currency: string } | null;
}

interface Request {
  at: Date;
  send: (t: TestApp) => Promise<{ statusCode: number; body: string }>;
}

export const at = (day: number, hour: number, minute = 0, second = 0) =>
  new Date(Date.UTC(2026, 2, day, hour, minute, second));

/** A properties object whose compact JSON is exactly `bytes` long (8,000 to 11,000; values hold 4,096). */
export function propertiesOfSize(bytes: number) {
  const properties = { a: 'x'.repeat(4000), b: 'y'.repeat(3000), c: '' };
  properties.c = 'z'.repeat(bytes - JSON.stringify(properties).length);
  return properties;
}

export function buildDataset(
  site: { snippet_key: string; domain: string },
  other: { snippet_key: string; domain: string },
  apiKey: string,
) {
  const events: PlannedEvent[] = [];
  const visits: PlannedVisit[] = [];
  const requests: Request[] = [];
  /** Event ids of signals that must never be listed. */
  const unlisted: string[] = [];
  const people = new Map<string, string>();
  const url = (path: string) => `https://${site.domain}${path}`;
  const browser = (person: string) => {
    const id = newVisitorId();
    people.set(id, person);
    return id;
  };
  const personOf = (id: string) => people.get(id) ?? null;

  const send = (when: Date, payload: Record<string, unknown>) =>
    requests.push({ at: when, send: (t) => collect(t, { site: site.snippet_key, ...payload }) });

  function visit(id: string, start: Date, referrer: Referrer, paths: string[]) {
    const planned = { browser: id, start, referrer };
    visits.push(planned);
    paths.forEach((path, i) => {
      const when = new Date(start.getTime() + i * MINUTE_MS);
      const eid = newEventId();
      const ref = i === 0 ? REFERRERS[referrer] : url(paths[i - 1] as string);
      send(when, { type: 'pageview', eid, vid: id, url: url(path), ref });
      events.push({
        eventId: eid,
        type: 'pageview',
        name: 'pageview',
        at: when,
        person: personOf(id),
        sender: id,
        visit: planned,
        path: path.split(/[?#]/)[0] as string,
        properties: {},
        value: null,
      });
    });
    return planned;
  }

  function custom(
    planned: PlannedVisit,
    when: Date,
    name: string,
    extra: {
      props?: Record<string, unknown>;
      listed?: Record<string, unknown> | null;
      value?: number;
      currency?: string;
    } = {},
  ) {
    const eid = newEventId();
    const payload: Record<string, unknown> = {
      type: 'event',
      eid,
      vid: planned.browser,
      url: url('/pricing?ref=x'),
      name,
    };
    if (extra.props) payload.props = extra.props;
    if (extra.value !== undefined) payload.value = extra.value;
    if (extra.currency) payload.currency = extra.currency;
    send(when, payload);
    events.push({
      eventId: eid,
      type: 'custom',
      name,
      at: when,
      person: personOf(planned.browser),
      sender: planned.browser,
      visit: planned,
      path: '/pricing',
      properties: extra.listed === undefined ? (extra.props ?? {}) : extra.listed,
      value:
        extra.value === undefined
          ? null
          : { cents: Math.round(extra.value * 100), currency: (extra.currency ?? 'USD').toUpperCase() },
    });
  }

  function server(
    when: Date,
    name: string,
    who: { browser?: string; user?: string; person?: string; visit?: PlannedVisit },
    extra: { value?: number } = {},
  ) {
    const eventId = `srv-${randomUUID()}`;
    const body: Record<string, unknown> = {
      site_id: site.snippet_key,
      name,
      event_id: eventId,
      timestamp: when.toISOString(),
    };
    if (who.browser) body.visitor_id = who.browser;
    if (who.user) body.user_id = who.user;
    if (extra.value !== undefined) body.value = extra.value;
    requests.push({
      at: when,
      send: (t) =>
        t.request({ method: 'POST', url: '/v1/server/events', headers: bearer(apiKey), payload: body }),
    });
    events.push({
      eventId,
      type: 'server',
      name,
      at: when,
      person: who.browser ? personOf(who.browser) : (who.person ?? null),
      sender: who.browser ?? (who.user ? `user:${who.user}` : null),
      visit: who.visit ?? null,
      path: null,
      properties: {},
      value: extra.value === undefined ? null : { cents: extra.value * 100, currency: 'USD' },
    });
  }

  /** `visit`: the visit the payer's visitor id has open, which the payment joins in the listing. */
  function payment(
    when: Date,
    who: { browser?: string; email?: string; visit?: PlannedVisit },
    amount: number,
  ) {
    const transactionId = newTransactionId();
    const body: Record<string, unknown> = {
      site_id: site.snippet_key,
      transaction_id: transactionId,
      amount,
      currency: 'EUR',
      timestamp: when.toISOString(),
    };
    if (who.browser) body.visitor_id = who.browser;
    if (who.email) body.email = who.email;
    requests.push({ at: when, send: (t) => postPayment(t, apiKey, body) });
    const properties: Record<string, unknown> = { provider: 'api', renewal: false };
    events.push({
      eventId: null,
      transactionId,
      type: 'payment',
      name: amount === 0 ? 'trial' : 'payment',
      at: when,
      person: who.browser ? personOf(who.browser) : null,
      sender: who.browser ?? (who.email ? `email:${who.email}` : null),
      visit: who.visit ?? null,
      path: null,
      properties,
      value: { cents: Math.round(amount * 100), currency: 'EUR' },
    });
  }

  function signal(when: Date, id: string, payload: Record<string, unknown>) {
    const eid = newEventId();
    unlisted.push(eid);
    send(when, { eid, vid: id, url: url('/'), ...payload });
  }

  // Person A: ChatGPT late on the 5th, direct on the 9th, then pays.
  const a = browser('A');
  const a1 = visit(a, at(5, 22, 50), 'chatgpt', ['/', '/pricing?utm_source=chatgpt.com#plans']);
  custom(a1, at(5, 22, 52), 'signup', {
    props: { plan: 'pro', contact: 'ann@example.com' },
    listed: { plan: 'pro', contact: '[REDACTED]' },
    value: 49,
    currency: 'eur',
  });
  signal(at(5, 22, 53), a, { type: 'engagement', engaged_ms: 20_000 });
  const a2 = visit(a, at(9, 10), 'direct', ['/docs']);
  payment(at(9, 10, 5), { browser: a, visit: a2 }, 19.99);

  // Person B: two browsers signed in as user-42.
  const b1 = browser('B');
  const b2 = browser('B');
  const vb1 = visit(b1, at(6, 3), 'google', ['/blog/post']);
  signal(at(6, 3, 0, 30), b1, { type: 'identify', uid: 'user-42' });
  custom(vb1, at(6, 3, 1), 'download', { props: propertiesOfSize(8192) });
  custom(vb1, at(6, 3, 2), 'download', { props: propertiesOfSize(8193), listed: null });
  const vb2 = visit(b2, at(8, 15), 'perplexity', ['/']);
  signal(at(8, 15, 0, 30), b2, { type: 'identify', uid: 'user-42' });
  custom(vb2, at(8, 15, 3), 'signup');
  server(at(8, 16), 'lead', { user: 'user-42', person: 'B' });

  // C: direct, with a server event that joins the open visit and carries a value.
  const c = browser('C');
  const vc = visit(c, at(7, 1), 'direct', ['/']);
  server(at(7, 1, 1), 'lead', { browser: c, visit: vc }, { value: 10 });

  // D: from Facebook just before midnight of the 10th, with a server event named like a goal.
  const d = browser('D');
  const vd = visit(d, at(10, 23, 30), 'facebook', ['/', '/pricing']);
  server(at(10, 23, 35), 'signup', { browser: d, visit: vd });

  // Five events at one instant: E's pageview and two custom events, a server event, a trial.
  const e = browser('E');
  const tie = at(7, 12);
  const ve = visit(e, tie, 'direct', ['/']);
  custom(ve, tie, 'tie_a');
  custom(ve, tie, 'tie_b');
  server(tie, 'invoice_sent', {});
  payment(tie, { email: 'zed@example.com' }, 0);

  // F: long before the default window.
  const f = browser('F');
  const vf = visit(f, at(1, 9), 'direct', ['/old']);
  custom(vf, at(1, 9, 1), 'old_thing');

  // Another site's traffic never shows.
  requests.push({
    at: at(7, 12),
    send: (t) =>
      collect(t, {
        type: 'pageview',
        site: other.snippet_key,
        vid: newVisitorId(),
        url: `https://${other.domain}/`,
        ref: '',
      }),
  });

  requests.sort((x, y) => x.at.getTime() - y.at.getTime());
  return { events, visits, requests, unlisted };
}
