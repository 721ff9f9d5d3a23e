/**
 * Queues crawler hits in memory and sends them to Touchtrail in batches: every few seconds or
 * as soon as 500 are waiting, each batch also kept under 512 KiB so the server's 1 MiB body
 * limit never refuses it. Memory is bounded (hits beyond the cap, the batch in flight included,
 * are dropped and counted), a request gives up after its timeout, a 429 or 5xx is retried with
 * backoff (never sooner than its Retry-After asks, up to 5 minutes), and `close()` sends what is left. Recording never throws and never waits for the
 * network, so the response to the crawler is not delayed; a failing `onError` is ignored.
 */

import { retryAfterMs } from '@touchtrail/client';
import { readEndpoint } from '../client/options.js';
import { normaliseAddress } from './address.js';
import { checkCrawlerOptions } from './options.js';
import { redactPath } from './redact.js';

export interface CrawlerOptions {
  /** The site's `ttid_` snippet key (the bot token's `snippet_key`). */
  snippetKey: string;
  /** The bot token, `tt_bot_…`. */
  token: string;
  /** Touchtrail's base address, e.g. `https://stats.example.com`. */
  endpoint: string;
  flushIntervalMs?: number;
  /** Hits per request, 1 to 1,000 (default 500). */
  maxBatch?: number;
  /** How long one request to Touchtrail may take before it is abandoned (default 10,000). */
  timeoutMs?: number;
  /** Hits held at most; more are dropped (and counted) while Touchtrail is unreachable. */
  maxQueue?: number;
  /** Called with delivery problems; defaults to nothing (the app's logs stay quiet). */
  onError?: (error: Error) => void;
  fetch?: typeof fetch;
  /**
   * Send the request's address with each hit so Touchtrail can tell a real crawler from one that
   * only borrows its name (checked against the ranges its operator publishes; never stored).
   * `false` sends none.
   */
  sendIp?: boolean;
}

export interface CrawlerHit {
  user_agent: string;
  path: string;
  status?: number;
  timestamp: string;
  /**
   * The client's address, used by Touchtrail only to check the crawler is genuine, never stored.
   * Dropped when `sendIp` is `false` or when it is not an IPv4 or IPv6 address.
   */
  ip?: string;
}

export interface CrawlerReporter {
  record(hit: Omit<CrawlerHit, 'timestamp'> & { timestamp?: string }): void;
  flush(): Promise<void>;
  close(): Promise<void>;
  readonly stats: { sent: number; dropped: number; failed: number; queued: number };
}

const MAX_BACKOFF_MS = 60_000;
/** The longest Retry-After honoured, so a wrong header cannot stop reporting for long. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** Half the server's 1 MiB body limit, so a batch is never refused for its size. */
const MAX_BATCH_BYTES = 512 * 1024;

type Outcome = 'sent' | 'refused' | 'retry';
const encoder = new TextEncoder();

/** Throws a `TouchtrailError` (`invalid_options`) for a missing or malformed token, site key or endpoint. */
export function createCrawlerReporter(options: CrawlerOptions): CrawlerReporter {
  checkCrawlerOptions(options);
  const flushIntervalMs = options.flushIntervalMs ?? 5000;
  const maxBatch = Math.max(1, Math.min(Math.floor(options.maxBatch ?? 500), 1000));
  const maxQueue = Math.max(0, options.maxQueue ?? 10_000);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const send = options.fetch ?? fetch;
  const isSendingIp = options.sendIp !== false;
  const url = `${readEndpoint(options.endpoint)}/v1/crawler/hits`;
  const queue: CrawlerHit[] = [];
  /** Hits taken off the queue for the request in flight; they still count against `maxQueue`. */
  let sending = 0;
  const stats = { sent: 0, dropped: 0, failed: 0, queued: 0 };
  let backoffMs = 0;
  /** What the last 429 or 5xx asked for in Retry-After, in milliseconds. */
  let askedWaitMs = 0;
  let retryAt = 0;
  let inFlight: Promise<void> | null = null;
  let closed = false;

  const timer = setInterval(() => void flush(), flushIntervalMs);
  timer.unref();
  const onBeforeExit = () => void flush();
  process.once('beforeExit', onBeforeExit);

  /** Tells the host about a delivery problem; an `onError` that throws is not our caller's problem. */
  function report(error: unknown) {
    try {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // Ignored: a failing error handler must not reach the host's request or event loop.
    }
  }

  async function sendBatch(batch: CrawlerHit[]): Promise<Outcome> {
    try {
      const response = await send(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ site_id: options.snippetKey, hits: batch }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (response.ok) return 'sent';
      if (response.status === 429 || response.status >= 500) {
        askedWaitMs = Math.min(retryAfterMs(response.headers.get('retry-after')), MAX_RETRY_AFTER_MS);
        report(new Error(`Touchtrail answered ${response.status}`));
        return 'retry';
      }
      // A refused token or a bad batch will not get better by retrying: drop it and say so.
      report(new Error(`Touchtrail refused ${batch.length} crawler hits with ${response.status}`));
      return 'refused';
    } catch (error) {
      report(error);
      return 'retry';
    }
  }

  /** Takes the next batch off the queue: at most `maxBatch` hits and `MAX_BATCH_BYTES` of JSON. */
  function nextBatch(): CrawlerHit[] {
    let count = 0;
    let bytes = 0;
    while (count < Math.min(maxBatch, queue.length)) {
      bytes += encoder.encode(JSON.stringify(queue[count])).length + 1;
      if (count > 0 && bytes > MAX_BATCH_BYTES) break;
      count += 1;
    }
    return queue.splice(0, count);
  }

  /** Sends what is queued; `force` (flush, close) ignores the backoff and tries a batch up to 3 times. */
  async function drain(force: boolean): Promise<void> {
    let attempts = 0;
    while (queue.length > 0) {
      if (!force && Date.now() < retryAt) return;
      const batch = nextBatch();
      sending = batch.length;
      const outcome = await sendBatch(batch).finally(() => {
        sending = 0;
      });
      if (outcome !== 'retry') {
        if (outcome === 'sent') stats.sent += batch.length;
        else stats.failed += batch.length;
        backoffMs = 0;
        attempts = 0;
        continue;
      }
      queue.unshift(...batch);
      backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs ? backoffMs * 2 : 1000);
      retryAt = Date.now() + Math.max(backoffMs, askedWaitMs);
      askedWaitMs = 0;
      attempts += 1;
      if (!force || attempts >= 3) return;
    }
  }

  function flush(force = false): Promise<void> {
    inFlight ??= drain(force).finally(() => {
      inFlight = null;
      stats.queued = queue.length;
    });
    return inFlight;
  }

  return {
    stats,
    record(hit) {
      if (closed || queue.length + sending >= maxQueue) {
        stats.dropped += 1;
        return;
      }
      try {
        const { ip: given, ...rest } = hit;
        const ip = isSendingIp ? normaliseAddress(given) : undefined;
        queue.push({
          ...rest,
          path: redactPath(String(hit.path)).slice(0, 4096),
          user_agent: String(hit.user_agent).slice(0, 1000),
          timestamp: hit.timestamp ?? new Date().toISOString(),
          ...(ip && { ip }),
        });
      } catch (error) {
        report(error);
        return;
      }
      stats.queued = queue.length;
      if (queue.length >= maxBatch) void flush();
    },
    flush: () => flush(true),
    async close() {
      closed = true;
      clearInterval(timer);
      process.off('beforeExit', onBeforeExit);
      await inFlight;
      await flush(true);
    },
  };
}
