/** Which failures of the SDK's calls are worth another attempt; the backoff and Retry-After rules are the client's. */
import type { TouchtrailError } from './errors.js';

/**
 * Network errors, timeouts, 429 and 5xx. A 429 `quota_exceeded` is the exception: it means
 * ingestion is suspended for a site scheduled for deletion, which no retry will change.
 */
export function isRetryable(error: TouchtrailError): boolean {
  if (error.status === undefined) return error.code === 'network_error' || error.code === 'timeout';
  if (error.status === 429) return error.code !== 'quota_exceeded';
  return error.status >= 500;
}
