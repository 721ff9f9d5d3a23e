/**
 * The background side of webhooks, run by main.ts (or any worker process): fan-out plus
 * delivery in one pass, and the hourly retention purge. Deliveries are kept 30 days, whatever
 * their status; outbox facts are dropped once fanned out and as old.
 */
import { DAY_MS } from '../lib/clock.js';
import { purgeDeliveriesBefore, purgeDispatchedOutboxBefore } from './deliveries.store.js';
import { createDeliveryWorker, type DeliveryRunOptions, type WorkerDeps } from './delivery-worker.js';
import { createDispatcher } from './webhook-dispatch.js';

export const DELIVERY_RETENTION_MS = 30 * DAY_MS;
const PURGE_BATCH = 1000;
/** Delete statements per purge run, so one run never holds the worker for long. */
const PURGE_MAX_BATCHES = 500;

export function createWebhookJobs(deps: WorkerDeps) {
  const dispatcher = createDispatcher(deps);
  const worker = createDeliveryWorker(deps);

  return {
    /** One pass: new outbox facts become deliveries, then due deliveries are attempted. */
    async runDeliveriesOnce(options: DeliveryRunOptions = {}) {
      const dispatched = await dispatcher.dispatchAll();
      const delivered = await worker.deliverDue(options);
      return { dispatched, ...delivered };
    },

    dispatchOutbox: dispatcher.dispatchAll,
    deliverDue: worker.deliverDue,

    /** Deletes deliveries older than 30 days and fanned-out outbox facts as old. */
    async purgeExpired() {
      const cutoff = new Date(deps.clock.now().getTime() - DELIVERY_RETENTION_MS);
      const purged = { deliveries: 0, outbox: 0 };
      for (let batch = 0; batch < PURGE_MAX_BATCHES; batch++) {
        const deleted = await purgeDeliveriesBefore(deps.db, cutoff, PURGE_BATCH);
        purged.deliveries += deleted;
        if (deleted < PURGE_BATCH) break;
      }
      for (let batch = 0; batch < PURGE_MAX_BATCHES; batch++) {
        const deleted = await purgeDispatchedOutboxBefore(deps.db, cutoff, PURGE_BATCH);
        purged.outbox += deleted;
        if (deleted < PURGE_BATCH) break;
      }
      return purged;
    },
  };
}
