/** The reasons, period and windows of refused-hit counts (site-refusals.ts). */
import { HOUR_MS } from '../lib/clock.js';

export type RefusalReason = 'bot';

/** The period one row counts. */
export const PERIOD_MS = 5 * 60 * 1000;
/** How far back the site views count refusals. */
export const REFUSALS_WINDOW_MS = HOUR_MS;
/** Counts older than this are deleted: only the last hour is read, the rest is kept for looking into. */
export const REFUSALS_KEPT_DAYS = 7;
