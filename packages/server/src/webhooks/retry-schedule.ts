/**
 * When a failed delivery is tried again (DESIGN.md §4): after 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h and 10 h, each with ±10 % jitter so endpoints that failed together do not retry in
 * lockstep. The 8th failed attempt is final. A 429 or 503 with Retry-After moves the next
 * attempt no earlier than it asks, but never further than the longest step of the schedule.
 */
import { HOUR_MS, MINUTE_MS } from '../lib/clock.js';

export const RETRY_DELAYS_MS = [
  5_000,
  5 * MINUTE_MS,
  30 * MINUTE_MS,
  2 * HOUR_MS,
  5 * HOUR_MS,
  10 * HOUR_MS,
  10 * HOUR_MS,
] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const LONGEST_DELAY_MS = Math.max(...RETRY_DELAYS_MS);
const JITTER = 0.1;

/**
 * Delay before the attempt after `attemptCount` failed ones, or null when that was the last.
 * `random` returns [0, 1) (injectable so tests can pin it).
 */
export function retryDelayMs(
  attemptCount: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number | null {
  if (attemptCount >= MAX_ATTEMPTS) return null;
  const base = RETRY_DELAYS_MS[Math.max(0, attemptCount - 1)] ?? LONGEST_DELAY_MS;
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  const asked = retryAfterMs === null ? 0 : Math.min(retryAfterMs, LONGEST_DELAY_MS);
  return Math.max(jittered, asked);
}
