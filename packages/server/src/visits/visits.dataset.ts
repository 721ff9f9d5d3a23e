/**
 * The generated traffic of the session suite. Dataset: 12 visitors with 1–3 seeded visits each
 * over 2026-05-01..10 from ChatGPT, Perplexity, Google, a newsletter campaign or nowhere, 1–4
 * pages with engagement reports, some with a `signup`; and by hand: three visits that start at
 * the same instant (paging across ties), a person on two devices (identify), a visit at 02:30 UTC
 * that New York puts on the day before, a server event, payments in USD and EUR with a refund,
 * a trial, a payment 45 minutes after its visitor's last activity and one with only an email
 * (neither in any session), a visitor who comes back from another source within 30 minutes and
 * pays (the payment is the second visit's), and an event whose properties are over 8,192 bytes.
 * Seeded, so every run sends the same traffic.
 */
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { MINUTE_MS, SECOND_MS } from '../lib/clock.js';
import { seeded } from '../test/seeded.js';

export type Source = 'chatgpt' | 'perplexity' | 'google' | 'newsletter' | 'direct';

export interface PlannedPage {
  path: string;
  /** Seconds after the visit's start. */
  at: number;
  /** Engaged seconds reported for the page: before the next page, or `leave` seconds after the last. */
  engaged: number;
}

export interface PlannedEvent {
  name: string;
  at: number;
  origin: 'browser' | 'server';
  properties?: Record<string, string>;
}

export interface PlannedVisit {
  visitor: string;
  start: Date;
  source: Source;
  pages: PlannedPage[];
  /** When the last page's engagement report comes, seconds after that page. */
  leave: number;
  events: PlannedEvent[];
  /** Sends identify with this user id on the first page. */
  identifyAs?: string;
}

export interface PlannedPayment {
  /** Null: sent with only an email. */
  visitor: string | null;
  at: Date;
  amount: number;
  currency: 'USD' | 'EUR';
  /** The running refunded total posted later, at `refundAt`. */
  refund?: { total: number; at: Date };
}

export interface Dataset {
  visits: PlannedVisit[];
  payments: PlannedPayment[];
  /** Units per euro by day, loaded into exchange_rates. */
  rates: { day: string; currency: string; per_euro: number }[];
}

export const REFERRERS: Record<Source, string> = {
  chatgpt: 'https://chatgpt.com/',
  perplexity: 'https://www.perplexity.ai/',
  google: 'https://www.google.com/',
  newsletter: '',
  direct: '',
};
export const CHANNELS: Record<Source, string> = {
  chatgpt: 'ai',
  perplexity: 'ai',
  google: 'search',
  newsletter: 'email',
  direct: 'direct',
};
export const CAMPAIGN_QUERY = '?utm_source=newsletter&utm_medium=email&utm_campaign=spring';
const PATHS = ['/', '/pricing', '/blog/ai-analytics', '/docs', '/checkout'];
const HOURS_UTC = [1, 3, 9, 14, 20, 23];

const at = (iso: string) => new Date(iso);
const plus = (date: Date, ms: number) => new Date(date.getTime() + ms);

export function generateDataset(): Dataset {
  const random = seeded(7);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const visits: PlannedVisit[] = [];
  for (let v = 0; v < 12; v++) {
    const visitor = newVisitorId();
    const days = [...Array(10).keys()].sort(() => random() - 0.5).slice(0, 1 + Math.floor(random() * 3));
    for (const day of days) {
      let offset = 0;
      const pages = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
        const page = { path: pick(PATHS), at: offset, engaged: pick([0, 4, 15, 60]) };
        offset += 20 + Math.floor(random() * 280);
        return page;
      });
      const hasSignup = random() < 0.3;
      visits.push({
        visitor,
        // Each visitor its own second, so no two of these start together (the tie case is made by hand).
        start: new Date(Date.UTC(2026, 4, 1 + day, pick(HOURS_UTC), Math.floor(random() * 50), 10 + v)),
        source: pick(['chatgpt', 'perplexity', 'google', 'newsletter', 'direct'] as const),
        pages,
        leave: 5 + Math.floor(random() * 100),
        events: hasSignup ? [{ name: 'signup', at: (pages.at(-1)?.at ?? 0) + 3, origin: 'browser' }] : [],
      });
    }
  }

  const visit = (visitor: string, start: string, source: Source, pages: PlannedPage[], rest = {}) => {
    const planned: PlannedVisit = {
      visitor,
      start: at(start),
      source,
      pages,
      leave: 12,
      events: [],
      ...rest,
    };
    visits.push(planned);
    return planned;
  };
  const page = (path: string, offset: number, engaged: number) => ({ path, at: offset, engaged });

  // Three visits that start at the same instant.
  for (const source of ['chatgpt', 'google', 'direct'] as const) {
    visit(newVisitorId(), '2026-05-06T10:00:00.000Z', source, [page('/', 0, 9)]);
  }
  // One person on two devices: a signup on the laptop, a payment and a refund on the phone.
  const laptop = newVisitorId();
  const phone = newVisitorId();
  visit(laptop, '2026-05-02T08:00:00.000Z', 'perplexity', [page('/', 0, 30), page('/pricing', 90, 20)], {
    identifyAs: 'user-1',
    events: [{ name: 'signup', at: 100, origin: 'browser', properties: { plan: 'pro' } }],
  });
  visit(phone, '2026-05-07T12:00:00.000Z', 'direct', [page('/pricing', 0, 40), page('/checkout', 60, 25)], {
    identifyAs: 'user-1',
    events: [
      { name: 'signup', at: 70, origin: 'browser' },
      { name: 'purchase_confirmed', at: 95, origin: 'server' },
    ],
  });
  // New York puts this one on May 7.
  const nightVisit = visit(newVisitorId(), '2026-05-08T02:30:00.000Z', 'chatgpt', [page('/docs', 0, 5)], {
    events: [
      {
        name: 'download',
        at: 20,
        origin: 'browser',
        properties: { a: 'x'.repeat(4000), b: 'y'.repeat(4000), c: 'z'.repeat(300) },
      },
    ],
  });
  // Pays in euros; another pays too late; a third starts a trial.
  const euro = visit(newVisitorId(), '2026-05-03T14:00:00.000Z', 'newsletter', [page('/checkout', 0, 50)]);
  const tooLate = visit(newVisitorId(), '2026-05-04T09:00:00.000Z', 'google', [page('/pricing', 0, 8)]);
  const trial = visit(newVisitorId(), '2026-05-05T16:00:00.000Z', 'direct', [page('/', 0, 3)]);
  // Comes back from ChatGPT ten minutes after a Google visit, then pays: the second visit's.
  const returner = newVisitorId();
  visit(returner, '2026-05-09T09:00:00.000Z', 'google', [page('/', 0, 10), page('/pricing', 120, 10)]);
  const second = visit(returner, '2026-05-09T09:10:00.000Z', 'chatgpt', [page('/checkout', 0, 30)]);

  const payments: PlannedPayment[] = [
    {
      visitor: phone,
      at: at('2026-05-07T12:01:30.000Z'),
      amount: 49,
      currency: 'USD',
      refund: { total: 9, at: at('2026-05-10T10:00:00.000Z') },
    },
    { visitor: euro.visitor, at: plus(euro.start, 2 * MINUTE_MS), amount: 20, currency: 'EUR' },
    {
      visitor: tooLate.visitor,
      at: plus(tooLate.start, (20 + 45 * 60) * SECOND_MS),
      amount: 15,
      currency: 'USD',
    },
    { visitor: trial.visitor, at: plus(trial.start, 30 * SECOND_MS), amount: 0, currency: 'USD' },
    { visitor: second.visitor, at: plus(second.start, 2 * MINUTE_MS), amount: 12.5, currency: 'USD' },
    { visitor: null, at: plus(nightVisit.start, 10 * SECOND_MS), amount: 99, currency: 'USD' },
  ];
  return { visits, payments, rates: [{ day: '2026-05-01', currency: 'USD', per_euro: 1.1 }] };
}

