/**
 * Visit metrics read from the rollups (migrations/024_stats_rollups.sql) where they can answer:
 * UTC days, buckets of a day or longer, and at most one visit dimension, which the filters may
 * use too (the rollups hold one dimension per row, so they cannot filter one dimension while
 * breaking down by another). The days of the range that are built come from the rollups, the
 * others from the raw visits grouped per person (visit-grain.ts), all in one snapshot, and the
 * two are merged here: sums add up, people merge as sketches (people-sketch.ts). Anything else
 * answers null, and the caller reads the raw visits.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { DAY_MS } from '../../lib/clock.js';
import { filterSql } from '../filter-sql.js';
import { filteredDimensions, type GrainQuery } from '../grain.js';
import { type GroupedRow, withReadMemory } from '../grouped-query.js';
import { isTimeDimension, isVisitDimension, type VisitMetric } from '../stats-vocabulary.js';
import { dayBucketSql } from '../visit-columns.js';
import { visitsPerPersonSql } from '../visit-grain.js';
import { PeopleSketch, personHash } from './people-sketch.js';
import { TOTAL } from './rollup-day.js';

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

const METRICS: Record<VisitMetric, (g: Group) => number> = {
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

export async function readVisitGroupsFromRollups(
  db: Kysely<DB>,
  q: GrainQuery,
  metrics: VisitMetric[],
): Promise<VisitGroups | null> {
  const dimension = rollupDimension(q);
  if (dimension === null) return null;
  const countsPeople = metrics.includes('visitors');
  return withReadMemory(
    db,
    async (trx) => {
      const built = await trx
        .selectFrom('stats_rollup_days')
        .select(sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'))
        .where('site_id', '=', q.siteId)
        .where(sql<boolean>`day between ${q.from}::date and ${q.to}::date`)
        .execute();
      if (built.length === 0) return null;
      const groups = new Map<string, Group>();
      const groupOf = (dimensions: (string | null)[]) => {
        const key = JSON.stringify(dimensions);
        let group = groups.get(key);
        if (!group) {
          group = { dimensions, visits: 0, pageviews: 0, bounces: 0, engaged: 0, people: new PeopleSketch() };
          groups.set(key, group);
        }
        return group;
      };

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
        from stats_visit_rollups r
        where r.site_id = ${q.siteId} and r.dimension = ${dimension}
          and r.day between ${q.from}::date and ${q.to}::date
          and ${filterSql({ op: 'and', filters: q.filters }, 'visits', dimension === TOTAL ? {} : { [dimension]: value })}
      `.execute(trx);
      for (const row of rolled) {
        const group = groupOf(q.dimensions.map((_, i) => (row[`d${i}`] ?? null) as string | null));
        group.visits += Number(row.visits);
        group.pageviews += Number(row.pageviews);
        group.bounces += Number(row.bounces);
        group.engaged += Number(row.engaged);
        if (row.people) group.people.merge(row.people as Uint8Array);
      }

      for (const [from, to] of daysNotBuilt(q.from, q.to, new Set(built.map((row) => row.day)))) {
        const withBounces = metrics.includes('bounce_rate');
        const { rows: raw } = await sql<Record<string, unknown>>`
          ${visitsPerPersonSql({ ...q, from, to }, withBounces)}
        `.execute(trx);
        for (const row of raw) {
          const group = groupOf(q.dimensions.map((_, i) => (row[`g${i}`] ?? null) as string | null));
          group.visits += Number(row.n);
          group.pageviews += Number(row.pv);
          group.bounces += Number(row.b);
          group.engaged += Number(row.eng);
          if (countsPeople) group.people.add(personHash(String(row.person)));
        }
      }

      // An aggregate is one row even when nothing happened.
      if (q.dimensions.length === 0 && groups.size === 0) groupOf([]);
      const rows = [...groups.values()].map((group) => ({
        dimensions: group.dimensions,
        metrics: metrics.map((name) => METRICS[name](group)),
        extras: [],
      }));
      return {
        rows,
        peopleEstimated:
          countsPeople && rows.length > 0 && [...groups.values()].some((g) => g.people.approximate),
      };
    },
    { snapshot: true },
  );
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
