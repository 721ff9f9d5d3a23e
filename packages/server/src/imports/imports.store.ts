/**
 * SQL of imports: the stored file, the import rows and their lease (`locked_by`,
 * `locked_until`), and the staged rows. A worker's writes all check that it still holds the lease
 * of a running import, so a cancelled or taken-over import is never written by a late worker.
 */
import { type Insertable, type Kysely, sql, type Transaction } from 'kysely';
import type { DayCounts, ImportHitsTable, ImportSource, ImportStatus } from '../db/import-types.js';
import type { DB } from '../db/types.js';

export type ImportRow = Awaited<ReturnType<typeof findImport>> & {};

const COLUMNS = [
  'id',
  'site_id',
  'source',
  'status',
  'bytes_total',
  'bytes_read',
  'rows_read',
  'rows_refused',
  'date_from',
  'date_to',
  'native_from',
  'error_line',
  'error_message',
  'created_at',
  'finished_at',
] as const;

export function insertChunk(db: Kysely<DB>, importId: string, seq: number, bytes: Uint8Array, at: Date) {
  return db
    .insertInto('import_file_chunks')
    .values({ import_id: importId, seq, bytes, written_at: at })
    .execute();
}

export function deleteChunks(db: Kysely<DB>, importId: string) {
  return db.deleteFrom('import_file_chunks').where('import_id', '=', importId).execute();
}

/** Chunks `from` to `to` (inclusive), in order. */
export function readChunks(db: Kysely<DB>, importId: string, from: number, to: number) {
  return db
    .selectFrom('import_file_chunks')
    .select(['seq', 'bytes'])
    .where('import_id', '=', importId)
    .where('seq', '>=', from)
    .where('seq', '<=', to)
    .orderBy('seq')
    .execute();
}

