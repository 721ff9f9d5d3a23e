/**
 * How any report reads ClickHouse: the site's rows not yet copied are read from PostgreSQL first
 * (traffic-tail.query.ts), then one read runs over copied and uncopied rows together
 * (ch-tables.sql.ts `siteRows`). The answer is null, and the report reads PostgreSQL instead,
 * when ClickHouse is not configured, when the site has too many rows not yet copied, when the
 * read says it cannot answer (null), or when ClickHouse fails (told to `onFailure`) — but only
 * over a range PostgreSQL still holds whole: copied traffic leaves it after
 * TRAFFIC_PG_RETENTION_DAYS (retention/copied-traffic-purge.ts), and an earlier range is then
 * refused with 503 `unavailable` rather than answered short.
 */
import type { Kysely } from 'kysely';
import type { ClickHouse } from '../../clickhouse/connection.js';
import { READ_SETTINGS } from '../../clickhouse/connection.js';
import { clickHouseTime } from '../../clickhouse/schema.query.js';
import { pgHoldsFrom } from '../../clickhouse/ship-batches.query.js';
import type { DB } from '../../db/types.js';
import { AppError } from '../../http/errors.js';
import { type ChFragment, chRaw, chSql, compileCh, typed } from './ch-sql.js';
import type { ChScope } from './ch-tables.sql.js';
import { readTrafficTail } from './traffic-tail.query.js';

/** ClickHouse for reports, with what to do when it fails (PostgreSQL answers then). */
export interface ClickHouseReads {
  ch: ClickHouse;
  onFailure(error: unknown): void;
}

/** The databases a report may read. */
export interface Readers {
  db: Kysely<DB>;
  clickhouse?: ClickHouseReads;
}

export type ChRow = Record<string, string | number | boolean | null | string[]>;

/**
 * The answer of `read` from ClickHouse, or null for PostgreSQL to answer. `from`: the earliest
 * moment the report reads (null: any, as a visit looked up by id).
 */
export async function readClickHouse<T>(
  readers: Readers,
  siteId: string,
  from: Date | null,
  read: (ch: ClickHouse, scope: ChScope) => Promise<T | null>,
): Promise<T | null> {
  const answer = await tryClickHouse(readers, siteId, read);
  if (answer === null) await requireWholeInPostgres(readers.db, from);
  return answer;
}

async function tryClickHouse<T>(
  readers: Readers,
  siteId: string,
  read: (ch: ClickHouse, scope: ChScope) => Promise<T | null>,
): Promise<T | null> {
  const reads = readers.clickhouse;
  if (!reads) return null;
  const tail = await readTrafficTail(readers.db, siteId);
  if (!tail) return null;
  try {
    return await read(reads.ch, { database: reads.ch.database, siteId, tail });
  } catch (error) {
    reads.onFailure(error);
    return null;
  }
}

/** Refuses a PostgreSQL answer over a range from before what PostgreSQL still holds whole. */
export async function requireWholeInPostgres(db: Kysely<DB>, from: Date | null): Promise<void> {
  const holdsFrom = await pgHoldsFrom(db);
  if (holdsFrom && (from === null || from < holdsFrom)) {
    throw new AppError(
      503,
      'unavailable',
      `ClickHouse could not answer, and PostgreSQL holds traffic only from ${holdsFrom.toISOString()}; retry`,
    );
  }
}

/** The rows of one ClickHouse statement, with the read settings every report uses. */
export async function chRows(ch: ClickHouse, fragment: ChFragment): Promise<ChRow[]> {
  const { query, params } = compileCh(chSql`${fragment} ${chRaw(READ_SETTINGS)}`);
  const result = await ch.client.query({ query, query_params: params, format: 'JSONEachRow' });
  return result.json();
}

/** A moment as a bound `DateTime64(3, 'UTC')`, the type of every time column in ClickHouse. */
export const chTime = (at: Date) => typed(clickHouseTime(at), "DateTime64(3, 'UTC')");

/** A time as ClickHouse writes it (`YYYY-MM-DD HH:MM:SS.mmm`, UTC) as a Date. */
export const chMoment = (text: unknown) => new Date(`${String(text).replace(' ', 'T')}Z`);
