/**
 * The import worker. An import is claimed under a lease; its file is read from the start by the
 * source's reader, and its records are staged in batches, each batch in one transaction with the
 * count of records staged, so a worker that takes over after a crash skips exactly what was
 * staged. The last transaction turns the staged rows into the import's daily counts and
 * completes it; until then reports see nothing of it. A file the reader cannot use fails the
 * import with the line and reason, and what was staged is deleted. Any number of workers is safe:
 * each write first checks the lease, so a cancelled or taken-over import is never written again.
 */
import type { Insertable, Kysely } from 'kysely';
import { describeError } from '../db/errors.js';
import type { DayCounts, ImportHitsTable, ImportSource } from '../db/import-types.js';
import type { DB } from '../db/types.js';
import { type Clock, DAY_MS, MINUTE_MS } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { storedFile } from './import-file.js';
import { firstNativeDay, keepDayRows, keepHits } from './import-finish.store.js';
import { type ImportedHit, ImportFileError, type SourceReader } from './import-records.js';
import { createSourceClassifier } from './imported-source.js';
import * as store from './imports.store.js';
import { readGa4 } from './readers/ga4.js';
import { readMatomo } from './readers/matomo.js';
import { readPlausible } from './readers/plausible.js';
import { readUmami } from './readers/umami.js';

export const IMPORT_LEASE_MS = 5 * MINUTE_MS;
/** Rows staged per transaction at most (a Matomo visit is one record of many hits). */
const BATCH_ROWS = 5000;
/** Staged rows of one record are numbered after it: at most this many (a Matomo visit's actions). */
const HITS_PER_RECORD = 10_000;
const RETRY_DELAY_MS = MINUTE_MS;
/** After this many tries that stopped on a server error, the import fails; uploading again starts over. */
const MAX_ATTEMPTS = 5;

/** The reader of each source. */
const READERS: Record<ImportSource, SourceReader> = {
  plausible: readPlausible,
  umami: readUmami,
  ga4: readGa4,
  matomo: readMatomo,
};

export interface ImportRunOptions {
  workerId?: string;
  /** Records staged per transaction. */
  batchRecords?: number;
  /** Stop after this many records of a run (a test's crash); the import stays claimed. */
  stopAfter?: number;
}

export interface ImportRunReport {
  completed: string[];
  failed: string[];
  stopped: string[];
  /** Imports given back after a server error, to be tried again (the error as logged). */
  retried: { id: string; error: string }[];
}

type Outcome = 'completed' | 'failed' | 'lost' | 'stopped';

