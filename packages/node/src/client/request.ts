/**
 * Posts one JSON body to Touchtrail with retries: each attempt has its own timeout, failures
 * worth retrying wait for the backoff or the server's Retry-After (whichever is longer), and the
 * caller's signal ends the call at once. The API key lives only in this closure's headers.
 */

import { backoffMs, MAX_RETRY_AFTER_MS, retryAfterMs, wait } from '@touchtrail/client';
import { errorFromResponse, TouchtrailError, withoutKey } from './errors.js';
import { isRetryable } from './retry.js';
import type { RequestOptions } from './types.js';
import { SDK_VERSION } from './version.js';

export interface RequestSettings {
  apiKey: string;
  /** The endpoint without a trailing slash. */
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  fetch: typeof fetch;
}

export type PostJson = <T>(path: string, body: unknown, options?: RequestOptions) => Promise<T>;

type Attempt<T> = { ok: true; body: T } | { ok: false; error: TouchtrailError; retryAfterMs: number };

export function createPostJson(settings: RequestSettings): PostJson {
  const headers = {
    authorization: `Bearer ${settings.apiKey}`,
    'content-type': 'application/json',
    'user-agent': `touchtrail-node/${SDK_VERSION}`,
  };

  async function attempt<T>(path: string, payload: string, signal?: AbortSignal): Promise<Attempt<T>> {
    const label = `POST ${path}`;
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await settings.fetch(`${settings.baseUrl}${path}`, {
        method: 'POST',
        headers,
        body: payload,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await response.text();
    } catch (cause) {
      if (signal?.aborted) throw aborted(label, signal.reason);
      const error = timeout.aborted
        ? new TouchtrailError(`${label} timed out after ${settings.timeoutMs} ms`, { code: 'timeout', cause })
        : new TouchtrailError(`${label} failed: ${String(cause)}`, { code: 'network_error', cause });
      return { ok: false, error, retryAfterMs: 0 };
    }
    const body = parseJson(text);
    const requestId = response.headers.get('x-request-id') ?? undefined;
    if (response.ok && body !== undefined) return { ok: true, body: body as T };
    if (response.ok) {
      const message = `${label} answered ${response.status} with a body that is not JSON`;
      throw new TouchtrailError(message, { status: response.status, code: 'invalid_response', requestId });
    }
    return {
      ok: false,
      error: errorFromResponse(label, response.status, body, requestId),
      retryAfterMs: retryAfterMs(response.headers.get('retry-after')),
    };
  }

  async function post<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    const { signal } = options;
    const payload = JSON.stringify(body);
    for (let retry = 0; ; retry += 1) {
      if (signal?.aborted) throw aborted(`POST ${path}`, signal.reason);
      const outcome = await attempt<T>(path, payload, signal);
      if (outcome.ok) return outcome.body;
      const { error } = outcome;
      if (!isRetryable(error) || retry >= settings.maxRetries || outcome.retryAfterMs > MAX_RETRY_AFTER_MS) {
        throw error;
      }
      try {
        await wait(Math.max(backoffMs(retry), outcome.retryAfterMs), signal);
      } catch {
        throw aborted(`POST ${path}`, signal?.reason);
      }
    }
  }

  return async (path, body, options) => {
    try {
      return await post(path, body, options);
    } catch (error) {
      throw error instanceof TouchtrailError ? withoutKey(error, settings.apiKey) : error;
    }
  };
}

function aborted(label: string, reason: unknown) {
  return new TouchtrailError(`${label} was aborted`, { code: 'aborted', cause: reason });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
