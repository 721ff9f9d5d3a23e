/**
 * The `fetch` the client sends every request through: one timeout per attempt (until the answer
 * starts), and for
 * idempotent calls further attempts after a network error or a retryable status, waiting for the
 * backoff or the server's Retry-After, whichever is longer. Network failures become
 * `TouchtrailNetworkError`, naming the URL but never the request's headers.
 */
import { TouchtrailNetworkError } from './errors.js';
import {
  backoffMs,
  isIdempotent,
  MAX_RETRY_AFTER_MS,
  RETRYABLE_STATUSES,
  retryAfterMs,
  wait,
} from './retry.js';

export interface RetrySettings {
  fetch: (request: Request) => Promise<Response>;
  maxRetries: number;
  timeoutMs: number;
}

export function retryingFetch(settings: RetrySettings): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const where = `${url.origin}${url.pathname}`;
    const retries = isIdempotent(request.method, url.pathname) ? settings.maxRetries : 0;
    for (let retry = 0; ; retry += 1) {
      // The timeout runs until the answer starts, not while its body is read: a long download
      // (an export) is not cut off, and a server that never answers still is.
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), settings.timeoutMs);
      const signal = AbortSignal.any([request.signal, timeout.signal]);
      let response: Response;
      try {
        response = await settings.fetch(new Request(request.clone(), { signal }));
      } catch (cause) {
        if (request.signal.aborted) throw cause;
        const reason = timeout.signal.aborted ? `no answer within ${settings.timeoutMs} ms` : describe(cause);
        if (retry >= retries) throw new TouchtrailNetworkError(where, reason, cause);
        await wait(backoffMs(retry), request.signal);
        continue;
      } finally {
        clearTimeout(timer);
      }
      if (retry >= retries || !RETRYABLE_STATUSES.has(response.status)) return response;
      const askedMs = retryAfterMs(response.headers.get('retry-after'));
      if (askedMs > MAX_RETRY_AFTER_MS) return response;
      await response.body?.cancel();
      await wait(Math.max(backoffMs(retry), askedMs), request.signal);
    }
  };
}

/** The innermost cause's message: undici says "fetch failed" and keeps the reason (ECONNREFUSED) below. */
function describe(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  const code = (current as { code?: unknown } | undefined)?.code;
  const message = current instanceof Error ? current.message : String(current);
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}
