/**
 * Conversion counts and goal values read from the goal rollups (migrations/032_goal_rollups.sql)
 * where they can answer: UTC days, buckets of a day or longer, by goal or not at all, and
 * filtered by goal only. The built days of the range come from the rollups, the others from the
 * raw conversion events, one person per row (conversion-grain.sql.ts), in one snapshot; sums add up
 * and people merge as sketches. The converters of the conversion rate (people who converted
 * during a visit) are not rolled up. Anything else answers null, and the caller reads the events.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.js';
import { type ConversionCount, conversionsPerPersonSql, goalValues } from '../conversion-grain.sql.js';
import { filterSql } from '../filter.sql.js';
import { filteredDimensions, type GrainQuery } from '../grain.sql.js';
import { type Grouped, type GroupedRow, readGroups, withReadMemory } from '../grouped.query.js';
import { isTimeDimension } from '../stats-vocabulary.js';
import { dayBucketSql } from '../visit-columns.sql.js';
import { PeopleSketch, personHash } from './people-sketch.js';
import { daysNotBuilt } from './rollup-reader.query.js';

const GOAL = 'event:goal';

export interface ConversionGroups {
  rows: GroupedRow[];
  /** Some people were counted with a sketch's registers: `visitors` is an estimate. */
  peopleEstimated: boolean;
}

const isGoalQuery = (q: GrainQuery) =>
  q.timezone === 'UTC' &&
  q.dimensions.every((name) => name === GOAL || (isTimeDimension(name) && name !== 'time:hour')) &&
  [...filteredDimensions(q)].every((name) => name === GOAL);

/** Reads in one snapshot with the built goal days of the range; null when none is built. */
function withBuiltGoalDays<R>(
  db: Kysely<DB>,
  q: GrainQuery,
  read: (trx: Kysely<DB>, built: Set<string>) => Promise<R>,
): Promise<R | null> {
  return withReadMemory(
    db,
    async (trx) => {
      const days = await trx
        .selectFrom('stats_goal_rollup_days')
        .select(sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'))
        .where('site_id', '=', q.siteId)
        .where(sql<boolean>`day between ${q.from}::date and ${q.to}::date and built_at is not null`)
        .execute();
      return days.length === 0 ? null : read(trx, new Set(days.map((row) => row.day)));
    },
    { snapshot: true },
  );
}

const TABLES = {
  stats_goal_rollups: sql`r.events, r.conversions, r.people`,
  stats_goal_value_rollups: sql`r.currency, r.value_minor`,
};

/**
 * The rollup rows of `table` on the built days, as `e`, with the goal as `e.name` (null for '')
 * where the filters read a conversion event's, filtered by the query's filters.
 */
function builtRows(q: GrainQuery, table: keyof typeof TABLES, built: Set<string>) {
  return sql`from (
      select r.day, nullif(r.name, '') as name, ${TABLES[table]} from ${sql.table(table)} r
      where r.site_id = ${q.siteId} and r.day = any(${[...built]}::date[])
    ) e
    where ${filterSql({ op: 'and', filters: q.filters }, 'conversions', {})}`;
}

/** The query's dimensions over a rollup row `e`. */
const rolledDimensions = (q: GrainQuery) =>
  q.dimensions.map((name) => (isTimeDimension(name) ? dayBucketSql(name, sql`e.day`) : sql`e.name`));

interface Group {
  dimensions: (string | null)[];
  events: number;
  conversions: number;
  people: PeopleSketch;
}

const FIGURES: Record<Exclude<ConversionCount, 'converters'>, (group: Group) => number> = {
  events: (group) => group.events,
  conversions: (group) => group.conversions,
  visitors: (group) => group.people.count(),
};

export async function readConversionGroupsFromRollups(
  db: Kysely<DB>,
  q: GrainQuery,
  counts: ConversionCount[],
): Promise<ConversionGroups | null> {
  if (!isGoalQuery(q) || counts.includes('converters')) return null;
  const countsPeople = counts.includes('visitors');
  return withBuiltGoalDays(db, q, async (trx, built) => {
    const groups = new Map<string, Group>();
    const groupOf = (dimensions: (string | null)[]) => {
      const key = JSON.stringify(dimensions);
      let group = groups.get(key);
      if (!group) {
        group = { dimensions, events: 0, conversions: 0, people: new PeopleSketch() };
        groups.set(key, group);
      }
      return group;
    };
    const { rows: rolled } = await sql<Record<string, unknown>>`
      select ${sql.join([
        ...rolledDimensions(q).map((expression, i) => sql`${expression} as ${sql.ref(`d${i}`)}`),
        sql`e.events, e.conversions`,
        countsPeople ? sql`e.people` : sql`null as people`,
      ])}
      ${builtRows(q, 'stats_goal_rollups', built)}
    `.execute(trx);
    for (const row of rolled) {
      const group = groupOf(q.dimensions.map((_, i) => (row[`d${i}`] ?? null) as string | null));
      group.events += Number(row.events);
      group.conversions += Number(row.conversions);
      if (row.people) group.people.merge(row.people as Uint8Array);
    }
    for (const [from, to] of daysNotBuilt(q.from, q.to, built)) {
      const { rows: raw } = await sql<
        Record<string, unknown>
      >`${conversionsPerPersonSql({ ...q, from, to })}`.execute(trx);
      for (const row of raw) {
        const group = groupOf(q.dimensions.map((_, i) => (row[`g${i}`] ?? null) as string | null));
        group.events += Number(row.events);
        group.conversions += Number(row.conversions);
        if (countsPeople) group.people.add(personHash(String(row.person)));
      }
    }
    const all = [...groups.values()];
    return {
      rows: all.map((group) => ({
        dimensions: group.dimensions,
        metrics: counts.map((name) => FIGURES[name as Exclude<ConversionCount, 'converters'>](group)),
        extras: [],
      })),
      peopleEstimated: countsPeople && all.some((group) => group.people.approximate),
    };
  });
}

/** goalValues' rows (per group, currency and UTC day), from the rollups where built. */
export async function readGoalValuesFromRollups(db: Kysely<DB>, q: GrainQuery): Promise<GroupedRow[] | null> {
  if (!isGoalQuery(q)) return null;
  return withBuiltGoalDays(db, q, async (trx, built) => {
    const rolled: Grouped = {
      rows: builtRows(q, 'stats_goal_value_rollups', built),
      dimensions: rolledDimensions(q),
      extras: [sql`nullif(e.currency, '')`, sql`to_char(e.day, 'YYYY-MM-DD')`],
      metrics: [sql`sum(e.value_minor)::float8`],
    };
    const rows = await readGroups(trx, rolled);
    for (const [from, to] of daysNotBuilt(q.from, q.to, built)) {
      rows.push(...(await readGroups(trx, goalValues({ ...q, from, to }))));
    }
    return rows;
  });
}
