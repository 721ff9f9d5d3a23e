/**
 * The one home of refused-hit counts (ingest_refusals): per site, five-minute period and
 * reason, one upsert per refusal at ingest, read back as the sum over the last hour, and
 * deleted by the retention job once older than a week. The SQL is in site-refusals.store.ts.
 */
// Other features count and prune through here: a feature never imports another's store.
export {
  PERIOD_MS,
  REFUSALS_KEPT_DAYS,
  REFUSALS_WINDOW_MS,
  type RefusalReason,
} from './refusal-limits.js';
export { countRefusal, deleteOldRefusals, recentRefusals } from './site-refusals.store.js';
