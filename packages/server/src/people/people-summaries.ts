/**
 * Turns people into visitor rows (interface §2.5): gathers each person's visitor ids (capped, so
 * one person with thousands of devices cannot make a page slow), then their visits, first and
 * last sighting and conversions in the window, and combines them per person.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { loneVisitorOf, type PersonId, personKeyOf, personOfKey } from '../identity/identity.js';
import type { DayWindow } from '../lib/day-window.js';
import { type ClickHouseReads, readClickHouse } from '../reporting/clickhouse/ch-read.js';
import { sumConversions } from './conversion-totals.query.js';
import type { HandleCodec } from './visitor-handles.js';
import type { VisitorLabel } from './visitor-labels.js';
import { findFirstVisits, findPersonVisitorIds, findSeenRanges } from './visitors.store.js';
import { chSummariseWindowVisits } from './window-visit-summaries.ch.query.js';
import { summariseWindowVisits, type VisitFacts } from './window-visit-summaries.query.js';

/** Visitor ids read per person; a person with more is summarised from these (rule 5). */
export const VISITOR_IDS_PER_PERSON = 50;

export interface SummaryContext {
  db: Kysely<DB>;
  /** When set, the window's visits are summarised by ClickHouse (PostgreSQL when it cannot). */
  clickhouse?: ClickHouseReads;
  codec: HandleCodec;
  labelFor: (siteId: string, person: PersonId) => VisitorLabel;
  site: { id: string; currency: string };
  window: DayWindow;
}

export interface PersonSummary {
  person: PersonId;
  visitorIds: string[];
  /** False when the person had more visitor ids than were read: figures are lower bounds. */
  isComplete: boolean;
  row: ReturnType<typeof presentRow>;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentEntry(visit: VisitFacts | null) {
  return {
    ai_source: visit?.session_ai_source ?? '',
    source_kind: visit?.source_kind ?? '',
    source_name: visit?.source_name ?? '',
    campaign: visit?.campaign ?? '',
    ref: visit?.ref ?? '',
    url: visit?.entry_url ?? '',
  };
}

export function presentDevice(visit: VisitFacts | null) {
  return {
    device: { device_type: visit?.device_type ?? '', os: visit?.os ?? '', browser: visit?.browser ?? '' },
    location: { country_code: visit?.country_code ?? '', city: visit?.city ?? '' },
  };
}

interface Figures {
  /** The person's earliest visit, which their handle names. */
  firstVisit: { id: string; started_at: Date } | null;
  firstSeen: Date | null;
  lastSeen: Date | null;
  sessions: number;
  pageviews: number;
  engagedSeconds: number;
  first: VisitFacts | null;
  latest: VisitFacts | null;
  conversions: number;
  totalMinor: number;
  /** Minor units per currency that had no rate. */
  unconverted: Map<string, number>;
}

const emptyFigures = (): Figures => ({
  firstVisit: null,
  firstSeen: null,
  lastSeen: null,
  sessions: 0,
  pageviews: 0,
  engagedSeconds: 0,
  first: null,
  latest: null,
  conversions: 0,
  totalMinor: 0,
  unconverted: new Map(),
});

const earlier = (a: Date | null, b: Date | null) => (a && (!b || a < b) ? a : b);
/** Visit order: start time, then id, so equal start times still pick one visit on every run. */
const startsBefore = (a: { id: string; started_at: Date }, b: { id: string; started_at: Date }) =>
  a.started_at < b.started_at || (a.started_at.getTime() === b.started_at.getTime() && a.id < b.id);
const later = (a: Date | null, b: Date | null) => (a && (!b || a > b) ? a : b);

function presentRow(ctx: SummaryContext, person: PersonId, f: Figures) {
  return {
    handle: f.firstVisit ? ctx.codec.encode({ siteId: ctx.site.id, visitId: f.firstVisit.id }) : null,
    label: ctx.labelFor(ctx.site.id, person),
    first_seen: iso(f.firstSeen),
    last_seen: iso(f.lastSeen),
    session_count: f.sessions,
    pageviews: f.pageviews,
    active_time_sec: f.engagedSeconds,
    // New: the person's first sighting falls inside the window.
    is_new: f.firstSeen !== null && f.firstSeen >= ctx.window.start,
    entry: presentEntry(f.first),
    ...presentDevice(f.latest),
    revenue: {
      total_cents: f.totalMinor,
      currency: ctx.site.currency,
      conversion_count: f.conversions,
      unconverted: [...f.unconverted]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([currency, cents]) => ({ currency, total_cents: cents })),
    },
    client_revenue: null,
    latest_session_id: f.latest?.id ?? null,
  };
}

