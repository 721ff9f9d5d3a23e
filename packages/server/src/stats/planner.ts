/**
 * The one place that decides how a stats query is answered. Every query reads the raw visits
 * (and events) tables for now; rollups, sketches or a columnar engine plug in here, behind the
 * same rows, without the service or the routes changing.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import {
  countVisitStatsRows,
  type VisitStatsQuery,
  type VisitStatsRow,
  visitStats,
} from './visit-stats.query.js';

export interface StatsAnswer {
  rows: VisitStatsRow[];
  totalRows?: number;
  /** With a comparison range: every group of that range, unordered and unpaged, for matching. */
  earlierRows?: VisitStatsRow[];
}

export async function answerStatsQuery(
  db: Kysely<DB>,
  query: VisitStatsQuery,
  options: { withTotalRows: boolean; comparison?: { from: string; to: string } },
): Promise<StatsAnswer> {
  const { comparison } = options;
  const [rows, totalRows, earlierRows] = await Promise.all([
    visitStats(db, query),
    options.withTotalRows ? countVisitStatsRows(db, query) : undefined,
    comparison ? visitStats(db, { ...query, ...comparison, limit: null, offset: 0 }) : undefined,
  ]);
  return {
    rows,
    ...(totalRows === undefined ? {} : { totalRows }),
    ...(earlierRows === undefined ? {} : { earlierRows }),
  };
}