/** One request of the traffic: a tracker payload, a server event or a payment post. */
export type PlannedRequest =
  | { at: Date; kind: 'collect'; payload: Record<string, unknown> }
  | { at: Date; kind: 'server_event'; body: Record<string, unknown> }
  | { at: Date; kind: 'payment'; body: Record<string, unknown> };

export const urlOf = (domain: string, visit: PlannedVisit, path: string) =>
  `https://${domain}${path}${visit.source === 'newsletter' && path === visit.pages[0]?.path ? CAMPAIGN_QUERY : ''}`;

/** When a visit's step happened. */
export const momentOf = (visit: PlannedVisit, seconds: number) => plus(visit.start, seconds * SECOND_MS);

/** Every request of the dataset, in time order (equal times keep the order they were planned in). */
export function requestsOf(data: Dataset, site: { snippet_key: string; domain: string }): PlannedRequest[] {
  const requests: PlannedRequest[] = [];
  const browser = (visit: PlannedVisit, seconds: number, payload: Record<string, unknown>) =>
    requests.push({
      at: momentOf(visit, seconds),
      kind: 'collect',
      payload: { site: site.snippet_key, vid: visit.visitor, ...payload },
    });
  for (const visit of data.visits) {
    const urls = visit.pages.map((page, i) =>
      i === 0 ? urlOf(site.domain, visit, page.path) : `https://${site.domain}${page.path}`,
    );
    visit.pages.forEach((page, i) => {
      const url = urls[i] as string;
      const ref = i === 0 ? REFERRERS[visit.source] : (urls[i - 1] as string);
      browser(visit, page.at, { type: 'pageview', url, ref });
      if (i === 0 && visit.identifyAs)
        browser(visit, page.at + 1, { type: 'identify', url, uid: visit.identifyAs });
      const next = visit.pages[i + 1];
      if (page.engaged > 0) {
        browser(visit, next ? next.at - 1 : page.at + visit.leave, {
          type: 'engagement',
          url,
          engaged_ms: page.engaged * SECOND_MS,
        });
      }
    });
    for (const event of visit.events) {
      if (event.origin === 'server') {
        requests.push({
          at: momentOf(visit, event.at),
          kind: 'server_event',
          body: { site_id: site.snippet_key, name: event.name, visitor_id: visit.visitor },
        });
        continue;
      }
      const open = visit.pages.filter((page) => page.at <= event.at).at(-1) ?? visit.pages[0];
      const url = urls[visit.pages.indexOf(open as PlannedPage)] as string;
      browser(visit, event.at, {
        type: 'event',
        url,
        name: event.name,
        ...(event.properties ? { props: event.properties } : {}),
      });
    }
  }
  data.payments.forEach((payment, i) => {
    const body = {
      site_id: site.snippet_key,
      transaction_id: `ch_dataset_${i}`,
      amount: payment.amount,
      currency: payment.currency,
      ...(payment.visitor ? { visitor_id: payment.visitor } : { email: 'buyer@example.com' }),
    };
    requests.push({ at: payment.at, kind: 'payment', body });
    if (payment.refund) {
      requests.push({
        at: payment.refund.at,
        kind: 'payment',
        body: { ...body, refunded_amount: payment.refund.total },
      });
    }
  });
  return requests.sort((a, b) => a.at.getTime() - b.at.getTime());
}
