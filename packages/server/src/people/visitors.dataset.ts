/**
 * A generated dataset for the visitor reports (seeded, so every run is the same), posted through
 * the real ingest endpoints by visitors.seed.ts; visitors.expected.ts models what the reports
 * must say about it without reading the database.
 *
 * 20 days from 2026-03-01, three 45-minute slots a day. 2,000 browsers visit on 1–4 days (repeat
 * visits), 1–2 pageviews a visit, arriving from ChatGPT, Google or directly, some sending
 * engagement. 250 people sign in on 2–5 browsers each; 25 of those browsers later sign in as a
 * second person (their first person keeps them); some people sign in with an email address.
 * `signup` is completed in the browser on about a third of visits, sometimes with a value in
 * USD (the site's currency) or EUR, sometimes retried with the same event id; `purchase` on a
 * few visits. The server reports `signup` by user id only (including people who never visit,
 * and people whose visits all fall outside a window) and by visitor id only, some retried.
 */
export const BASE_MS = Date.parse('2026-03-01T08:00:00Z');
export const DAYS = 20;
export const SLOTS = 3;
const SLOT_MS = 45 * 60_000;
const MINUTE_MS = 60_000;

/** Minutes into a slot of the steps the expectations depend on (visitors.seed.ts sends them). */
export const IDENTIFY_MINUTE = 2;
export const BROWSER_EVENT_MINUTE = 3;
export const SERVER_EVENT_MINUTE = 5;

/** When something of (day, slot) happens; `minute` orders the steps of one visit. */
export const timeOf = (day: number, slot: number, minute: number) =>
  BASE_MS + day * 86_400_000 + slot * SLOT_MS + minute * MINUTE_MS;
export const dateOf = (day: number) => new Date(BASE_MS + day * 86_400_000).toISOString().slice(0, 10);

export interface GenVisit {
  visitor: string;
  day: number;
  slot: number;
  pageviews: number;
  referrer: string;
  engagedMs: number;
}

export interface GenIdentify {
  visitor: string;
  uid: string;
  day: number;
  slot: number;
}

export interface GenEvent {
  eventId: string;
  name: 'signup' | 'purchase';
  origin: 'browser' | 'server';
  visitor: string | null;
  /** Server events only: the person by user id or email. */
  uid: string | null;
  day: number;
  slot: number;
  /** Minor units; sent as `cents / 100` in major units. */
  cents: number | null;
  currency: 'USD' | 'EUR' | null;
  /** Sent twice with the same event id. */
  isRetried: boolean;
}

export interface Dataset {
  visitors: { id: string; isMobile: boolean; country: string }[];
  visits: GenVisit[];
  identifies: GenIdentify[];
  events: GenEvent[];
}

/** mulberry32: small, fast and good enough to shuffle a test dataset. */
function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]) => items[int(0, items.length - 1)] as T;
  return { next, int, pick, chance: (p: number) => next() < p };
}

const REFERRERS = ['https://chatgpt.com/', 'https://www.google.com/', ''] as const;

export function generateDataset(seed = 20260301, browsers = 2000, people = 250): Dataset {
  const r = randomSource(seed);
  const ids = new Set<string>();
  const visitors = Array.from({ length: browsers }, (_, i) => {
    const id = `v${String(i).padStart(5, '0')}${Math.floor(r.next() * 1e9).toString(36)}`;
    ids.add(id);
    return { id, isMobile: r.chance(0.4), country: r.pick(['DE', 'FR', 'US', 'JP']) };
  });
  const visits: GenVisit[] = [];
  const daysOf = new Map<string, number[]>();
  for (const { id } of visitors) {
    const days = [...new Set(Array.from({ length: r.int(1, 4) }, () => r.int(0, DAYS - 1)))].sort(
      (a, b) => a - b,
    );
    daysOf.set(id, days);
    const slot = r.int(0, SLOTS - 1);
    for (const day of days) {
      visits.push({
        visitor: id,
        day,
        slot,
        pageviews: r.int(1, 2),
        referrer: r.pick(REFERRERS),
        engagedMs: r.chance(0.3) ? r.int(1, 600) * 1000 : 0,
      });
    }
  }
  const slotOf = (visitor: string) => visits.find((v) => v.visitor === visitor)?.slot ?? 0;

  const identifies: GenIdentify[] = [];
  const uids = Array.from({ length: people }, (_, i) =>
    i % 10 === 0 ? `person${i}@example.com` : `user-${i}`,
  );
  let next = 0;
  for (const uid of uids) {
    for (let k = r.int(2, 5); k > 0 && next < browsers / 2; k--) {
      const visitor = visitors[next++]?.id as string;
      const day = daysOf.get(visitor)?.[0] as number;
      identifies.push({ visitor, uid, day, slot: slotOf(visitor) });
    }
  }
  // Browsers that later sign in as somebody else: a later link never moves a browser.
  let moved = 0;
  for (const { id } of visitors.slice(0, next)) {
    const days = daysOf.get(id) as number[];
    if (moved >= 25 || days.length < 2 || !r.chance(0.3)) continue;
    identifies.push({ visitor: id, uid: r.pick(uids), day: days[1] as number, slot: slotOf(id) });
    moved++;
  }

  const events: GenEvent[] = [];
  let counter = 0;
  const event = (fields: Omit<GenEvent, 'eventId' | 'isRetried'>) =>
    events.push({
      ...fields,
      eventId: `evt-${(counter++).toString().padStart(6, '0')}`,
      isRetried: r.chance(0.08),
    });
  const value = () => {
    const roll = r.next();
    if (roll < 0.5) return { cents: null, currency: null };
    return { cents: r.int(100, 99_999), currency: roll < 0.85 ? ('USD' as const) : ('EUR' as const) };
  };
  for (const visit of visits) {
    const base = {
      origin: 'browser' as const,
      visitor: visit.visitor,
      uid: null,
      day: visit.day,
      slot: visit.slot,
    };
    if (r.chance(0.35)) event({ ...base, name: 'signup', ...value() });
    if (r.chance(0.08)) event({ ...base, name: 'purchase', ...value() });
  }
  const ghosts = Array.from({ length: 20 }, (_, i) => `ghost-${i}`);
  for (let i = 0; i < 150; i++) {
    const day = r.int(0, DAYS - 1);
    const slot = r.int(0, SLOTS - 1);
    const byVisitor = r.chance(0.5);
    event({
      origin: 'server',
      name: 'signup',
      visitor: byVisitor ? r.pick(visitors).id : null,
      uid: byVisitor ? null : r.chance(0.2) ? r.pick(ghosts) : r.pick(uids),
      day,
      slot,
      ...value(),
    });
  }
  return { visitors, visits, identifies, events };
}