export function createImportJobs({ db, clock }: { db: Kysely<DB>; clock: Clock }) {
  const leaseUntil = () => new Date(clock.now().getTime() + IMPORT_LEASE_MS);

  async function work(
    job: NonNullable<Awaited<ReturnType<typeof store.claimImport>>>,
    lease: store.Lease,
    options: Required<Omit<ImportRunOptions, 'workerId'>>,
  ): Promise<Outcome> {
    const reader = READERS[job.source];
    const site = await store.findSiteDomain(db, job.site_id);
    if (!site) return 'lost';
    const file = storedFile(db, job.id, job.bytes_total);
    const classify = createSourceClassifier(site.domain);
    let recordNo = 0;
    let refused = 0;
    let hits: Insertable<ImportHitsTable>[] = [];
    let days: (DayCounts & { import_id: string; seq: number })[] = [];

    /** Stages what was read since the last batch, in one transaction with the count read. */
    const stage = (batch: {
      hits: typeof hits;
      days: typeof days;
      refused: number;
      rowsRead: number;
      bytes: number;
    }) =>
      db.transaction().execute(async (trx) => {
        if (!(await store.holdLease(trx, lease))) return false;
        await store.stageHits(trx, batch.hits);
        await store.stageDayRows(trx, batch.days);
        await store.recordProgress(trx, lease, {
          rowsRead: batch.rowsRead,
          rowsRefused: batch.refused,
          bytesRead: batch.bytes,
          leaseUntil: leaseUntil(),
        });
        return true;
      });
    // One batch is written while the next is read: the database and the parsing share the cores.
    // Its outcome is kept as a value, so a failure waits (unhandled) for no one.
    let writing: Promise<{ staged: boolean } | { error: unknown }> | undefined;
    const written = async () => {
      const outcome = await writing;
      writing = undefined;
      if (outcome && 'error' in outcome) throw outcome.error;
      return !outcome || outcome.staged;
    };
    const flush = async () => {
      if (!(await written())) return false;
      const batch = { hits, days, refused, rowsRead: recordNo, bytes: Math.min(file.size, file.served()) };
      hits = [];
      days = [];
      refused = 0;
      writing = stage(batch).then(
        (staged) => ({ staged }),
        (error: unknown) => ({ error }),
      );
      return true;
    };

    try {
      for await (const record of reader(file, { siteDomain: site.domain })) {
        recordNo += 1;
        if (recordNo <= job.rows_read) continue;
        if (record.kind === 'refused') refused += 1;
        else if (record.kind === 'hit')
          hits.push(hitRow(job.id, recordNo * HITS_PER_RECORD, record.hit, classify));
        else if (record.kind === 'hits') {
          record.hits.forEach((hit, i) => {
            hits.push(hitRow(job.id, recordNo * HITS_PER_RECORD + i, hit, classify));
          });
        } else {
          record.rows.forEach((row, i) => {
            days.push({ ...row, import_id: job.id, seq: recordNo * HITS_PER_RECORD + i });
          });
        }
        if (recordNo - job.rows_read >= options.stopAfter) return (await written()) ? 'stopped' : 'lost';
        const due = recordNo % options.batchRecords === 0 || hits.length + days.length >= BATCH_ROWS;
        if (due && !(await flush())) return 'lost';
      }
      if (!(await flush()) || !(await written())) return 'lost';
    } finally {
      // A reader's error leaves the batch in flight to settle before the import is failed.
      await writing;
    }

    return db.transaction().execute(async (trx) => {
      if (!(await store.holdLease(trx, lease))) return 'lost';
      const nativeFrom = await firstNativeDay(trx, job.site_id);
      await store.deleteKeptDays(trx, job.id);
      const kept =
        job.source === 'plausible'
          ? await keepDayRows(trx, job.id, job.site_id, nativeFrom)
          : await keepHits(trx, job.id, job.site_id, nativeFrom);
      await store.deleteStaged(trx, job.id);
      await store.endImport(trx, job.id, {
        status: 'completed',
        at: clock.now(),
        range: { ...kept, nativeFrom },
        bytesRead: job.bytes_total,
      });
      return 'completed';
    });
  }

  async function fail(lease: store.Lease, error: { line: number | null; message: string }) {
    await db.transaction().execute(async (trx) => {
      if (!(await store.holdLease(trx, lease))) return;
      await store.deleteStaged(trx, lease.importId);
      await store.endImport(trx, lease.importId, { status: 'failed', at: clock.now(), error });
    });
  }

  /** One pass: claims open imports, oldest first, and works each to its end. */
  async function runImportsOnce(options: ImportRunOptions = {}): Promise<ImportRunReport> {
    const workerId = options.workerId ?? newId();
    const settings = {
      batchRecords: options.batchRecords ?? 5000,
      stopAfter: options.stopAfter ?? Number.POSITIVE_INFINITY,
    };
    const report: ImportRunReport = { completed: [], failed: [], stopped: [], retried: [] };
    await store.deleteAbandonedChunks(db, new Date(clock.now().getTime() - DAY_MS));
    for (;;) {
      const job = await store.claimImport(db, workerId, clock.now(), leaseUntil());
      if (!job) break;
      const lease = { importId: job.id, workerId };
      try {
        const outcome = await work(job, lease, settings);
        if (outcome === 'completed') report.completed.push(job.id);
        if (outcome === 'stopped') {
          report.stopped.push(job.id);
          break;
        }
      } catch (error) {
        if (error instanceof ImportFileError) {
          await fail(lease, { line: error.line, message: error.message });
          report.failed.push(job.id);
          continue;
        }
        report.retried.push({ id: job.id, error: describeError(error) });
        if (job.attempts >= MAX_ATTEMPTS) {
          await fail(lease, {
            line: null,
            message: `the import stopped on a server error ${job.attempts} times; upload the file again`,
          });
          report.failed.push(job.id);
        } else {
          await store.releaseImport(db, lease, new Date(clock.now().getTime() + RETRY_DELAY_MS));
        }
      }
    }
    return report;
  }

  const wakers = new Set<() => void>();
  return {
    runImportsOnce,
    /** Told by an upload that an import waits, so a worker of this process starts it at once. */
    queued: () => {
      for (const wake of wakers) wake();
    },
    onQueued: (wake: () => void) => {
      wakers.add(wake);
      return () => wakers.delete(wake);
    },
  };
}

export type ImportJobs = ReturnType<typeof createImportJobs>;

const NO_SOURCE = { source_key: '', source_kind: 'unknown', session_ai_source: 'direct', source_name: '' };

function hitRow(
  importId: string,
  seq: number,
  hit: ImportedHit,
  classify: ReturnType<typeof createSourceClassifier>,
): Insertable<ImportHitsTable> {
  const source = classify(hit.referrer, hit.utm) ?? NO_SOURCE;
  return {
    import_id: importId,
    seq,
    visitor_key: hit.visitorKey.slice(0, 200),
    session_key: hit.sessionKey.slice(0, 200),
    at: hit.at,
    is_pageview: hit.isPageview,
    path: hit.path.slice(0, 2000),
    name: hit.name,
    ...source,
    ...hit.utm,
    country: hit.country,
    device: hit.device,
    browser: hit.browser.slice(0, 100),
    os: hit.os.slice(0, 100),
    engaged_seconds: hit.engagedSeconds,
  };
}
