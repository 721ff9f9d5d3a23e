/**
 * The delivery worker: claims due deliveries under a lease, sends each signed attempt and
 * records pending → retrying → succeeded | failed. Up to `concurrency` attempts are in flight;
 * the pool is refilled as attempts finish, so one slow receiver holds one slot for at most the
 * delivery deadline. Any number of workers (in one process or many) can run at once.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { type Clock, DAY_MS } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { createAttemptRecorder } from './attempt-recorder.js';
import * as store from './deliveries.store.js';
import { MAX_ATTEMPTS, retryDelayMs } from './retry-schedule.js';
import { signedHeaders } from './webhook-envelope.js';
import { openSecret, type SecretBox } from './webhook-secrets.js';
import type { AttemptResult, Transport } from './webhook-transport.js';
import { noteAttemptOutcome } from './webhooks.store.js';

/** Longer than any attempt can take (10 s deadline), so only a dead worker's lease runs out. */
export const DELIVERY_LEASE_MS = 60_000;
/** An endpoint whose attempts have failed without a success for this long is disabled. */
export const FAILING_DISABLE_AFTER_MS = 5 * DAY_MS;

export interface WorkerDeps {
  db: Kysely<DB>;
  clock: Clock;
  /** Wall-clock time for `webhook-timestamp`, which receivers compare with their own clocks. */
  wallClock: Clock;
  transport: Transport;
  secrets: SecretBox;
  random: () => number;
}

export interface DeliveryRunOptions {
  workerId?: string;
  /** Attempts in flight at once. */
  concurrency?: number;
  /** Attempts this run may start; the rest waits for the next run. */
  maxAttempts?: number;
  /** Stops claiming when aborted (shutdown); attempts in flight finish and are recorded. */
  signal?: AbortSignal;
}

export interface DeliveryRunReport {
  attempted: number;
  succeeded: number;
  retrying: number;
  failed: number;
  /** Attempts whose lease was taken over before they could be recorded. */
  lost: number;
  errors: string[];
}

export function createDeliveryWorker(deps: WorkerDeps) {
  const { db, clock, transport, secrets } = deps;

  function outcomeOf(result: AttemptResult, attemptCount: number, now: Date): store.AttemptRecord {
    const base = { responseStatus: result.status, lastError: result.error };
    if (result.ok) return { ...base, status: 'succeeded', nextAttemptAt: null };
    const delay = retryDelayMs(attemptCount, result.retryAfterMs, deps.random);
    if (delay === null) return { ...base, status: 'failed', nextAttemptAt: null };
    return { ...base, status: 'retrying', nextAttemptAt: new Date(now.getTime() + delay) };
  }

  type Tally = 'succeeded' | 'retrying' | 'failed' | 'lost';

  async function attempt(
    claimed: store.ClaimedDelivery,
    recorder: ReturnType<typeof createAttemptRecorder>,
  ): Promise<Tally> {
    let result: AttemptResult;
    try {
      const secret = openSecret(secrets, claimed.secret_sealed, claimed.webhook_id);
      const headers = signedHeaders(secret, claimed.envelope_id, claimed.payload, deps.wallClock.now());
      result = await transport.post(claimed.url, headers, claimed.payload);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result = { ok: false, status: null, latencyMs: 0, snippet: '', error: message, retryAfterMs: null };
    }
    const now = clock.now();
    const outcome = outcomeOf(result, claimed.attempt_count, now);
    if (!(await recorder.record({ site_id: claimed.site_id, id: claimed.id, outcome }))) return 'lost';
    await noteAttemptOutcome(db, claimed.webhook_id, {
      ok: result.ok,
      failingSince: claimed.failing_since,
      now,
      failingCutoff: new Date(now.getTime() - FAILING_DISABLE_AFTER_MS),
    });
    return outcome.status as Tally;
  }

  /** One run: attempts due deliveries until none is due, the budget is spent or `signal` aborts. */
  async function deliverDue(options: DeliveryRunOptions = {}): Promise<DeliveryRunReport> {
    const { workerId = newId(), concurrency = 32, maxAttempts = 2000, signal } = options;
    const report: DeliveryRunReport = {
      attempted: 0,
      succeeded: 0,
      retrying: 0,
      failed: 0,
      lost: 0,
      errors: [],
    };
    report.failed += await store.failAbandonedFinalAttempts(db, clock.now(), MAX_ATTEMPTS);
    const recorder = createAttemptRecorder(db, workerId);
    const inFlight = new Set<Promise<void>>();
    const refillAt = Math.max(1, Math.floor(concurrency / 4));
    let hasMore = true;
    const launch = (claimed: store.ClaimedDelivery) => {
      const running = attempt(claimed, recorder)
        .then((status) => {
          report[status] += 1;
        })
        .catch((error: unknown) => {
          if (report.errors.length < 10)
            report.errors.push(error instanceof Error ? error.message : String(error));
        })
        .finally(() => inFlight.delete(running));
      inFlight.add(running);
    };
    for (;;) {
      const free = Math.min(concurrency - inFlight.size, maxAttempts - report.attempted);
      const canClaim = hasMore && !signal?.aborted && free > 0;
      if (canClaim && (free >= refillAt || inFlight.size === 0)) {
        const now = clock.now();
        const claimed = await store.claimDue(db, {
          workerId,
          now,
          leaseUntil: new Date(now.getTime() + DELIVERY_LEASE_MS),
          limit: free,
          maxAttempts: MAX_ATTEMPTS,
        });
        if (claimed.length < free) hasMore = false;
        report.attempted += claimed.length;
        for (const delivery of claimed) launch(delivery);
      }
      if (inFlight.size === 0) break;
      await Promise.race(inFlight);
    }
    return report;
  }

  return { deliverDue };
}
