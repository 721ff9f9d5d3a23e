/**
 * What the goal visitors report must say about a generated dataset, computed straight from the
 * generated data (no database): people from sign-ins, completions mapped to people, rule 3's
 * visit-in-window filter, the order, and each person's whole-window figures. `completers`
 * counts the people who completed before rule 3 left out those without a visit in the window.
 */
import {
  BROWSER_EVENT_MINUTE,
  type Dataset,
  IDENTIFY_MINUTE,
  SERVER_EVENT_MINUTE,
  timeOf,
} from './visitors.dataset.js';

export interface ExpectedPerson {
  person: string;
  lastCompletedAt: number;
  session_count: number;
  pageviews: number;
  active_time_sec: number;
  is_new: boolean;
  conversion_count: number;
  total_cents: number;
}

export interface DayWindow {
  fromDay: number;
  toDay: number;
}

/** The person a generated browser belongs to: its earliest sign-in's person, or itself. */
export function personOfVisitorIn(data: Dataset, personKeyFor: (uid: string) => string) {
  const firstLink = new Map<string, { at: number; key: string }>();
  for (const i of data.identifies) {
    const link = { at: timeOf(i.day, i.slot, IDENTIFY_MINUTE), key: personKeyFor(i.uid) };
    const known = firstLink.get(i.visitor);
    if (!known || link.at < known.at || (link.at === known.at && link.key < known.key)) {
      firstLink.set(i.visitor, link);
    }
  }
  return (visitor: string) => {
    const link = firstLink.get(visitor);
    return link ? `p:${link.key}` : `v:${visitor}`;
  };
}

export function expectGoalPeople(
  data: Dataset,
  goal: string,
  window: DayWindow,
  personKeyFor: (uid: string) => string,
): ExpectedPerson[] & { completers: number } {
  const inWindow = (day: number) => day >= window.fromDay && day <= window.toDay;

  const personOfVisitor = personOfVisitorIn(data, personKeyFor);
  const personOfEvent = (e: Dataset['events'][number]) =>
    e.visitor ? personOfVisitor(e.visitor) : `p:${personKeyFor(e.uid as string)}`;

  const firstDay = new Map<string, number>();
  const figures = new Map<string, Omit<ExpectedPerson, 'person' | 'lastCompletedAt' | 'is_new'>>();
  const figuresOf = (person: string) => {
    let f = figures.get(person);
    if (!f) {
      f = { session_count: 0, pageviews: 0, active_time_sec: 0, conversion_count: 0, total_cents: 0 };
      figures.set(person, f);
    }
    return f;
  };
  for (const visit of data.visits) {
    const person = personOfVisitor(visit.visitor);
    firstDay.set(person, Math.min(firstDay.get(person) ?? Number.POSITIVE_INFINITY, visit.day));
    if (!inWindow(visit.day)) continue;
    const f = figuresOf(person);
    f.session_count += 1;
    f.pageviews += visit.pageviews;
    f.active_time_sec += visit.engagedMs / 1000;
  }

  const lastCompletion = new Map<string, number>();
  for (const e of data.events) {
    if (!inWindow(e.day)) continue;
    const person = personOfEvent(e);
    const f = figuresOf(person);
    f.conversion_count += 1;
    if (e.currency === 'USD') f.total_cents += e.cents ?? 0;
    if (e.name !== goal) continue;
    const at = timeOf(e.day, e.slot, e.origin === 'browser' ? BROWSER_EVENT_MINUTE : SERVER_EVENT_MINUTE);
    lastCompletion.set(person, Math.max(lastCompletion.get(person) ?? 0, at));
  }

  const listed = [...lastCompletion]
    .filter(([person]) => (figures.get(person)?.session_count ?? 0) > 0)
    .map(([person, lastCompletedAt]) => ({
      person,
      lastCompletedAt,
      ...(figures.get(person) as NonNullable<ReturnType<typeof figures.get>>),
      is_new: (firstDay.get(person) ?? -1) >= window.fromDay,
    }))
    .sort((a, b) =>
      a.lastCompletedAt !== b.lastCompletedAt
        ? b.lastCompletedAt - a.lastCompletedAt
        : a.person < b.person
          ? -1
          : a.person > b.person
            ? 1
            : 0,
    );
  return Object.assign(listed, { completers: lastCompletion.size });
}
