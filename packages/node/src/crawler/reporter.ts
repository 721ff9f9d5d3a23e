/**
 * Queues crawler hits in memory and sends them to Touchtrail in batches: every few seconds or
 * as soon as 500 are waiting. Memory is bounded (hits beyond the cap are dropped and counted),
 * a 429 or 5xx is retried with backoff, and `close()` sends what is left. Recording never
 * throws and never waits for the network, so the response to the crawler is not delayed.
 */
export interface CrawlerOptions {
  /** The site's `ttid_` snippet key (the bot token's `snippet_key`). */
  snippetKey: string;
  /** The bot token, `tt_bot_…`. */
  token: string;
  /** Touchtrail's base address, e.g. `https://stats.example.com`. */
  endpoint: string;
  flushIntervalMs?: number;
  maxBatch?: number;
  /** Hits held at most; more are dropped (and counted) while Touchtrail is unreachable. */
  maxQueue?: number;
  /** Called with delivery problems; defaults to nothing (the app's logs stay quiet). */
  onError?: (error: Error) => void;
  fetch?: typeof fetch;
}

export interface CrawlerHit {
  user_agent: string;
  path: string;
  status?: number;
  timestamp: string;
  ip?: string;
}

export interface CrawlerReporter {
  record(hit: Omit<CrawlerHit, 'timestamp'> & { timestamp?: string }): void;
  flush(): Promise<void>;
  close(): Promise<void>;
  readonly stats: { sent: number; dropped: number; failed: number; queued: number };
}

const MAX_BACKOFF_MS = 60_000;

export function createCrawlerReporter(options: CrawlerOptions): CrawlerReporter {
  const flushIntervalMs = options.flushIntervalMs ?? 5000;
  const maxBatch = Math.min(options.maxBatch ?? 500, 1000);
  const maxQueue = options.maxQueue ?? 10_000;
  const send = options.fetch ?? fetch;
  const url = new URL('/v1/crawler/hits', options.endpoint).href;
  const queue: CrawlerHit[] = [];
  const stats = { sent: 0, dropped: 0, failed: 0, queued: 0 };
  let backoffMs = 0;
  let retryAt = 0;
  let inFlight: Promise<void> | null = null;
  let closed = false;

  const timer = setInterval(() => void flush(), flushIntervalMs);
  timer.unref();
  const onBeforeExit = () => void flush();
  process.once('beforeExit', onBeforeExit);

  async function sendBatch(batch: CrawlerHit[]): Promise<boolean> {
    try {
      const response = await send(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ hits: batch }),
        signal: AbortSignal.timeout(10_000),
      });
      if (response.ok) return true;
      if (response.status === 429 || response.status >= 500)
        throw new Error(`Touchtrail answered ${response.status}`);
      // A refused token or a bad batch will not get better by retrying: drop it and say so.
      stats.failed += batch.length;
      options.onError?.(new Error(`Touchtrail refused ${batch.length} crawler hits with ${response.status}`));
      return true;
    } catch (error) {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
  }

  /** Sends what is queued; `force` (flush, close) ignores the backoff and tries a batch up to 3 times. */
  async function drain(force: boolean): Promise<void> {
    let attempts = 0;
    while (queue.length > 0) {
      if (!force && Date.now() < retryAt) return;
      const batch = queue.splice(0, maxBatch);
      if (await sendBatch(batch)) {
        stats.sent += batch.length;
        backoffMs = 0;
        attempts = 0;
        continue;
      }
      queue.unshift(...batch);
      backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs ? backoffMs * 2 : 1000);
      retryAt = Date.now() + backoffMs;
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
      if (closed) return;
      if (queue.length >= maxQueue) {
        stats.dropped += 1;
        return;
      }
      queue.push({
        ...hit,
        path: hit.path.slice(0, 4096),
        user_agent: hit.user_agent.slice(0, 1000),
        timestamp: hit.timestamp ?? new Date().toISOString(),
      });
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
