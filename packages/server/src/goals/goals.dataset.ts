/**
 * A generated dataset for the goals reports, and the expected answers computed straight from it.
 *
 * Dataset (seeded, so every run sees the same data): 3,000 distinct conversion events on one
 * site from 800 visitor ids (a tenth with no visitor), spread from 2026-02-01 to the morning of
 * 2026-06-15, so a good part lies outside any window the tests ask for. Six goal names with
 * uneven weights. Properties per goal:
 *   - `purchase`: plan (4 values), sku (300 values, skewed), qty (integers), gift (booleans),
 *     coupon (null half the time), and a non-ASCII key `Größe` with emoji values;
 *   - `signup`: `aa_ref` with 400 possible values (well over the 200-pair budget) and plan;
 *   - the rest: 6 of 40 keys `k_00`…`k_39`, 8 values each, so the budget ends partway through.
 * About 12% of events are sent twice with the same `event_id` (a retry), and a second site
 * receives 300 events with the same names. Everything goes through `POST /v1/server/events`.
 *
 * The expected answers below deliberately share no code with the service: they filter, dedupe
 * and count the raw list in memory.
 */
import type { ServerEventBody } from './goals.fixtures.js';
import { byCodePoint } from './goals.fixtures.js';

type Value = string | number | boolean | null;

export interface GeneratedEvent {
  event_id: string;
  name: string;
  visitor_id?: string;
  timestamp: string;
  properties: Record<string, Value>;
}

/** mulberry32: small, fast, good enough for test data. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const GOALS: [string, number][] = [
  ['purchase', 30],
  ['signup', 30],
  ['trial_started', 15],
  ['newsletter', 10],
  ['download', 10],
  ['contact_form', 5],
];
const START_MS = Date.parse('2026-02-01T00:00:00Z');
const END_MS = Date.parse('2026-06-15T11:00:00Z');

export function generateDataset(seed = 20260615) {
  const random = seededRandom(seed);
  const int = (n: number) => Math.floor(random() * n);
  /** Skewed towards small numbers, so a few values are common and many rare. */
  const skewed = (n: number) => Math.floor(n * random() ** 3);
  const pickGoal = () => {
    let roll = int(100);
    for (const [name, weight] of GOALS) {
      if (roll < weight) return name;
      roll -= weight;
    }
    return 'purchase';
  };
  const pad = (n: number, width: number) => String(n).padStart(width, '0');

  const propertiesFor = (name: string): Record<string, Value> => {
    if (name === 'purchase') {
      return {
        plan: ['free', 'pro', 'team', 'enterprise'][skewed(4)] as string,
        sku: `sku_${pad(skewed(300), 4)}`,
        qty: 1 + skewed(6),
        gift: random() < 0.2,
        coupon: random() < 0.5 ? null : `SAVE${pad(int(30), 2)}`,
        Größe: ['🍕', '🍔', '🌮'][int(3)] as string,
      };
    }
    if (name === 'signup')
      return { aa_ref: `ref_${pad(int(400), 3)}`, plan: ['free', 'pro', 'team'][int(3)] as string };
    const properties: Record<string, Value> = {};
    for (let i = 0; i < 6; i++) properties[`k_${pad(int(40), 2)}`] = `v${skewed(8)}`;
    return properties;
  };

  const events: GeneratedEvent[] = [];
  for (let n = 0; n < 3000; n++) {
    const name = pickGoal();
    const visitor = int(10) === 0 ? undefined : `visitor_${pad(int(800), 4)}`;
    events.push({
      event_id: `evt_${pad(n, 5)}`,
      name,
      ...(visitor ? { visitor_id: visitor } : {}),
      timestamp: new Date(START_MS + int(END_MS - START_MS)).toISOString(),
      properties: propertiesFor(name),
    });
  }
  const retries = events.filter(() => random() < 0.12);
  const otherSite: GeneratedEvent[] = Array.from({ length: 300 }, (_, n) => {
    const name = pickGoal();
    return {
      event_id: `other_${pad(n, 4)}`,
      name,
      timestamp: new Date(START_MS + int(END_MS - START_MS)).toISOString(),
      properties: propertiesFor(name),
    };
  });
  return { events, retries, otherSite };
}

export function toServerEvents(siteId: string, events: GeneratedEvent[]): ServerEventBody[] {
  return events.map((event) => ({ site_id: siteId, ...event }));
}

const dayOf = (timestamp: string) => timestamp.slice(0, 10);

/** Distinct events (first of each id) whose UTC day lies in [from, to]. */
function inWindow(events: GeneratedEvent[], from: string, to: string) {
  const seen = new Map<string, GeneratedEvent>();
  for (const event of events) if (!seen.has(event.event_id)) seen.set(event.event_id, event);
  return [...seen.values()].filter((event) => dayOf(event.timestamp) >= from && dayOf(event.timestamp) <= to);
}

export function expectedTimeseries(events: GeneratedEvent[], from: string, to: string) {
  const counts = new Map<string, Map<string, number>>();
  for (const event of inWindow(events, from, to)) {
    const days = counts.get(event.name) ?? new Map<string, number>();
    days.set(dayOf(event.timestamp), (days.get(dayOf(event.timestamp)) ?? 0) + 1);
    counts.set(event.name, days);
  }
  const series = [...counts.keys()].sort(byCodePoint).map((name) => {
    const days = counts.get(name) as Map<string, number>;
    const points = [...days.keys()].sort().map((date) => ({ date, completions: days.get(date) as number }));
    return { goal_name: name, points, total: points.reduce((sum, point) => sum + point.completions, 0) };
  });
  return { from, to, series };
}

/** The scan rule as the interface words it: pairs by key then count, 200 read, 10 shown per key. */
export function expectedProperties(events: GeneratedEvent[], name: string, from: string, to: string) {
  const counts = new Map<string, number>();
  for (const event of inWindow(events, from, to)) {
    if (event.name !== name) continue;
    for (const [key, value] of Object.entries(event.properties)) {
      if (value === null) continue;
      const pair = JSON.stringify([key, String(value)]);
      counts.set(pair, (counts.get(pair) ?? 0) + 1);
    }
  }
  const pairs = [...counts].map(([pair, count]) => {
    const [key, value] = JSON.parse(pair) as [string, string];
    return { key, value, count };
  });
  pairs.sort((a, b) => byCodePoint(a.key, b.key) || b.count - a.count || byCodePoint(a.value, b.value));
  const properties: { key: string; values: { value: string; count: number }[] }[] = [];
  for (const pair of pairs.slice(0, 200)) {
    let group = properties.at(-1);
    if (group?.key !== pair.key) {
      group = { key: pair.key, values: [] };
      properties.push(group);
    }
    if (group.values.length < 10) group.values.push({ value: pair.value, count: pair.count });
  }
  return { from, to, goal_name: name, properties };
}
