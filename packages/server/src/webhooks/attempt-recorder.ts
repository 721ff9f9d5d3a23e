/**
 * Writes the outcomes of one worker run's attempts in batches: attempts that finish while a
 * write is in progress are recorded together by the next one, so the database sees one
 * statement per batch instead of one per delivery (PGlite runs one statement at a time).
 * An outcome is only acknowledged once written; until then the lease keeps the delivery.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { type AttemptRecord, recordAttempts } from './deliveries.store.js';

/** 6 parameters a row: far below PostgreSQL's 65,535 per statement. */
const MAX_BATCH = 500;

interface Queued {
  record: { site_id: string; id: string; outcome: AttemptRecord };
  resolve(kept: boolean): void;
  reject(error: unknown): void;
}

export function createAttemptRecorder(db: Kysely<DB>, workerId: string) {
  const queue: Queued[] = [];
  let draining = false;

  async function drain() {
    draining = true;
    try {
      while (queue.length > 0) {
        // Let attempts finishing in this turn of the event loop join the batch.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const batch = queue.splice(0, MAX_BATCH);
        try {
          const written = await recordAttempts(
            db,
            workerId,
            batch.map((item) => item.record),
          );
          for (const item of batch) item.resolve(written.has(item.record.id));
        } catch (error) {
          for (const item of batch) item.reject(error);
        }
      }
    } finally {
      draining = false;
    }
  }

  return {
    /** Resolves to false when the lease was lost to another worker before the write. */
    record(record: Queued['record']): Promise<boolean> {
      return new Promise((resolve, reject) => {
        queue.push({ record, resolve, reject });
        if (!draining) void drain();
      });
    },
  };
}