/** Chunks of uploads that never became an import (the upload broke off), written before `before`. */
export async function deleteAbandonedChunks(db: Kysely<DB>, before: Date) {
  const result = await db
    .deleteFrom('import_file_chunks')
    .where('written_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('imports')
            .select(sql`1`.as('one'))
            .whereRef('imports.id', '=', 'import_file_chunks.import_id')
            .where('imports.status', 'in', ['pending', 'running']),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function findImport(db: Kysely<DB>, siteId: string, id: string) {
  return db
    .selectFrom('imports')
    .select(COLUMNS)
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function listImports(db: Kysely<DB>, siteId: string) {
  return db
    .selectFrom('imports')
    .select(COLUMNS)
    .where('site_id', '=', siteId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** The live import of the same file, if any: a retried upload answers it. */
export function findSameFile(db: Kysely<DB>, siteId: string, source: ImportSource, sha256: string) {
  return db
    .selectFrom('imports')
    .select(COLUMNS)
    .where('site_id', '=', siteId)
    .where('source', '=', source)
    .where('file_sha256', '=', sha256)
    .where('status', 'in', ['pending', 'running', 'completed'])
    .executeTakeFirst();
}

/**
 * The import row of a stored file; null when a live import of the same file exists (two uploads
 * at once: the unique index lets one in).
 */
export async function insertImport(
  db: Kysely<DB>,
  row: { id: string; siteId: string; source: ImportSource; sha256: string; bytes: number; at: Date },
) {
  const inserted = await db
    .insertInto('imports')
    .values({
      id: row.id,
      site_id: row.siteId,
      source: row.source,
      file_sha256: row.sha256,
      bytes_total: row.bytes,
      created_at: row.at,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['site_id', 'source', 'file_sha256'])
        .where('status', 'in', ['pending', 'running', 'completed'])
        .doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Takes the lease on the oldest open import nobody holds (or whose lease ran out). */
export function claimImport(db: Kysely<DB>, workerId: string, now: Date, leaseUntil: Date) {
  return db
    .updateTable('imports')
    .set({ status: 'running', locked_by: workerId, locked_until: leaseUntil, attempts: sql`attempts + 1` })
    .where('id', '=', (eb) =>
      eb
        .selectFrom('imports')
        .select('id')
        .where('status', 'in', ['pending', 'running'])
        .where((free) => free.or([free('locked_until', 'is', null), free('locked_until', '<=', now)]))
        .orderBy('created_at')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .where('status', 'in', ['pending', 'running'])
    .returning(['id', 'site_id', 'source', 'bytes_total', 'rows_read', 'attempts'])
    .executeTakeFirst();
}

export interface Lease {
  importId: string;
  workerId: string;
}

/**
 * The import row, locked, while `lease` holds it; undefined once it was cancelled or taken over.
 * Every write of a worker runs in a transaction that starts here.
 */
export function holdLease(trx: Transaction<DB>, lease: Lease) {
  return trx
    .selectFrom('imports')
    .select(['id', 'rows_read'])
    .where('id', '=', lease.importId)
    .where('locked_by', '=', lease.workerId)
    .where('status', '=', 'running')
    .forUpdate()
    .executeTakeFirst();
}

export interface StagedProgress {
  rowsRead: number;
  rowsRefused: number;
  bytesRead: number;
  leaseUntil: Date;
}

/** Records how far the file was read, with the batch staged in the same transaction. */
export function recordProgress(trx: Transaction<DB>, lease: Lease, progress: StagedProgress) {
  return trx
    .updateTable('imports')
    .set({
      rows_read: progress.rowsRead,
      rows_refused: sql`rows_refused + ${progress.rowsRefused}`,
      bytes_read: progress.bytesRead,
      locked_until: progress.leaseUntil,
    })
    .where('id', '=', lease.importId)
    .execute();
}

/** The columns of a staged hit, with their SQL types, in insert order. */
const HIT_COLUMNS = {
  import_id: 'uuid',
  seq: 'int8',
  visitor_key: 'text',
  session_key: 'text',
  at: 'timestamptz',
  is_pageview: 'bool',
  path: 'text',
  name: 'text',
  source_key: 'text',
  source_kind: 'text',
  session_ai_source: 'text',
  source_name: 'text',
  utm_source: 'text',
  utm_medium: 'text',
  utm_campaign: 'text',
  utm_content: 'text',
  utm_term: 'text',
  country: 'text',
  device: 'text',
  browser: 'text',
  os: 'text',
  engaged_seconds: 'int4',
} as const satisfies Record<keyof ImportHitsTable, string>;

/**
 * One array parameter per column instead of one parameter per value: a batch is one short
 * statement, several times faster to send and parse than a VALUES list (and under the
 * 65,535-parameter limit at any size).
 */
export async function stageHits(trx: Transaction<DB>, rows: Insertable<ImportHitsTable>[]) {
  if (rows.length === 0) return;
  const names = Object.keys(HIT_COLUMNS) as (keyof typeof HIT_COLUMNS)[];
  const arrays = names.map((name) => {
    const values = rows.map((row) => row[name]);
    return sql`${values}::${sql.raw(HIT_COLUMNS[name])}[]`;
  });
  await sql`insert into import_hits (${sql.join(names.map((name) => sql.ref(name)))})
    select * from unnest(${sql.join(arrays)})`.execute(trx);
}

const DAY_COLUMNS = {
  import_id: 'uuid',
  seq: 'int8',
  day: 'date',
  dimension: 'text',
  value: 'text',
  visitors: 'int8',
  visits: 'int8',
  pageviews: 'int8',
  bounces: 'int8',
  duration_seconds: 'int8',
  events: 'int8',
} as const;

export async function stageDayRows(
  trx: Transaction<DB>,
  rows: (DayCounts & { import_id: string; seq: number })[],
) {
  if (rows.length === 0) return;
  const names = Object.keys(DAY_COLUMNS) as (keyof typeof DAY_COLUMNS)[];
  const arrays = names.map((name) => sql`${rows.map((row) => row[name])}::${sql.raw(DAY_COLUMNS[name])}[]`);
  await sql`insert into import_day_rows (${sql.join(names.map((name) => sql.ref(name)))})
    select * from unnest(${sql.join(arrays)})`.execute(trx);
}

/** Everything staged for an import, and its stored file. */
export async function deleteStaged(db: Kysely<DB>, importId: string) {
  await db.deleteFrom('import_hits').where('import_id', '=', importId).execute();
  await db.deleteFrom('import_day_rows').where('import_id', '=', importId).execute();
  await deleteChunks(db, importId);
}

export function endImport(
  db: Kysely<DB>,
  importId: string,
  outcome: {
    status: Extract<ImportStatus, 'completed' | 'failed' | 'cancelled'>;
    at: Date;
    error?: { line: number | null; message: string };
    range?: { from: string | null; to: string | null; nativeFrom: string | null };
    /** The whole file was read. */
    bytesRead?: number;
  },
) {
  return db
    .updateTable('imports')
    .set({
      status: outcome.status,
      finished_at: outcome.at,
      locked_by: null,
      locked_until: null,
      ...(outcome.error ? { error_line: outcome.error.line, error_message: outcome.error.message } : {}),
      ...(outcome.bytesRead === undefined ? {} : { bytes_read: outcome.bytesRead }),
      ...(outcome.range
        ? { date_from: outcome.range.from, date_to: outcome.range.to, native_from: outcome.range.nativeFrom }
        : {}),
    })
    .where('id', '=', importId)
    .execute();
}

/** Gives a claimed import back for a later try (`retryAt`), keeping what it staged. */
export function releaseImport(db: Kysely<DB>, lease: Lease, retryAt: Date) {
  return db
    .updateTable('imports')
    .set({ locked_by: null, locked_until: retryAt })
    .where('id', '=', lease.importId)
    .where('locked_by', '=', lease.workerId)
    .execute();
}

/** Cancels an import not yet ended; false when it had ended. */
export async function cancelImport(db: Kysely<DB>, siteId: string, id: string, at: Date) {
  const result = await db
    .updateTable('imports')
    .set({ status: 'cancelled', finished_at: at, locked_by: null, locked_until: null })
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'running'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Removes an ended import with every row it wrote (its days, staging and file cascade or go here). */
export async function removeImport(db: Kysely<DB>, siteId: string, id: string) {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom('imports')
      .where('site_id', '=', siteId)
      .where('id', '=', id)
      .where('status', 'in', ['completed', 'failed', 'cancelled'])
      .executeTakeFirst();
    await deleteChunks(trx, id);
    return Number(result.numDeletedRows) > 0;
  });
}

export function findSiteDomain(db: Kysely<DB>, siteId: string) {
  return db.selectFrom('sites').select('domain').where('id', '=', siteId).executeTakeFirst();
}

/** The daily counts an import kept (a completion run again after a crash starts from none). */
export function deleteKeptDays(trx: Transaction<DB>, importId: string) {
  return trx.deleteFrom('imported_days').where('import_id', '=', importId).execute();
}
