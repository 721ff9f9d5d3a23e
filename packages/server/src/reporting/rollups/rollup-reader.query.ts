/**
 * Visit and page metrics read from the rollups (migrations/024_stats_rollups.sql) where they can
 * answer: UTC days, buckets of a day or longer, and at most one visit dimension (or the page),
 * which the filters may use too (the rollups hold one dimension per row, so they cannot filter
 * one dimension while breaking down by another). The days of the range that are built come from the rollups, the
 * others from the raw visits grouped per person (visit-grain.sql.ts) or pageviews per visit
 * (pageview-grain.sql.ts), all in one snapshot, and the
 * two are merged here: sums add up, people merge as sketches (people-sketch.ts). Anything else
 * answers null, and the caller reads the raw visits.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { DAY_MS } from '../../lib/clock.js';
import { filterSql } from '../filter.sql.js';
import { filteredDimensions, type GrainQuery } from '../grain.sql.js';
import { type GroupedRow, withReadMemory } from '../grouped.query.js';
import { type PageviewMetric, pageviewsPerVisitSql } from '../pageview-grain.sql.js';
import { isTimeDimension, isVisitDimension, type VisitMetric } from '../stats-vocabulary.js';
import { dayBucketSql } from '../visit-columns.sql.js';
import { visitsPerPersonSql } from '../visit-grain.sql.js';
import { PeopleSketch, personHash } from './people-sketch.js';
import { monthOf, PAGE, TOTAL } from './rollup-day.query.js';

export interface VisitGroups {
  /** With `top`, only the groups that could be among the first `top`. */
  rows: GroupedRow[];
  /** Every group, including those left out of `rows`. */
  groupCount: number;
  /** Some people were counted with a sketch's registers: `visitors` is an estimate. */
  peopleEstimated: boolean;
}

export interface RollupReadOptions {
  /**
   * The rows a breakdown by one dimension, ordered by visitors descending, returns (its offset
   * and limit): the sketches are read only for the values whose bounds can reach them.
   */
  top?: number;
}

interface Group {
  dimensions: (string | null)[];
  visits: number;
  pageviews: number;
  bounces: number;
  engaged: number;
  people: PeopleSketch;
  /** Bounds of the people before their sketches are read: the largest part, the sum of parts. */
  peopleAtLeast: number;
  peopleAtMost: number;
}

const share = (part: number, of: number, scale: number) =>
  of === 0 ? 0 : Math.round((scale * part) / of) / scale;

const METRICS: Record<VisitMetric | PageviewMetric, (g: Group) => number> = {
  visitors: (g) => g.people.count(),
  visits: (g) => g.visits,
  pageviews: (g) => g.pageviews,
  views_per_visit: (g) => share(g.pageviews, g.visits, 100),
  visit_duration: (g) => share(g.engaged, g.visits, 1),
  bounce_rate: (g) => share(100 * g.bounces, g.visits, 10),
};

/** The rollup dimension that can answer the query, or null. */
export function rollupDimension(q: GrainQuery): string | null {
  if (q.timezone !== 'UTC') return null;
  if (
    q.dimensions.some((name) => !isVisitDimension(name) && !(isTimeDimension(name) && name !== 'time:hour'))
  )
    return null;
  const named = new Set([...q.dimensions.filter(isVisitDimension), ...filteredDimensions(q)]);
  if (named.size > 1) return null;
  const [only] = named;
  if (only === undefined) return TOTAL;
  return isVisitDimension(only) ? only : null;
}

/** What is built of a query's range: its days, and the whole months it may read as one row. */
interface Built {
  days: Set<string>;
  months: string[];
}

/**
 * Reads in one snapshot with what is built of the site's range; null when no day is. Months
 * are used only when the query's buckets do not split them (no time dimension, or months).
 */
