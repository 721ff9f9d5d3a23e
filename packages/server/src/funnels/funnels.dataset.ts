/**
 * The generated traffic of the funnel suite. Dataset: 2026-04-28..05-12 around the reported
 * range 05-01..05-10 (UTC). 24 seeded people with 1–3 visits on different days from ChatGPT,
 * Perplexity, Google or nowhere, each visit a few pages of a small site with now and then a
 * `signup` (plan free or pro) or `purchase` event; a third of them signed in on two browsers
 * (identify() links both visitor ids) and some buy later from the server (a `purchase` with only
 * their user id). Beside them, people made for one rule each (see `CRAFTED`). Seeded, so every
 * run sends the same traffic.
 */
import { newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { HOUR_MS, SECOND_MS } from '../lib/clock.js';
import { CHANNELS, REFERRERS, type Source } from '../stats/stats.dataset.js';
import { seeded } from '../test/seeded.js';

export type Action = { kind: 'page'; path: string } | { kind: 'event'; name: string; plan?: string };

export interface PlannedVisit {
  visitor: string;
  source: Source;
  start: Date;
  actions: Action[];
}

export interface PlannedPerson {
  label: string;
  /** Set for people who sign in: every visitor id of theirs sends identify() with it. */
  uid: string | null;
  visits: PlannedVisit[];
  /** `purchase` events sent from the server with the user id only, outside any visit. */
  serverPurchases: Date[];
}

export { CHANNELS, REFERRERS, type Source };

const PATHS = ['/', '/blog/ai-analytics', '/blog/funnels', '/pricing', '/docs', '/Pricing-old'];
const SOURCES: Source[] = ['chatgpt', 'perplexity', 'google', 'direct'];
/** Seconds between a visit's actions: inside the 30-minute visit rule. */
const GAPS_S = [20, 45, 90, 300, 600];

const at = (iso: string) => new Date(`${iso}Z`);
const page = (path: string): Action => ({ kind: 'page', path });
const event = (name: string, plan?: string): Action => ({ kind: 'event', name, ...(plan ? { plan } : {}) });

/** Visits with actions spaced by whole seconds; the clock of each is the visit start plus the gaps. */
export function actionTimes(visit: PlannedVisit): Date[] {
  const times: Date[] = [];
  let t = visit.start.getTime();
  visit.actions.forEach((_, i) => {
    if (i > 0) t += (GAPS_S[(i * 7 + visit.start.getUTCMinutes()) % GAPS_S.length] as number) * SECOND_MS;
    times.push(new Date(t));
  });
  return times;
}

/**
 * One person per rule of the funnel `/blog/*` → `/pricing` → `signup` (plan pro), 48-hour
 * window, over 05-01..05-10; `reaches` is how far each gets with no filter.
 */
export function craftedPeople(): (PlannedPerson & { reaches: number })[] {
  const one = (
    label: string,
    reaches: number,
    visits: [string, Source, Action[]][],
    uid: string | null = null,
  ) => {
    const visitors = uid ? [newVisitorId(), newVisitorId()] : [newVisitorId()];
    return {
      label,
      reaches,
      uid,
      serverPurchases: [],
      visits: visits.map(([start, source, actions], i) => ({
        visitor: visitors[i % visitors.length] as string,
        source,
        start: at(start),
        actions,
      })),
    };
  };
  return [
    one('converts', 3, [
      ['2026-05-02T09:00:00', 'chatgpt', [page('/blog/funnels'), page('/pricing'), event('signup', 'pro')]],
    ]),
    one('out of order', 2, [
      ['2026-05-03T10:00:00', 'google', [page('/blog/funnels'), event('signup', 'pro'), page('/pricing')]],
    ]),
    one('after the window', 1, [
      ['2026-05-04T10:00:00', 'direct', [page('/blog/ai-analytics')]],
      ['2026-05-06T10:00:01', 'direct', [page('/pricing'), event('signup', 'pro')]],
    ]),
    one('past the range end', 3, [
      ['2026-05-10T23:00:00', 'perplexity', [page('/blog/ai-analytics')]],
      ['2026-05-11T02:00:00', 'direct', [page('/pricing'), event('signup', 'pro')]],
    ]),
    one('before the range', 0, [
      ['2026-04-30T22:00:00', 'google', [page('/blog/funnels'), page('/pricing')]],
    ]),
    one(
      'two browsers',
      3,
      [
        ['2026-05-05T08:00:00', 'google', [page('/blog/funnels')]],
        ['2026-05-05T12:00:00', 'direct', [page('/pricing'), event('signup', 'pro')]],
      ],
      'crafted-two-browsers',
    ),
    one('earliest entry', 1, [
      ['2026-05-02T07:00:00', 'google', [page('/blog/ai-analytics')]],
      ['2026-05-07T07:00:00', 'chatgpt', [page('/blog/funnels'), page('/pricing'), event('signup', 'pro')]],
    ]),
    one('wrong plan', 2, [
      ['2026-05-08T15:00:00', 'chatgpt', [page('/blog/funnels'), page('/pricing'), event('signup', 'free')]],
    ]),
  ];
}

export function generatePeople(): PlannedPerson[] {
  const random = seeded(2020);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const people: PlannedPerson[] = [];
  for (let p = 0; p < 24; p++) {
    const uid = random() < 0.34 ? `user-${p}` : null;
    const visitors = uid ? [newVisitorId(), newVisitorId()] : [newVisitorId()];
    const days = [...Array(15).keys()].sort(() => random() - 0.5).slice(0, 1 + Math.floor(random() * 3));
    const visits = days.map((day, v) => ({
      visitor: visitors[v % visitors.length] as string,
      source: pick(SOURCES),
      start: new Date(Date.UTC(2026, 3, 28 + day, Math.floor(random() * 23), Math.floor(random() * 50))),
      actions: Array.from({ length: 1 + Math.floor(random() * 5) }, (_, i): Action => {
        const roll = random();
        if (i === 0 || roll < 0.6) return page(pick(PATHS));
        return roll < 0.85 ? event('signup', pick(['free', 'pro'])) : event('purchase');
      }),
    }));
    const serverPurchases =
      uid && random() < 0.6
        ? [new Date((visits[0] as PlannedVisit).start.getTime() + (1 + Math.floor(random() * 60)) * HOUR_MS)]
        : [];
    people.push({ label: `generated ${p}`, uid, visits, serverPurchases });
  }
  return people;
}

export type Request =
  | { at: Date; via: 'collect'; payload: Record<string, unknown> }
  | { at: Date; via: 'server'; payload: Record<string, unknown> };

/** Every request of the dataset, in time order. */
export function requestsOf(
  people: PlannedPerson[],
  site: { snippet_key: string; domain: string },
): Request[] {
  const requests: Request[] = [];
  const base = { site: site.snippet_key };
  const urlOf = (path: string) => `https://${site.domain}${path}`;
  for (const person of people) {
    const identified = new Set<string>();
    for (const visit of person.visits) {
      const times = actionTimes(visit);
      let current = '';
      visit.actions.forEach((action, i) => {
        const when = times[i] as Date;
        if (action.kind === 'page') {
          const url = urlOf(action.path);
          const payload = pageview(site.snippet_key, visit.visitor, url, current || REFERRERS[visit.source]);
          requests.push({ at: when, via: 'collect', payload });
          current = url;
        } else {
          const props = action.plan ? { props: { plan: action.plan } } : {};
          const payload = {
            ...base,
            type: 'event',
            vid: visit.visitor,
            url: current,
            name: action.name,
            ...props,
          };
          requests.push({ at: when, via: 'collect', payload });
        }
      });
      if (person.uid && !identified.has(visit.visitor)) {
        identified.add(visit.visitor);
        const payload = { ...base, type: 'identify', vid: visit.visitor, url: current, uid: person.uid };
        requests.push({
          at: new Date((times[0] as Date).getTime() + 5 * SECOND_MS),
          via: 'collect',
          payload,
        });
      }
    }
    for (const when of person.serverPurchases) {
      const payload = { site_id: site.snippet_key, name: 'purchase', user_id: person.uid };
      requests.push({ at: when, via: 'server', payload });
    }
  }
  return requests.sort((a, b) => a.at.getTime() - b.at.getTime());
}
