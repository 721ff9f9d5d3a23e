/**
 * The privacy request worker. An access request is completed at once (its export is read when
 * downloaded); an erasure goes through ERASURE_STEPS in bounded batches, recording its step after
 * each, so a crash resumes where it stopped and several processes never do the same batch.
 * Rows ingested for the person while the steps ran send the request back to their step before
 * it completes.
 */
import type { Kysely } from 'kysely';
import { describeError } from '../db/errors.js';
import type { DB } from '../db/types.js';
import { type Clock, DAY_MS, MINUTE_MS } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { ERASURE_STEPS } from './erasure-steps.store.js';
import type { RequestRef } from './person-rows.sql.js';
import * as store from './privacy.store.js';
import { deleteScope, hasPersonRows, scopeValues } from './scope.store.js';

export const PRIVACY_LEASE_MS = 5 * MINUTE_MS;
export const PRIVACY_RETRY_DELAY_MS = MINUTE_MS;
/** An access export can be downloaded this long after the request completed. */
export const EXPORT_DAYS = 7;
/** After this many failed tries a request is `failed`; the admin can ask again. */
const MAX_ATTEMPTS = 10;

export interface PrivacyRunOptions {
  /** Rows per statement. */
  batchSize?: number;
  /** Statements per run, across all requests; the rest waits for the next run. */
  maxBatches?: number;
  workerId?: string;
}

export interface PrivacyRunReport {
  completed: string[];
  unfinished: string[];
  failed: { id: string; error: string }[];
}

/** Tables whose rows the person must no longer have once the erasure completes. */
const LEFTOVER_CHECKS = ['events', 'visits', 'identity_links', 'visitors', 'payments'] as const;

async function hasLeftovers(db: Kysely<DB>, ref: RequestRef): Promise<boolean> {
  for (const table of LEFTOVER_CHECKS) {
    if (await hasPersonRows(db, ref, table)) return true;
  }
  return false;
}

type Outcome = 'completed' | 'paused' | 'lost';

/** ClickHouse's copy of the traffic, when it is on: an erasure completes once it has applied it. */
export interface ErasureInClickHouse {
  settleDeletions(siteId: string): Promise<boolean>;
  /** Deletes every copy naming the person there, found by id (answers false: try later). */
  erasePerson(siteId: string, ids: { visitors: string[]; personKeys: string[] }): Promise<boolean>;
}

export function createPrivacyJobs({
  db,
  clock,
  clickhouse,
}: {
  db: Kysely<DB>;
  clock: Clock;
  clickhouse?: ErasureInClickHouse;
}) {
  const leaseUntil = () => new Date(clock.now().getTime() + PRIVACY_LEASE_MS);

  async function complete(id: string, workerId: string, type: 'access' | 'erasure') {
    const at = clock.now();
    await db.transaction().execute(async (trx) => {
      // An erasure forgets whom it erased, and ends the exports of earlier access requests about
      // the same person; an access request keeps its scope while its export lasts.
      if (type === 'erasure') {
        await store.endExportsAbout(trx, id, at);
        await deleteScope(trx, id);
      }
      await store.completeRequest(trx, id, workerId, {
        at,
        exportExpiresAt: type === 'access' ? new Date(at.getTime() + EXPORT_DAYS * DAY_MS) : null,
      });
    });
  }

  async function erase(
    ref: RequestRef,
    step: string | null,
    workerId: string,
    budget: { batches: number },
    batchSize: number,
  ): Promise<Outcome> {
    let index = Math.max(
      0,
      ERASURE_STEPS.findIndex((candidate) => candidate.name === step),
    );
    for (;;) {
      while (index < ERASURE_STEPS.length) {
        if (budget.batches <= 0) return 'paused';
        budget.batches -= 1;
        const current = ERASURE_STEPS[index] as (typeof ERASURE_STEPS)[number];
        const changed = await current.run(db, ref, batchSize, clock.now());
        if (changed === 0) index += 1;
        const next = ERASURE_STEPS[index]?.name ?? 'done';
        if (!(await store.renewLease(db, ref.requestId, workerId, leaseUntil(), { step: next })))
          return 'lost';
      }
      if (!(await hasLeftovers(db, ref))) {
        // ClickHouse must have deleted the person too; if it fails, the request retries later.
        if (clickhouse && !(await eraseInClickHouse(clickhouse, ref))) return 'paused';
        return 'completed';
      }
      // Written for the person after its step's turn (a late ingest batch): go round again.
      index = ERASURE_STEPS.findIndex((candidate) => candidate.name === 'outbox_events');
    }
  }

  /**
   * The queued deletions of what PostgreSQL deleted, then every copy still naming the person by
   * id: copied pageviews that already left PostgreSQL are in ClickHouse only.
   */
  async function eraseInClickHouse(ch: ErasureInClickHouse, ref: RequestRef): Promise<boolean> {
    if (!(await ch.settleDeletions(ref.siteId))) return false;
    const visitors = await scopeValues(db, ref.requestId, 'visitor');
    const personKeys = await scopeValues(db, ref.requestId, 'person_key');
    return ch.erasePerson(ref.siteId, { visitors, personKeys });
  }

  /** One pass: works open requests, oldest first, within the batch budget. */
  async function runPrivacyOnce(options: PrivacyRunOptions = {}): Promise<PrivacyRunReport> {
    const { batchSize = 1000, maxBatches = 200, workerId = newId() } = options;
    const report: PrivacyRunReport = { completed: [], unfinished: [], failed: [] };
    await store.dropExpiredScopes(db, clock.now());
    const budget = { batches: maxBatches };
    while (budget.batches > 0) {
      const job = await store.claimRequest(db, workerId, clock.now(), leaseUntil());
      if (!job) break;
      const ref = { requestId: job.id, siteId: job.site_id };
      try {
        const outcome: Outcome =
          job.type === 'access' ? 'completed' : await erase(ref, job.step, workerId, budget, batchSize);
        if (outcome === 'completed') {
          await complete(job.id, workerId, job.type);
          report.completed.push(job.id);
        } else {
          report.unfinished.push(job.id);
          if (outcome === 'paused')
            await store.releaseRequest(db, job.id, workerId, { retryAt: null, error: null });
        }
      } catch (error) {
        const message = describeError(error);
        report.failed.push({ id: job.id, error: message });
        const now = clock.now();
        await store.releaseRequest(db, job.id, workerId, {
          retryAt: new Date(now.getTime() + PRIVACY_RETRY_DELAY_MS),
          error: message.slice(0, 1000),
          ...(job.attempts >= MAX_ATTEMPTS ? { failed: now } : {}),
        });
      }
    }
    return report;
  }

  return { runPrivacyOnce };
}