function withBuiltDays<R>(
  db: Kysely<DB>,
  q: GrainQuery,
  read: (trx: Kysely<DB>, built: Built) => Promise<R>,
): Promise<R | null> {
  const time = q.dimensions.find(isTimeDimension);
  const readsMonths = time === undefined || time === 'time:month';
  return withReadMemory(
    db,
    async (trx) => {
      const days = await trx
        .selectFrom('stats_rollup_days')
        .select(sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'))
        .where('site_id', '=', q.siteId)
        .where(sql<boolean>`day between ${q.from}::date and ${q.to}::date`)
        .execute();
      if (days.length === 0) return null;
      const built = new Set(days.map((row) => row.day));
      const months = readsMonths
        ? await trx
            .selectFrom('stats_rollup_months')
            .select(sql<string>`to_char(month, 'YYYY-MM-DD')`.as('month'))
            .where('site_id', '=', q.siteId)
            .where(sql<boolean>`month >= ${q.from}::date and month + interval '1 month' <= ${q.to}::date + 1`)
            .execute()
        : [];
      // A month counts only with all its days, so no day is read twice.
      const whole = months
        .map((row) => row.month)
        .filter((month) => daysOfMonth(month).every((day) => built.has(day)));
      return read(trx, { days: built, months: whole });
    },
    { snapshot: true },
  );
}

function daysOfMonth(month: string): string[] {
  const days: string[] = [];
  const start = Date.parse(`${month}T00:00:00Z`);
  for (let at = start; new Date(at).getUTCMonth() === new Date(start).getUTCMonth(); at += DAY_MS) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

/**
 * The rollup rows of one dimension in the range, as `r`: the whole months from the month rows
 * (`day` their first day), the other built days from the day rows. The days are listed, not
 * given as a range less the months: a year of pages would read every day row to keep a month's.
 */
function rollupRows(q: GrainQuery, dimension: string, { days, months }: Built) {
  const inMonths = new Set(months);
  const ownDays = [...days].filter((day) => !inMonths.has(monthOf(day)));
  const columns = sql`site_id, dimension, value, visits, pageviews, bounces, engaged_seconds, continued_visits, people, people_count`;
  return sql`(
    select ${columns}, day from stats_visit_rollups
    where site_id = ${q.siteId} and dimension = ${dimension}
      and day = any(${ownDays}::date[])
    union all
    select ${columns}, month as day from stats_month_rollups
    where site_id = ${q.siteId} and dimension = ${dimension} and month = any(${months}::date[])
  ) r`;
}

/** Groups keyed by their dimension values, made on first use. */
function groupsByDimensions() {
  const groups = new Map<string | null, Group>();
  return {
    groups,
    of(dimensions: (string | null)[]) {
      // One dimension is its own key (a Map tells null from "null"); a row per page and day
      // makes the JSON of every row a cost of its own.
      const key = dimensions.length === 1 ? (dimensions[0] as string | null) : JSON.stringify(dimensions);
      let group = groups.get(key);
      if (!group) {
        group = {
          ...{ dimensions, visits: 0, pageviews: 0, bounces: 0, engaged: 0 },
          ...{ people: new PeopleSketch(), peopleAtLeast: 0, peopleAtMost: 0 },
        };
        groups.set(key, group);
      }
      return group;
    },
  };
}

const dimensionsOf = (q: GrainQuery, row: Record<string, unknown>, prefix: string) =>
  q.dimensions.map((_, i) => (row[`${prefix}${i}`] ?? null) as string | null);

function answer(
  groups: Group[],
  groupCount: number,
  metrics: (VisitMetric | PageviewMetric)[],
  countsPeople: boolean,
): VisitGroups {
  const rows = groups.map((group) => ({
    dimensions: group.dimensions,
    metrics: metrics.map((name) => METRICS[name](group)),
    extras: [],
  }));
  const peopleEstimated = countsPeople && groups.some((group) => group.people.approximate);
  return { rows, groupCount, peopleEstimated };
}

/**
 * Whether people are read in two steps (`top`): first every row's people count, then the
 * sketches of the values that can reach the top. Only for one dimension that is not time.
 */
const readsTopOnly = (q: GrainQuery, countsPeople: boolean, top: number | undefined): top is number =>
  top !== undefined &&
  top >= 1 &&
  countsPeople &&
  q.dimensions.length === 1 &&
  !isTimeDimension(q.dimensions[0] as string);

/** The rollup row's part of its group's people bounds; a row counted before migration 030 has none. */
function boundPeople(group: Group, count: unknown): void {
  if (count === null || count === undefined) {
    group.peopleAtMost = Number.POSITIVE_INFINITY;
    return;
  }
  group.peopleAtMost += Number(count);
  group.peopleAtLeast = Math.max(group.peopleAtLeast, Number(count));
}

/**
 * Slack on the bounds: counts of sketches with registers are estimates (1.6% standard error
 * each), so a sum of them may fall a little short of the count of their merge.
 */
const ESTIMATE_SLACK = 1.1;

export async function readVisitGroupsFromRollups(
  db: Kysely<DB>,
  q: GrainQuery,
  metrics: VisitMetric[],
  { top }: RollupReadOptions = {},
): Promise<VisitGroups | null> {
  const dimension = rollupDimension(q);
  if (dimension === null) return null;
  const countsPeople = metrics.includes('visitors');
  const topOnly = readsTopOnly(q, countsPeople, top);
  return withBuiltDays(db, q, async (trx, built) => {
    const { groups, of } = groupsByDimensions();
    const value = sql<string | null>`nullif(r.value, '')`;
    const rows = sql`${rollupRows(q, dimension, built)}
      where (${filterSql({ op: 'and', filters: q.filters }, 'visits', dimension === TOTAL ? {} : { [dimension]: value })})`;
    const { rows: rolled } = await sql<Record<string, unknown>>`
      select ${sql.join([
        ...q.dimensions.map((name, i) => {
          const expression = isTimeDimension(name) ? dayBucketSql(name, sql`r.day`) : value;
          return sql`${expression} as ${sql.ref(`d${i}`)}`;
        }),
        sql`r.visits, r.pageviews, r.bounces, r.engaged_seconds::float8 as engaged`,
        peopleColumns(countsPeople, topOnly, sql`r`),
      ])}
      from ${rows}
    `.execute(trx);
    for (const row of rolled) {
      const group = of(dimensionsOf(q, row, 'd'));
      group.visits += Number(row.visits);
      group.pageviews += Number(row.pageviews);
      group.bounces += Number(row.bounces);
      group.engaged += Number(row.engaged);
      if (topOnly) boundPeople(group, row.people_count);
      else if (row.people) group.people.merge(row.people as Uint8Array);
    }

    const withBounces = metrics.includes('bounce_rate');
    for (const [from, to] of daysNotBuilt(q.from, q.to, built.days)) {
      const { rows: raw } = await sql<Record<string, unknown>>`
        ${visitsPerPersonSql({ ...q, from, to }, withBounces)}
      `.execute(trx);
      for (const row of raw) {
        const group = of(dimensionsOf(q, row, 'g'));
        group.visits += Number(row.n);
        group.pageviews += Number(row.pv);
        group.bounces += Number(row.b);
        group.engaged += Number(row.eng);
        if (countsPeople) group.people.add(personHash(String(row.person)));
      }
    }

    // An aggregate is one row even when nothing happened.
    if (q.dimensions.length === 0 && groups.size === 0) of([]);
    if (!topOnly) return answer([...groups.values()], groups.size, metrics, countsPeople);
    const merged = await mergeTop(groups, top, (values) =>
      mergeSketches(
        trx,
        groups,
        sql`select ${value} as key, r.people from ${rows} and r.value = any(${values}::text[])`,
      ),
    );
    return answer(merged, groups.size, metrics, countsPeople);
  });
}

/** Whether the rollups can answer a page breakdown: UTC, days or longer, filtered by page only. */
const isPageQuery = (q: GrainQuery) =>
  q.timezone === 'UTC' &&
  q.dimensions.includes(PAGE) &&
  q.dimensions.every((name) => name === PAGE || (isTimeDimension(name) && name !== 'time:hour')) &&
  [...filteredDimensions(q)].every((name) => name === PAGE);

/**
 * People, visits and pageviews per page (pageview-grain.sql.ts's figures). A visit counts once per
 * group: the pages rollup counts it on each day it viewed the page, so a day whose visits also
 * viewed the page the day before, in the same group, takes those visits off again.
 */
export async function readPageGroupsFromRollups(
  db: Kysely<DB>,
  q: GrainQuery,
  metrics: PageviewMetric[],
  { top }: RollupReadOptions = {},
): Promise<VisitGroups | null> {
  if (!isPageQuery(q)) return null;
  const countsPeople = metrics.includes('visitors');
  const topOnly = readsTopOnly(q, countsPeople, top);
  const time = q.dimensions.find(isTimeDimension);
  /** Whether `day` and the day before are both in the range and in one group. */
  const joinsDayBefore = (day: string) =>
    day > q.from &&
    (time === undefined ||
      (time === 'time:week' && new Date(`${day}T00:00:00Z`).getUTCDay() !== 1) ||
      (time === 'time:month' && !day.endsWith('-01')));
  return withBuiltDays(db, q, async (trx, built) => {
    const { groups, of } = groupsByDimensions();
    const rows = sql`(
        select r.*, nullif(r.value, '') as path from ${rollupRows(q, PAGE, built)}
      ) e
      where (${filterSql({ op: 'and', filters: q.filters }, 'pageviews')})`;
    const { rows: rolled } = await sql<Record<string, unknown>>`
      select ${sql.join([
        ...q.dimensions.map((name, i) => {
          const expression = isTimeDimension(name) ? dayBucketSql(name, sql`e.day`) : sql`e.path`;
          return sql`${expression} as ${sql.ref(`d${i}`)}`;
        }),
        sql`to_char(e.day, 'YYYY-MM-DD') as day, e.visits, e.pageviews, e.continued_visits`,
        peopleColumns(countsPeople, topOnly, sql`e`),
      ])}
      from ${rows}
    `.execute(trx);
    for (const row of rolled) {
      const group = of(dimensionsOf(q, row, 'd'));
      group.pageviews += Number(row.pageviews);
      group.visits +=
        Number(row.visits) - (joinsDayBefore(String(row.day)) ? Number(row.continued_visits) : 0);
      if (topOnly) boundPeople(group, row.people_count);
      else if (row.people) group.people.merge(row.people as Uint8Array);
    }

    for (const [from, to] of daysNotBuilt(q.from, q.to, built.days)) {
      const { rows: raw } = await sql<Record<string, unknown>>`
        ${pageviewsPerVisitSql({ ...q, from, to }, joinsDayBefore(from) ? from : null)}
      `.execute(trx);
      for (const row of raw) {
        const group = of(dimensionsOf(q, row, 'g'));
        group.pageviews += Number(row.pv);
        if (row.visit_id !== null) group.visits += row.continued ? 0 : 1;
        if (countsPeople) group.people.add(personHash(String(row.person)));
      }
    }
    if (!topOnly) return answer([...groups.values()], groups.size, metrics, countsPeople);
    const merged = await mergeTop(groups, top, (values) =>
      mergeSketches(
        trx,
        groups,
        sql`select e.path as key, e.people from ${rows} and e.value = any(${values}::text[])`,
      ),
    );
    return answer(merged, groups.size, metrics, countsPeople);
  });
}

/** The people columns of a rollup row (`from` its alias): the sketch, its count, or neither. */
const peopleColumns = (countsPeople: boolean, topOnly: boolean, from: RawBuilder<unknown>) =>
  topOnly
    ? sql`${from}.people_count, null as people`
    : countsPeople
      ? sql`${from}.people`
      : sql`null as people`;

/**
 * Merges the stored people of the groups that may be among the first `top` by people, in two
 * rounds, and returns those groups. Bounds alone rule out little over a long range (a month's
 * people is a weak lower bound of a year's), so the first round merges the 2 × `top` groups with
 * the largest upper bounds; the `top`-th largest of their exact counts and the others' lower
 * bounds is a floor that `top` groups reach, and the second round merges only the other groups
 * whose upper bound (with the slack) reaches it. `mergeStored` merges the rows of the given
 * stored values ('' for null).
 */
async function mergeTop(
  groups: Map<string | null, Group>,
  top: number,
  mergeStored: (values: string[]) => Promise<void>,
): Promise<Group[]> {
  const storedValues = (chosen: Group[]) => chosen.map((group) => group.dimensions[0] ?? '');
  const byUpperBound = [...groups.values()];
  // The raw days' people, all a sketch holds so far, are one more part of the bounds.
  for (const group of byUpperBound) {
    const raw = group.people.count();
    group.peopleAtMost += raw;
    group.peopleAtLeast = Math.max(group.peopleAtLeast, raw);
  }
  byUpperBound.sort((a, b) => b.peopleAtMost - a.peopleAtMost);
  const first = byUpperBound.slice(0, 2 * top);
  const rest = byUpperBound.slice(2 * top);
  await mergeStored(storedValues(first));
  if (rest.length === 0) return first;
  const known = [...first.map((group) => group.people.count()), ...rest.map((group) => group.peopleAtLeast)];
  const floor = known.sort((a, b) => b - a)[top - 1] as number;
  const second = rest.filter((group) => group.peopleAtMost * ESTIMATE_SLACK >= floor);
  if (second.length > 0) await mergeStored(storedValues(second));
  return [...first, ...second];
}

/** Merges the sketches `rows` selects (`key`: the group's value, `people`) into their groups. */
async function mergeSketches(trx: Kysely<DB>, groups: Map<string | null, Group>, rows: RawBuilder<unknown>) {
  const { rows: stored } = await sql<{ key: string | null; people: Uint8Array }>`${rows}`.execute(trx);
  for (const row of stored) groups.get(row.key)?.people.merge(row.people);
}

/** The runs of consecutive days from `from` to `to` (inclusive) that are not in `built`. */
export function daysNotBuilt(from: string, to: string, built: Set<string>): [string, string][] {
  const runs: [string, string][] = [];
  let start: string | null = null;
  let previous: string | null = null;
  for (let at = Date.parse(from); at <= Date.parse(to); at += DAY_MS) {
    const day = new Date(at).toISOString().slice(0, 10);
    if (built.has(day)) {
      if (start !== null && previous !== null) runs.push([start, previous]);
      start = null;
    } else if (start === null) start = day;
    previous = day;
  }
  if (start !== null && previous !== null) runs.push([start, previous]);
  return runs;
}
