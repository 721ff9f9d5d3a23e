/**
 * Where each grain of a stats query is read from, decided in this one place. A grain is one kind
 * of row a metric is counted over; each has its sources in order of preference, and the first
 * that can answer the query does:
 *
 * | grain        | rollups (rollups/)                              | ClickHouse (clickhouse/) | raw            |
 * |--------------|-------------------------------------------------|--------------------------|----------------|
 * | visits       | UTC, days or longer, at most one visit dimension (filters too) | all                      | visit-grain |
 * | pageviews    | UTC, days or longer, by page, filtered by page only | all                      | pageview-grain |
 * | conversions  | UTC, days or longer, by goal, no `converters` count | —                  | conversion-grain |
 * | goal values  | as conversions                                  | — (money)                | conversion-grain |
 * | revenue      | —                                               | — (money)                | revenue-grain  |
 *
 * The rollups come first: a day's pre-counted groups are read faster from PostgreSQL than raw
 * rows from ClickHouse (bench/RESULTS.md, "ClickHouse"). ClickHouse takes the raw reads: it runs
 * only with CLICKHOUSE_URL, and answers null (PostgreSQL's raw rows then answer) for a piece it
 * does not hold, when a site has too many rows not yet copied, or when ClickHouse fails. A rollup source answers null when the query's shape is not one it holds, or
 * no day of the range is built yet; the raw source always answers.
 */
import type { Kysely } from 'kysely';
import type { ClickHouse } from '../clickhouse/connection.js';
import type { DB } from '../db/types.js';
import { chPageviewGroups, chVisitGroups } from './clickhouse/ch-grains.query.js';
import { type Readers, readClickHouse } from './clickhouse/ch-read.js';
import type { ChScope } from './clickhouse/ch-tables.sql.js';
import {
  type ConversionCount,
  type ConversionQuery,
  conversionCounts,
  goalValues,
} from './conversion-grain.sql.js';
import { type Instants, rangeInstants } from './grain.sql.js';
import { countGroups, type Grouped, type GroupedPage, type GroupedRow, readGroups } from './grouped.query.js';
import { type PageviewMetric, pageviewGrain } from './pageview-grain.sql.js';
import { revenueAmounts } from './revenue-grain.sql.js';
import {
  readConversionGroupsFromRollups,
  readGoalValuesFromRollups,
} from './rollups/goal-rollup-reader.query.js';
import { readPageGroupsFromRollups, readVisitGroupsFromRollups } from './rollups/rollup-reader.query.js';
import type { VisitMetric } from './stats-vocabulary.js';
import { visitGrain } from './visit-grain.sql.js';

export type { ClickHouseReads, Readers } from './clickhouse/ch-read.js';

/** Readers with a note of which engines answered one query's grains. */
export interface GrainReaders extends Readers {
  answeredBy: Set<'postgres' | 'clickhouse'>;
}

/** How a grain's groups are asked for: whole, or ordered and paged where the source can. */
export interface GrainRead {
  /** Ordering and paging, for a source that can do them itself (raw SQL). */
  page?: GroupedPage;
  /** Count every group too (`groupCount`). */
  withGroupCount?: boolean;
  /** A breakdown ordered by visitors, first `top` rows wanted: a rollup reads only their sketches. */
  top?: number;
}

export interface GrainAnswer {
  rows: GroupedRow[];
  /** Every group's count, when asked and known. */
  groupCount?: number;
  /** Whether `rows` are already ordered and paged as `GrainRead.page` asked. */
  paged: boolean;
  /** Some people were counted with a sketch's registers: `visitors` is an estimate. */
  peopleEstimated: boolean;
}

type Source<M> = (
  readers: GrainReaders,
  q: ConversionQuery,
  metrics: M[],
  read: GrainRead,
) => Promise<GrainAnswer | null>;

/** The raw source of a grain: its SQL, paged and counted by the database when asked. */
const raw =
  <M>(grouped: (q: ConversionQuery, metrics: M[]) => Grouped): Source<M> =>
  async ({ db }, q, metrics, read) => {
    const g = grouped(q, metrics);
    const [rows, groupCount] = await Promise.all([
      readGroups(db, g, read.page),
      read.withGroupCount ? countGroups(db, g) : undefined,
    ]);
    return { rows, groupCount, paged: read.page !== undefined, peopleEstimated: false };
  };

/** A rollup source, from a reader that answers null when it cannot. */
const rollups =
  <M>(
    reader: (
      db: Kysely<DB>,
      q: ConversionQuery,
      metrics: M[],
      read: GrainRead,
    ) => Promise<
      { rows: GroupedRow[]; groupCount?: number; peopleEstimated?: boolean } | GroupedRow[] | null
    >,
  ): Source<M> =>
  async ({ db }, q, metrics, read) => {
    const found = await reader(db, q, metrics, read);
    if (found === null) return null;
    if (Array.isArray(found)) return { rows: found, paged: false, peopleEstimated: false };
    return {
      rows: found.rows,
      groupCount: found.groupCount,
      paged: false,
      peopleEstimated: found.peopleEstimated ?? false,
    };
  };

/** A ClickHouse source: the groups of copied and not-yet-copied traffic together (clickhouse/). */
const clickhouse =
  <M>(
    groups: (
      ch: ClickHouse,
      scope: ChScope,
      q: ConversionQuery,
      range: Instants,
      metrics: M[],
    ) => Promise<GroupedRow[] | null>,
  ): Source<M> =>
  async (readers, q, metrics) => {
    const range = await rangeInstants(readers.db, q);
    const rows = await readClickHouse(readers, q.siteId, range.start, (ch, scope) =>
      groups(ch, scope, q, range, metrics),
    );
    if (!rows) return null;
    readers.answeredBy.add('clickhouse');
    return { rows, groupCount: rows.length, paged: false, peopleEstimated: false };
  };

/** Each grain and what its metrics are named (goal values and revenue take no list). */
interface Grains {
  visits: VisitMetric;
  pageviews: PageviewMetric;
  conversions: ConversionCount;
  goalValues: never;
  revenue: never;
}

export type Grain = keyof Grains;

const revenueOf = (q: ConversionQuery) => {
  if (!q.model) throw new Error('revenue by source needs an attribution model');
  return revenueAmounts(q, q.model);
};

/** Each grain's sources, in order of preference; the last always answers. */
const SOURCES: { [G in Grain]: Source<Grains[G]>[] } = {
  visits: [
    rollups((db, q, metrics, { top }) => readVisitGroupsFromRollups(db, q, metrics, { top })),
    clickhouse(chVisitGroups),
    raw(visitGrain),
  ],
  pageviews: [
    rollups((db, q, metrics, { top }) => readPageGroupsFromRollups(db, q, metrics, { top })),
    clickhouse(chPageviewGroups),
    raw(pageviewGrain),
  ],
  conversions: [
    rollups((db, q, counts) => readConversionGroupsFromRollups(db, q, counts)),
    raw(conversionCounts),
  ],
  goalValues: [rollups((db, q) => readGoalValuesFromRollups(db, q)), raw((q) => goalValues(q))],
  revenue: [raw(revenueOf)],
};

/** A grain's groups for a query, from the first of its sources that can answer. */
export async function readGrain<G extends Grain>(
  readers: GrainReaders,
  grain: G,
  q: ConversionQuery,
  metrics: Grains[G][],
  read: GrainRead = {},
): Promise<GrainAnswer> {
  for (const source of SOURCES[grain]) {
    const answer = await source(readers, q, metrics, read);
    if (answer) return answer;
  }
  throw new Error(`no source answered the ${grain} grain`);
}
