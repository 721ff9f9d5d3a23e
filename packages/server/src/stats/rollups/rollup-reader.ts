/**
 * Visit and page metrics read from the rollups (migrations/024_stats_rollups.sql) where they can
 * answer: UTC days, buckets of a day or longer, and at most one visit dimension (or the page),
 * which the filters may use too (the rollups hold one dimension per row, so they cannot filter
 * one dimension while breaking down by another). The days of the range that are built come from the rollups, the
 * others from the raw visits grouped per person (visit-grain.ts) or pageviews per visit
 * (pageview-grain.ts), all in one snapshot, and the
 * two are merged here: sums add up, people merge as sketches (people-sketch.ts). Anything else
 * answers null, and the caller reads the raw visits.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { DAY_MS } from '../../lib/clock.js';
import { filterSql } from '../filter-sql.js';
import { filteredDimensions, type GrainQuery } from '../grain.js';
import { type GroupedRow, withReadMemory } from '../grouped-query.js';
import { type PageviewMetric, pageviewsPerVisitSql } from '../pageview-grain.js';
import { isTimeDimension, isVisitDimension, type VisitMetric } from '../stats-vocabulary.js';
import { dayBucketSql } from '../visit-columns.js';
import { visitsPerPersonSql } from '../visit-grain.js';
import { PeopleSketch, personHash } from './people-sketch.js';
import { PAGE, TOTAL } from './rollup-day.js';

export interface VisitGroups {
  rows: GroupedRow[];
  /** Some people were counted with a sketch's registers: `visitors` is an estimate. */
  peopleEstimated: boolean;
}

interface Group {
  dimensions: (string | null)[];
  visits: number;
  pageviews: number;
  bounces: number;
  engaged: number;
  people: PeopleSketch;
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
 * (`day` their first day), the other days from the day rows.
 */
function rollupRows(q: GrainQuery, dimension: string, months: string[]) {
  const columns = sql`site_id, dimension, value, visits, pageviews, bounces, engaged_seconds, continued_visits, people`;
  return sql`(
    select ${columns}, day from stats_visit_rollups
    where site_id = ${q.siteId} and dimension = ${dimension}
      and day between ${q.from}::date and ${q.to}::date
      and date_trunc('month', day)::date <> all(${months}::date[])
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
        group = { dimensions, visits: 0, pageviews: 0, bounces: 0, engaged: 0, people: new PeopleSketch() };
        groups.set(key, group);
      }
      return group;
    },
  };
}

const dimensionsOf = (q: GrainQuery, row: Record<string, unknown>, prefix: string) =>
  q.dimensions.map((_, i) => (row[`${prefix}${i}`] ?? null) as string | null);

function answer(
  groups: Map<string | null, Group>,
  metrics: (VisitMetric | PageviewMetric)[],
  countsPeople: boolean,
): VisitGroups {
  const rows = [...groups.values()].map((group) => ({
    dimensions: group.dimensions,
    metrics: metrics.map((name) => METRICS[name](group)),
    extras: [],
  }));
  const peopleEstimated = countsPeople && [...groups.values()].some((group) => group.people.approximate);
  return { rows, peopleEstimated };
}

export async function readVisitGroupsFromRollups(
  db: Kysely<DB>,
  q: GrainQuery,
  metrics: VisitMetric[],
): Promise<VisitGroups | null> {
  const dimension = rollupDimension(q);
  if (dimension === null) return null;
  const countsPeople = metrics.includes('visitors');
  return withBuiltDays(db, q, async (trx, built) => {
    const { groups, of } = groupsByDimensions();
    const value = sql<string | null>`nullif(r.value, '')`;
    const { rows: rolled } = await sql<Record<string, unknown>>`
      select ${sql.join([
        ...q.dimensions.map((name, i) => {
          const expression = isTimeDimension(name) ? dayBucketSql(name, sql`r.day`) : value;
          return sql`${expression} as ${sql.ref(`d${i}`)}`;
        }),
        sql`r.visits, r.pageviews, r.bounces, r.engaged_seconds::float8 as engaged`,
        countsPeople ? sql`r.people` : sql`null as people`,
      ])}
      from ${rollupRows(q, dimension, built.months)}
      where ${filterSql({ op: 'and', filters: q.filters }, 'visits', dimension === TOTAL ? {} : { [dimension]: value })}
    `.execute(trx);
    for (const row of rolled) {
      const group = of(dimensionsOf(q, row, 'd'));
      group.visits += Number(row.visits);
      group.pageviews += Number(row.pageviews);
      group.bounces += Number(row.bounces);
      group.engaged += Number(row.engaged);
      if (row.people) group.people.merge(row.people as Uint8Array);
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
    return answer(groups, metrics, countsPeople);
  });
}

/** Whether the rollups can answer a page breakdown: UTC, days or longer, filtered by page only. */
const isPageQuery = (q: GrainQuery) =>
  q.timezone === 'UTC' &&
  q.dimensions.includes(PAGE) &&
  q.dimensions.every((name) => name === PAGE || (isTimeDimension(name) && name !== 'time:hour')) &&
  [...filteredDimensions(q)].every((name) => name === PAGE);

/**
 * People, visits and pageviews per page (pageview-grain.ts's figures). A visit counts once per
 * group: the pages rollup counts it on each day it viewed the page, so a day whose visits also
 * viewed the page the day before, in the same group, takes those visits off again.
 */
export async function readPageGroupsFromRollups(
  db: Kysely<DB>,
  q: GrainQuery,
  metrics: PageviewMetric[],
): Promise<VisitGroups | null> {
  if (!isPageQuery(q)) return null;
  const countsPeople = metrics.includes('visitors');
  const time = q.dimensions.find(isTimeDimension);
  /** Whether `day` and the day before are both in the range and in one group. */
  const joinsDayBefore = (day: string) =>
    day > q.from &&
    (time === undefined ||
      (time === 'time:week' && new Date(`${day}T00:00:00Z`).getUTCDay() !== 1) ||
      (time === 'time:month' && !day.endsWith('-01')));
  return withBuiltDays(db, q, async (trx, built) => {
    const { groups, of } = groupsByDimensions();
    const { rows: rolled } = await sql<Record<string, unknown>>`
      select ${sql.join([
        ...q.dimensions.map((name, i) => {
          const expression = isTimeDimension(name) ? dayBucketSql(name, sql`e.day`) : sql`e.path`;
          return sql`${expression} as ${sql.ref(`d${i}`)}`;
        }),
        sql`to_char(e.day, 'YYYY-MM-DD') as day, e.visits, e.pageviews, e.continued_visits`,
        countsPeople ? sql`e.people` : sql`null as people`,
      ])}
      from (
        select r.*, nullif(r.value, '') as path from ${rollupRows(q, PAGE, built.months)}
      ) e
      where ${filterSql({ op: 'and', filters: q.filters }, 'pageviews')}
    `.execute(trx);
    for (const row of rolled) {
      const group = of(dimensionsOf(q, row, 'd'));
      group.pageviews += Number(row.pageviews);
      group.visits +=
        Number(row.visits) - (joinsDayBefore(String(row.day)) ? Number(row.continued_visits) : 0);
      if (row.people) group.people.merge(row.people as Uint8Array);
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
    return answer(groups, metrics, countsPeople);
  });
}

/** The runs of consecutive days from `from` to `to` (inclusive) that are not in `built`. */
function daysNotBuilt(from: string, to: string, built: Set<string>): [string, string][] {
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
