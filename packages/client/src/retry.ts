/** When a call is tried again, and how long it waits first. */
import { setTimeout as delay } from 'node:timers/promises';

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 8000;
/** The longest Retry-After worth waiting for; a longer one ends the call with the error. */
export const MAX_RETRY_AFTER_MS = 60_000;

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; 0 when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number {
  const text = value?.trim();
  if (!text) return 0;
  const ms = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  return Number.isFinite(ms) ? Math.max(ms, 0) : 0;
}

/** 0.5 s, 1 s, 2 s … up to 8 s, each shortened by up to half at random so clients spread out. */
export function backoffMs(retry: number): number {
  const ceiling = Math.min(FIRST_BACKOFF_MS * 2 ** retry, MAX_BACKOFF_MS);
  return ceiling * (0.5 + Math.random() / 2);
}

/** Waits, unless `signal` aborts first (then rejects with an AbortError). */
export async function wait(ms: number, signal?: AbortSignal): Promise<void> {
  await delay(ms, undefined, signal ? { signal } : undefined);
}

/** Answers worth another attempt: too many requests, and a gateway or server that is briefly away. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * Calls that can be sent twice without doing twice: reads and deletes, and the payments
 * endpoint, which records a transaction id once however often it is posted.
 */
export function isIdempotent(method: string, pathname: string): boolean {
  if (['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'].includes(method)) return true;
  return method === 'POST' && pathname.endsWith('/v1/server/payments');
}
