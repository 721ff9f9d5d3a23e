/**
 * The figures of one app that `GET /metrics` answers, in their own registry: HTTP requests,
 * ingest items and batches, background job runs, and the queue depths read at each scrape.
 * Counters of a closed list of labels (outcomes, drop reasons, queues) start at zero, so a
 * scraper sees every series from the first scrape.
 */
import type { Kysely } from 'kysely';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { DB } from '../db/types.js';
import type { IngestObserver } from '../ingest/pipeline.js';
import { DROP_REASONS, ITEM_OUTCOMES } from '../ingest/pipeline.js';
import type { JobRun } from '../jobs/periodic.js';
import type { Clock } from '../lib/clock.js';
import { processMetrics } from './process-metrics.js';
import { QUEUES, readQueueDepths } from './queue-depths.query.js';

/** Seconds, from a millisecond up: a batch is a few milliseconds, a slow one a second. */
const BATCH_SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Items per batch, up to the group committer's most (500). */
const BATCH_ITEMS = [1, 2, 5, 10, 25, 50, 100, 250, 500];
/** Seconds, from a tick that finds nothing to do to an erasure or a year of rollups. */
const JOB_SECONDS = [0.005, 0.025, 0.1, 0.5, 1, 5, 15, 60, 300, 900];

export interface RequestSample {
  method: string;
  /** The route's pattern (`/v1/sites/:siteId`), never the address asked for. */
  route: string;
  status: number;
  seconds: number;
}

export function createAppMetrics(deps: {
  db: Kysely<DB>;
  clock: Clock;
  /** Items waiting for their batch in this process. */
  ingestWaiting: () => number;
  /** Seconds each ClickHouse stream is behind, when ClickHouse is on. */
  shipLagSeconds?: () => Promise<Record<string, number>>;
  onQueueReadFailed: (error: unknown) => void;
}) {
  const registry = new Registry();
  const registers = [registry];

  const requests = new Counter({
    name: 'touchtrail_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const requestSeconds = new Histogram({
    name: 'touchtrail_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const items = new Counter({
    name: 'touchtrail_ingest_items_total',
    help: 'Tracker payloads and server events by outcome: recorded, duplicate, dropped, failed (answered 503)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const drops = new Counter({
    name: 'touchtrail_ingest_dropped_total',
    help: 'Ingest items not stored, by reason',
    labelNames: ['reason'] as const,
    registers,
  });
  const batchSeconds = new Histogram({
    name: 'touchtrail_ingest_batch_duration_seconds',
    help: 'Time to write one ingest batch (one database call, again for items of sites whose settings changed)',
    buckets: BATCH_SECONDS,
    registers,
  });
  const batchItems = new Histogram({
    name: 'touchtrail_ingest_batch_items',
    help: 'Items in one ingest batch',
    buckets: BATCH_ITEMS,
    registers,
  });
  new Gauge({
    name: 'touchtrail_ingest_items_waiting',
    help: 'Ingest items of this process waiting for their batch to commit',
    registers,
    collect() {
      this.set(deps.ingestWaiting());
    },
  });
  const jobRuns = new Counter({
    name: 'touchtrail_job_runs_total',
    help: 'Runs of the background jobs in this process, by job and result (ok, failed)',
    labelNames: ['job', 'result'] as const,
    registers,
  });
  const jobSeconds = new Histogram({
    name: 'touchtrail_job_duration_seconds',
    help: 'Time of one run of a background job',
    labelNames: ['job'] as const,
    buckets: JOB_SECONDS,
    registers,
  });
  new Gauge({
    name: 'touchtrail_queue_depth',
    help: 'Rows waiting in the work queues of the database (shared by every process)',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      try {
        const depths = await readQueueDepths(deps.db, deps.clock.now());
        for (const queue of QUEUES) this.set({ queue }, depths[queue]);
      } catch (error) {
        // A scrape while the database is down still answers the process's own figures.
        this.reset();
        deps.onQueueReadFailed(error);
      }
    },
  });

  const { shipLagSeconds } = deps;
  if (shipLagSeconds)
    new Gauge({
      name: 'touchtrail_clickhouse_ship_lag_seconds',
      help: 'Seconds since the oldest traffic row not yet copied to ClickHouse was written, by stream (0: caught up)',
      labelNames: ['stream'] as const,
      registers,
      async collect() {
        try {
          for (const [stream, seconds] of Object.entries(await shipLagSeconds()))
            this.set({ stream }, seconds);
        } catch (error) {
          this.reset();
          deps.onQueueReadFailed(error);
        }
      },
    });

  for (const outcome of ITEM_OUTCOMES) items.inc({ outcome }, 0);
  for (const reason of DROP_REASONS) drops.inc({ reason }, 0);

  const ingest: IngestObserver = {
    item: (outcome) => items.inc({ outcome }),
    dropped(reason) {
      items.inc({ outcome: 'dropped' });
      drops.inc({ reason });
    },
    batch(written) {
      batchSeconds.observe(written.seconds);
      batchItems.observe(written.items);
    },
  };

  // One child per series: prom-client hashes the labels of every call otherwise, and the
  // collect endpoint is the hottest path there is.
  const requestSeries = new Map<
    string,
    { count: ReturnType<typeof requests.labels>; time: ReturnType<typeof requestSeconds.labels> }
  >();

  return {
    ingest,

    request({ method, route, status, seconds }: RequestSample) {
      const key = `${method} ${status} ${route}`;
      let series = requestSeries.get(key);
      if (!series) {
        const labels = { method, route, status: String(status) };
        series = { count: requests.labels(labels), time: requestSeconds.labels(labels) };
        requestSeries.set(key, series);
      }
      series.count.inc();
      series.time.observe(seconds);
    },

    jobRun(run: JobRun) {
      jobRuns.inc({ job: run.job, result: run.failed ? 'failed' : 'ok' });
      jobSeconds.observe({ job: run.job }, run.seconds);
    },

    /** The Prometheus text of this app's figures and the process's. */
    async render(): Promise<{ contentType: string; text: string }> {
      const merged = Registry.merge([processMetrics(), registry]);
      return { contentType: merged.contentType, text: await merged.metrics() };
    },
  };
}

export type AppMetrics = ReturnType<typeof createAppMetrics>;
