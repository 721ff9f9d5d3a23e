/** When to try again: which failures are worth it, and how long to wait before the next attempt. */
import { setTimeout as delay } from 'node:timers/promises';
import type { TouchtrailError } from './errors.js';

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8000;
/** The longest Retry-After the SDK waits for; a longer one ends the call with the error. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Network errors, timeouts, 429 and 5xx. A 429 `quota_exceeded` is the exception: it means
 * ingestion is suspended for a site scheduled for deletion, which no retry will change.
 */
export function isRetryable(error: TouchtrailError): boolean {
  if (error.status === undefined) return error.code === 'network_error' || error.code === 'timeout';
  if (error.status === 429) return error.code !== 'quota_exceeded';
  return error.status >= 500;
}

/** 0.5 s, 1 s, 2 s … up to 8 s, each shortened by up to half at random so clients spread out. */
export function backoffMs(retry: number): number {
  const ceiling = Math.min(FIRST_BACKOFF_MS * 2 ** retry, MAX_BACKOFF_MS);
  return ceiling * (0.5 + Math.random() / 2);
}

/** Waits, unless `signal` aborts first (then rejects with an AbortError). */
export async function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  await delay(ms, undefined, signal ? { signal } : undefined);
}
