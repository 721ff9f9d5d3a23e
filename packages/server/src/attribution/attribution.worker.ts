/**
 * The attribution worker. Ingest (and the payments endpoint) queue one `attribution_jobs` row
 * per conversion in the transaction that records it; this worker claims due rows one at a time,
 * each in its own transaction holding the row lock (`FOR UPDATE SKIP LOCKED`), so any number of
 * workers in any number of processes never work on one job at once, and a crash leaves the job
 * pending with nothing of its work committed. A failed attempt is rolled back to a savepoint and
 * counted in the same transaction, then retried with exponential backoff; after
 * MAX_ATTEMPTS it stays `failed` with its last error.
 */
import type { Kysely } from 'kysely';
import { describeError } from '../db/errors.js';
import { withSavepoint } from '../db/savepoints.js';
import type { DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import { HOUR_MS } from '../lib/clock.js';
import { type AttributionHooks, attributeConversion } from './attribute-conversion.js';
import * as store from './attribution.store.js';

export const MAX_ATTEMPTS = 10;
export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_MS = HOUR_MS;
export const DEFAULT_BATCH_SIZE = 200;
const MAX_ERROR_CHARS = 1000;

/** Wait after the n-th failed attempt: 30 s, 1 min, 2 min, … capped at one hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);
}

export interface ProcessedJob {
  siteId: string;
  eventId: string;
  outcome: 'done' | 'retrying' | 'failed';
  error?: string;
}

export function createAttributionWorker({
  db,
  clock,
  hooks = {},
}: {
  db: Kysely<DB>;
  clock: Clock;
  hooks?: AttributionHooks;
}) {
  /** Claims and works one due job in its own transaction; null when none is due. */
  function runOneJob(): Promise<ProcessedJob | null> {
    return db.transaction().execute(async (trx) => {
      const now = clock.now();
      const job = await store.claimDueJob(trx, now);
      if (!job) return null;
      const processed = { siteId: job.site_id, eventId: job.event_id };
      return withSavepoint(
        trx,
        'attribution_job',
        async (): Promise<ProcessedJob> => {
          await attributeConversion(trx, job, now, hooks);
          await store.finishJob(trx, job, now);
          return { ...processed, outcome: 'done' };
        },
        async (error): Promise<ProcessedJob> => {
          const message = describeError(error).slice(0, MAX_ERROR_CHARS);
          const attempts = job.attempts + 1;
          const isFinal = attempts >= MAX_ATTEMPTS;
          const runAfter = new Date(now.getTime() + retryDelayMs(attempts));
          await store.recordFailure(trx, job, { attempts, isFinal, runAfter, error: message, now });
          return { ...processed, outcome: isFinal ? 'failed' : 'retrying', error: message };
        },
      );
    });
  }

  /** Works up to `limit` due jobs, oldest first; returns what happened to each. */
  async function runAttributionBatch({ limit = DEFAULT_BATCH_SIZE }: { limit?: number } = {}) {
    const processed: ProcessedJob[] = [];
    while (processed.length < limit) {
      const job = await runOneJob();
      if (!job) break;
      processed.push(job);
    }
    return processed;
  }

  /**
   * Runs batches until no job is due (jobs waiting for a retry later are left alone). For tests
   * and tools: production runs one batch per tick (main.ts).
   */
  async function runUntilIdle({ limit = DEFAULT_BATCH_SIZE }: { limit?: number } = {}) {
    const processed: ProcessedJob[] = [];
    for (;;) {
      const batch = await runAttributionBatch({ limit });
      processed.push(...batch);
      if (batch.length < limit) return processed;
    }
  }

  return { runAttributionBatch, runUntilIdle };
}

export type AttributionWorker = ReturnType<typeof createAttributionWorker>;