export async function summarisePeople(ctx: SummaryContext, people: PersonId[]): Promise<PersonSummary[]> {
  const { db, clickhouse, site, window } = ctx;
  const personKeys = people.flatMap((person) => personKeyOf(person) ?? []);
  const linked = await findPersonVisitorIds(db, {
    siteId: site.id,
    personKeys,
    perKey: VISITOR_IDS_PER_PERSON + 1,
    start: window.start,
    end: window.end,
  });
  const owner = new Map<string, PersonId>();
  const summaries = people.map((person) => {
    const lone = loneVisitorOf(person);
    const all = lone ? [lone] : (linked.get(personKeyOf(person) as string) ?? []);
    const visitorIds = all.slice(0, VISITOR_IDS_PER_PERSON);
    for (const id of visitorIds) owner.set(id, person);
    return { person, visitorIds, isComplete: all.length <= VISITOR_IDS_PER_PERSON };
  });
  const visitorIds = [...owner.keys()];
  const range = { siteId: site.id, start: window.start, end: window.end };
  const visits =
    (await readClickHouse({ db, clickhouse }, site.id, window.start, (ch, scope) =>
      chSummariseWindowVisits(ch, scope, db, { ...range, visitorIds }),
    )) ?? (await summariseWindowVisits(db, { ...range, visitorIds }));
  const seen = await findSeenRanges(db, site.id, visitorIds);
  const firstVisits = await findFirstVisits(db, site.id, visitorIds);
  const totals = await sumConversions(db, { ...range, visitorIds, personKeys, currency: site.currency });

  const figures = new Map(people.map((person) => [person, emptyFigures()]));
  for (const range of seen) {
    const f = figures.get(owner.get(range.visitor_id) as PersonId);
    if (!f) continue;
    f.firstSeen = earlier(range.first_seen, f.firstSeen);
    f.lastSeen = later(range.last_seen, f.lastSeen);
  }
  for (const visit of firstVisits) {
    const f = figures.get(owner.get(visit.visitor_id) as PersonId);
    if (f && (!f.firstVisit || startsBefore(visit, f.firstVisit))) f.firstVisit = visit;
  }
  for (const summary of visits.values()) {
    const f = figures.get(owner.get(summary.visitor_id) as PersonId);
    if (!f) continue;
    f.sessions += summary.session_count;
    f.pageviews += summary.pageviews;
    f.engagedSeconds += summary.engaged_seconds;
    if (!f.first || startsBefore(summary.first, f.first)) f.first = summary.first;
    if (!f.latest || startsBefore(f.latest, summary.latest)) f.latest = summary.latest;
    // A visitor row missing (or behind) still leaves the visits as evidence of when they were seen.
    f.firstSeen = earlier(f.firstSeen, summary.first.started_at);
    f.lastSeen = later(f.lastSeen, summary.latest.last_activity_at);
  }
  for (const total of totals) {
    const person = total.visitor_id ? owner.get(total.visitor_id) : personOfKey(total.person_key ?? '');
    const f = person ? figures.get(person) : undefined;
    if (!f) continue;
    f.conversions += total.conversion_count;
    f.totalMinor += total.total_minor;
    // Values in currencies with no rate yet are listed apart, never guessed.
    for (const [code, cents] of total.unconverted)
      f.unconverted.set(code, (f.unconverted.get(code) ?? 0) + cents);
  }
  return summaries.map((s) => ({
    ...s,
    row: presentRow(ctx, s.person, figures.get(s.person) ?? emptyFigures()),
  }));
}
