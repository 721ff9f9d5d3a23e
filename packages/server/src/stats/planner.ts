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
}

export async function answerStatsQuery(
  db: Kysely<DB>,
  query: VisitStatsQuery,
  options: { withTotalRows: boolean },
): Promise<StatsAnswer> {
  const [rows, totalRows] = await Promise.all([
    visitStats(db, query),
    options.withTotalRows ? countVisitStatsRows(db, query) : undefined,
  ]);
  return totalRows === undefined ? { rows } : { rows, totalRows };
}
