/**
 * What the people listing must say about a generated dataset (visitors.dataset.ts), computed
 * straight from the generated data: everyone with a visit in the window that passes a visit
 * predicate, merged into people by their sign-ins (visitors.expected.ts), with whole-window
 * figures, their latest sighting ever, and the listing's order for each sort.
 */
import {
  BROWSER_EVENT_MINUTE,
  type Dataset,
  type GenVisit,
  IDENTIFY_MINUTE,
  timeOf,
} from './visitors.dataset.js';
import { type DayWindow, personOfVisitorIn } from './visitors.expected.js';

/** The minute of a visit's engagement report (visitors.seed.ts), after its events. */
const ENGAGEMENT_MINUTE = BROWSER_EVENT_MINUTE + 1;

export interface ListedPerson {
  person: string;
  /** Epoch milliseconds of the person's latest browser step, in or after the window. */
  lastSeenMs: number;
  session_count: number;
  pageviews: number;
  active_time_sec: number;
  is_new: boolean;
  conversion_count: number;
  /** USD only: no exchange rate is on record unless a test adds one (`convertEur`). */
  total_cents: number;
}

export type Sort = 'last_seen' | 'visits' | 'revenue';

export interface ListingModel {
  personOf: (visitor: string) => string;
  /** The listing for a window, visits passing `matches`, in `sort` order. */
  list(window: DayWindow, sort: Sort, matches?: (visit: GenVisit) => boolean): ListedPerson[];
}

export function modelListing(
  data: Dataset,
  personKeyFor: (uid: string) => string,
  /** Minor units of USD for a group of EUR cents on one day, or null for none (no rate). */
  convertEur: (cents: number) => number | null = () => null,
): ListingModel {
  const personOf = personOfVisitorIn(data, personKeyFor);
  const personOfEvent = (e: Dataset['events'][number]) =>
    e.visitor ? personOf(e.visitor) : `p:${personKeyFor(e.uid as string)}`;

  const lastSeen = new Map<string, number>();
  const seenAt = (visitor: string, at: number) =>
    lastSeen.set(personOf(visitor), Math.max(lastSeen.get(personOf(visitor)) ?? 0, at));
  for (const v of data.visits) seenAt(v.visitor, timeOf(v.day, v.slot, v.pageviews > 1 ? 1 : 0));
  for (const i of data.identifies) seenAt(i.visitor, timeOf(i.day, i.slot, IDENTIFY_MINUTE));
  // A retried event is a duplicate, so it is not a sighting; server events never are.
  for (const e of data.events) {
    if (e.origin === 'browser') seenAt(e.visitor as string, timeOf(e.day, e.slot, BROWSER_EVENT_MINUTE));
  }
  for (const v of data.visits) {
    if (v.engagedMs > 0) seenAt(v.visitor, timeOf(v.day, v.slot, ENGAGEMENT_MINUTE));
  }
  const firstDay = new Map<string, number>();
  for (const v of data.visits) {
    const person = personOf(v.visitor);
    firstDay.set(person, Math.min(firstDay.get(person) ?? Number.POSITIVE_INFINITY, v.day));
  }

  function list(window: DayWindow, sort: Sort, matches: (visit: GenVisit) => boolean = () => true) {
    const inWindow = (day: number) => day >= window.fromDay && day <= window.toDay;
    const people = new Map<string, ListedPerson & { isMatch: boolean }>();
    const personIn = (person: string) => {
      let p = people.get(person);
      if (!p) {
        p = {
          person,
          lastSeenMs: lastSeen.get(person) ?? 0,
          session_count: 0,
          pageviews: 0,
          active_time_sec: 0,
          is_new: (firstDay.get(person) ?? -1) >= window.fromDay,
          conversion_count: 0,
          total_cents: 0,
          isMatch: false,
        };
        people.set(person, p);
      }
      return p;
    };
    for (const v of data.visits) {
      if (!inWindow(v.day)) continue;
      const p = personIn(personOf(v.visitor));
      p.session_count += 1;
      p.pageviews += v.pageviews;
      p.active_time_sec += v.engagedMs / 1000;
      p.isMatch ||= matches(v);
    }
    // Revenue is summed per visitor id (or person key alone), day and currency, as stored.
    const eurGroups = new Map<string, { person: string; cents: number }>();
    for (const e of data.events) {
      const p = inWindow(e.day) ? people.get(personOfEvent(e)) : undefined;
      if (!p) continue;
      p.conversion_count += 1;
      if (e.currency === 'USD') p.total_cents += e.cents ?? 0;
      if (e.currency !== 'EUR') continue;
      const key = `${e.visitor ?? `uid:${e.uid}`}|${e.day}`;
      const group = eurGroups.get(key) ?? { person: p.person, cents: 0 };
      group.cents += e.cents ?? 0;
      eurGroups.set(key, group);
    }
    for (const group of eurGroups.values()) {
      const p = people.get(group.person) as ListedPerson;
      p.total_cents += convertEur(group.cents) ?? 0;
    }
    const sortValueOf = (p: ListedPerson) =>
      sort === 'last_seen' ? p.lastSeenMs : sort === 'visits' ? p.session_count : p.total_cents;
    return [...people.values()]
      .filter((p) => p.isMatch)
      .map(({ isMatch: _, ...p }) => p)
      .sort(
        (a, b) => sortValueOf(b) - sortValueOf(a) || (a.person < b.person ? -1 : a.person > b.person ? 1 : 0),
      );
  }

  return { personOf, list };
}
