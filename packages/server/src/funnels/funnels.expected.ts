/**
 * The plain computation the funnel reports are checked against: every person's pageviews and
 * events from the plan of funnels.dataset.ts, walked step by step in JavaScript.
 */
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { actionTimes, type PlannedPerson, type Source } from './funnels.dataset.js';

export type Step =
  | { type: 'page'; match: 'is' | 'contains' | 'matches'; value: string }
  | { type: 'event'; name: string; property?: { key: string; value: string } };

/** One thing a person did; `source` is that of its visit, null outside any visit (server). */
export interface Occurrence {
  at: Date;
  path?: string;
  event?: { name: string; plan?: string };
  source: Source | null;
}

export function occurrencesOf(person: PlannedPerson): Occurrence[] {
  const all: Occurrence[] = person.visits.flatMap((visit) => {
    const times = actionTimes(visit);
    return visit.actions.map((action, i) => {
      const at = times[i] as Date;
      return action.kind === 'page'
        ? { at, path: action.path, source: visit.source }
        : {
            at,
            event: { name: action.name, ...(action.plan ? { plan: action.plan } : {}) },
            source: visit.source,
          };
    });
  });
  for (const at of person.serverPurchases) all.push({ at, event: { name: 'purchase' }, source: null });
  return all.sort((a, b) => a.at.getTime() - b.at.getTime());
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function isMatch(step: Step, o: Occurrence): boolean {
  if (step.type === 'event') {
    if (o.event?.name !== step.name) return false;
    return !step.property || (step.property.key === 'plan' && o.event.plan === step.property.value);
  }
  if (o.path === undefined) return false;
  if (step.match === 'is') return o.path === step.value;
  if (step.match === 'contains') return o.path.toLowerCase().includes(step.value.toLowerCase());
  return new RegExp(`^${step.value.split('*').map(escapeRegex).join('.*')}$`).test(o.path);
}

export interface Funnel {
  steps: Step[];
  windowHours: number;
  /** Inclusive days, in UTC unless `offset` (such as `+05:30`) names a zone without summer time. */
  from: string;
  to: string;
  offset?: string;
}

/** When the person reached each step (as far as they got), and the occurrence they entered at. */
export function progressOf(
  person: PlannedPerson,
  f: Funnel,
  passes: (o: Occurrence) => boolean = () => true,
) {
  const start = Date.parse(`${f.from}T00:00:00${f.offset ?? 'Z'}`);
  const end = Date.parse(`${f.to}T00:00:00${f.offset ?? 'Z'}`) + DAY_MS;
  const occurrences = occurrencesOf(person);
  const entry = occurrences.find(
    (o) => o.at.getTime() >= start && o.at.getTime() < end && isMatch(f.steps[0] as Step, o) && passes(o),
  );
  if (!entry) return { entry: null, times: [] as number[] };
  const deadline = entry.at.getTime() + f.windowHours * HOUR_MS;
  const times = [entry.at.getTime()];
  for (const step of f.steps.slice(1)) {
    const previous = times[times.length - 1] as number;
    const next = occurrences.find(
      (o) => o.at.getTime() > previous && o.at.getTime() <= deadline && isMatch(step, o),
    );
    if (!next) break;
    times.push(next.at.getTime());
  }
  return { entry, times };
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10);

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return Math.round(
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2,
  );
}

/** The report's `steps` for these people's progress. */
export function expectedSteps(labels: string[], progress: { times: number[] }[]) {
  const reached = labels.map((_, i) => progress.filter((p) => p.times.length > i).length);
  return labels.map((label, i) => {
    const previous = reached[i === 0 ? 0 : i - 1] as number;
    const visitors = reached[i] as number;
    const gaps = progress
      .filter((p) => p.times.length > i + 1)
      .map((p) => ((p.times[i + 1] as number) - (p.times[i] as number)) / 1000);
    return {
      index: i + 1,
      label,
      visitors,
      conversion_from_previous: percent(visitors, previous),
      conversion_from_first: percent(visitors, reached[0] as number),
      drop_off: previous - visitors,
      median_seconds_to_next: median(gaps),
    };
  });
}

/** The whole report: every person, and with `groupOf` the groups by entry, most people first. */
export function expectedReport(
  people: PlannedPerson[],
  f: Funnel,
  labels: string[],
  options: { passes?: (o: Occurrence) => boolean; groupOf?: (o: Occurrence) => string | null } = {},
) {
  const progress = people.map((person) => progressOf(person, f, options.passes)).filter((p) => p.entry);
  const { groupOf } = options;
  if (!groupOf) return { steps: expectedSteps(labels, progress), breakdown: null };
  const groups = new Map<string | null, typeof progress>();
  for (const p of progress) {
    const key = groupOf(p.entry as Occurrence);
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  const breakdown = [...groups.entries()]
    .map(([value, members]) => ({ value, steps: expectedSteps(labels, members) }))
    .sort(
      (a, b) =>
        (b.steps[0]?.visitors ?? 0) - (a.steps[0]?.visitors ?? 0) ||
        (a.value === b.value ? 0 : a.value === null ? 1 : b.value === null ? -1 : a.value < b.value ? -1 : 1),
    );
  return { steps: expectedSteps(labels, progress), breakdown };
}
