/**
 * The background jobs a process runs in the `all` and `worker` roles (http/roles.ts). Each is
 * safe to run in several processes at once: jobs claim their rows or take advisory locks.
 * Returns the function that stops them all, waiting for runs in progress.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { HOUR_MS, MINUTE_MS } from '../lib/clock.js';
import { startDownloadRefreshes } from './download-refreshes.js';
import { startPeriodicJob } from './periodic.js';

export function startBackgroundJobs(app: FastifyInstance, config: Config): () => Promise<void> {
  // ── Background worker: site erasure (sites/site-erasure.ts), once a minute ──────────────
  const siteErasure = startPeriodicJob({
    name: 'site-erasure',
    intervalMs: MINUTE_MS,
    run: async () => {
      const report = await app.services.sites.runErasureOnce();
      const level = report.failed.length > 0 ? 'error' : 'info';
      if (level === 'error' || report.started.length + report.erased.length > 0) {
        app.log[level]({ job: 'site-erasure', ...report }, 'site erasure ran');
      }
    },
    onError: (error) => app.log.error({ err: error, job: 'site-erasure' }, 'site erasure failed'),
  });
  // ─────────────────────────────────────────────────────────────────────────────────────────

  // ── Background worker: privacy requests (privacy/privacy-jobs.ts), every 5 seconds ─────
  // Completes access requests and works erasures in bounded batches; the log names request ids
  // only, never whom a request is about.
  const privacyRequests = startPeriodicJob({
    name: 'privacy-requests',
    intervalMs: 5_000,
    run: async () => {
      const report = await app.services.privacyJobs.runPrivacyOnce();
      const level = report.failed.length > 0 ? 'error' : 'info';
      if (level === 'error' || report.completed.length > 0) {
        app.log[level]({ job: 'privacy-requests', ...report }, 'privacy requests ran');
      }
    },
    onError: (error) => app.log.error({ err: error, job: 'privacy-requests' }, 'privacy requests failed'),
  });
  // ─────────────────────────────────────────────────────────────────────────────────────────

  // ── Background worker: imports (imports/import-job.ts), every 2 seconds ────────────────────
  // Reads uploaded export files into daily counts; a server error is retried a minute later.
  const imports = startPeriodicJob({
    name: 'imports',
    intervalMs: 2_000,
    run: async () => {
      const report = await app.services.importJobs.runImportsOnce();
      const level = report.retried.length > 0 ? 'error' : 'info';
      if (level === 'error' || report.completed.length > 0 || report.failed.length > 0) {
        app.log[level]({ job: 'imports', ...report }, 'imports ran');
      }
    },
    onError: (error) => app.log.error({ err: error, job: 'imports' }, 'imports failed'),
  });
  const stopWakingImports = app.services.importJobs.onQueued(() => imports.wake());
  // ─────────────────────────────────────────────────────────────────────────────────────────

  // ── Background workers: exchange rates and crawler address ranges (jobs/download-refreshes.ts),
  // at start and then every RATES_REFRESH_HOURS and daily. A failure keeps the stored data and
  // is one warning line; it never stops the server.
  const stopDownloadRefreshes = startDownloadRefreshes({
    log: app.log,
    rates: app.services.rates,
    crawlerRanges: app.services.crawlerRanges,
    config,
  });
  // ─────────────────────────────────────────────────────────────────────────────────────────

  // ── Background worker: attribution (attribution/attribution.worker.ts), every second ──────
  // Up to 200 due conversions a tick; each job commits on its own, so stopping mid-batch loses
  // nothing. Retries and give-ups are logged; the rows keep the last error.
  const attribution = startPeriodicJob({
    name: 'attribution',
    intervalMs: 1_000,
    run: async () => {
      const processed = await app.services.attribution.runAttributionBatch({ limit: 200 });
      const failed = processed.filter((job) => job.outcome !== 'done');
      if (failed.length > 0) app.log.warn({ job: 'attribution', failed }, 'attribution attempts failed');
      else if (processed.length > 0)
        app.log.debug({ job: 'attribution', done: processed.length }, 'attribution ran');
    },
    onError: (error) => app.log.error({ err: error, job: 'attribution' }, 'attribution batch failed'),
  });
  // ─────────────────────────────────────────────────────────────────────────────────────────

  // ── Background worker: webhook delivery (webhooks/webhook-jobs.ts), every second ─────────────
  // Fans new outbox facts out to endpoints and sends due deliveries (leased, so any number of
  // processes can run this). On shutdown it stops claiming and records the attempts in flight
  // (each ends within 10 s); an attempt cut off anyway is retried once its lease runs out.
  // Deliveries older than 30 days are purged every hour.
  const webhookShutdown = new AbortController();
  const webhookDelivery = startPeriodicJob({
    name: 'webhook-delivery',
    intervalMs: 1_000,
    run: async () => {
      const report = await app.services.webhooks.runDeliveriesOnce({ signal: webhookShutdown.signal });
      if (report.errors.length > 0)
        app.log.error({ job: 'webhook-delivery', ...report }, 'webhook delivery errors');
      else if (report.failed > 0)
        app.log.warn({ job: 'webhook-delivery', ...report }, 'webhook deliveries failed');
      else if (report.attempted > 0)
        app.log.debug({ job: 'webhook-delivery', ...report }, 'webhooks delivered');
    },
    onError: (error) => app.log.error({ err: error, job: 'webhook-delivery' }, 'webhook delivery run failed'),
  });
  const webhookRetention = startPeriodicJob({
    name: 'webhook-retention',
    intervalMs: HOUR_MS,
    run: async () => {
      const purged = await app.services.webhooks.purgeExpired();
      if (purged.deliveries + purged.outbox > 0)
        app.log.info({ job: 'webhook-retention', ...purged }, 'old webhook deliveries purged');
    },
    onError: (error) => app.log.error({ err: error, job: 'webhook-retention' }, 'webhook retention failed'),
  });
  const stopWebhookJobs = async () => {
    webhookShutdown.abort();
    await Promise.all([webhookDelivery.stop(), webhookRetention.stop()]);
  };
  // ─────────────────────────────────────────────────────────────────────────────────────────

  // ── Background worker: stats rollups (reporting/rollups/rollup-job.query.ts), every minute ─────────
  // Builds the visit rollups of days whose visits have all ended (up to 400 days a run, so a
  // year of a site after an upgrade takes one run), and drops days that identity links changed;
  // and the goal rollups of ended days, again for days a late conversion changed.
  const statsRollups = startPeriodicJob({
    name: 'stats-rollups',
    intervalMs: MINUTE_MS,
    run: async () => {
      const report = await app.services.statsRollups.runOnce();
      if (report.built + report.stale + report.counted + report.goalDays > 0)
        app.log.info({ job: 'stats-rollups', ...report }, 'stats rollups built');
    },
    onError: (error) => app.log.error({ err: error, job: 'stats-rollups' }, 'stats rollups failed'),
  });
  // ─────────────────────────────────────────────────────────────────────────────────────────

  // ── Background worker: planner statistics (db/planner-statistics.ts), every hour, PGlite only ──
  // PostgreSQL's autovacuum keeps them; embedded PGlite has none.
  const plannerStatistics = config.databaseUrl
    ? undefined
    : startPeriodicJob({
        name: 'planner-statistics',
        intervalMs: HOUR_MS,
        run: () => app.services.plannerStatistics.refresh(),
        onError: (error) =>
          app.log.error({ err: error, job: 'planner-statistics' }, 'planner statistics failed'),
      });
  // ─────────────────────────────────────────────────────────────────────────────────────────

  // ── Background worker: retention (retention/retention.ts), every hour ──────────────────
  // Raw events go after each site's setting (by default conversion records after 365 days),
  // visits and visitors only where a site sets a time, raw crawler hits and processor event ids
  // after 90 days, refused-hit counts after 7; daily totals and rollups stay. With ClickHouse on,
  // the rules apply there too to rows PostgreSQL no longer holds. Each purge runs even when
  // another one fails. With ClickHouse on, copied traffic past TRAFFIC_PG_RETENTION_DAYS leaves
  // PostgreSQL (retention/copied-traffic-purge.ts).
  const { purgeInClickHouse, purgeCopiedTraffic } = app.services.retention;
  const purges = [
    ...(purgeInClickHouse
      ? [{ job: 'clickhouse-retention', what: 'expired rows in ClickHouse', purge: purgeInClickHouse }]
      : []),
    ...(purgeCopiedTraffic
      ? [{ job: 'copied-traffic-retention', what: 'copied traffic in PostgreSQL', purge: purgeCopiedTraffic }]
      : []),
    {
      job: 'conversion-retention',
      what: 'expired conversion records',
      purge: app.services.retention.purgeExpiredConversions,
    },
    {
      job: 'crawler-hit-retention',
      what: 'expired crawler hits',
      purge: app.services.retention.purgeExpiredCrawlerHits,
    },
    {
      job: 'visit-retention',
      what: 'expired visits and visitors',
      purge: app.services.retention.purgeExpiredVisits,
    },
    {
      job: 'processor-event-retention',
      what: 'old processor event ids',
      purge: app.services.retention.purgeOldProcessorEvents,
    },
    {
      job: 'refusal-retention',
      what: 'old refused-hit counts',
      purge: app.services.retention.purgeOldRefusals,
    },
  ];
  const retention = startPeriodicJob({
    name: 'retention',
    intervalMs: HOUR_MS,
    run: async () => {
      for (const { job, what, purge } of purges) {
        try {
          const purged = await purge();
          if (purged.deleted > 0) app.log.info({ job, ...purged }, `${what} deleted`);
        } catch (error) {
          app.log.error({ err: error, job }, `deleting ${what} failed`);
        }
      }
    },
    onError: (error) => app.log.error({ err: error, job: 'retention' }, 'retention failed'),
  });
  // ─────────────────────────────────────────────────────────────────────────────────────────

  // ── Background worker: the ClickHouse shipper (clickhouse/shipper.ts), every second ─────
  // Only with CLICKHOUSE_URL. Copies committed traffic in bounded batches; while ClickHouse does
  // not answer it backs off, and says so once when that begins and once when it ends.
  const engine = app.services.clickhouseEngine;
  const shipper = engine
    ? startPeriodicJob({
        name: 'clickhouse-shipper',
        intervalMs: 1_000,
        run: async () => {
          await engine.shipOnce();
        },
        // Already told by the shipper's own warning line; a stack trace would repeat it.
        onError: () => {},
      })
    : undefined;
  // ─────────────────────────────────────────────────────────────────────────────────────────

  return async () => {
    await shipper?.stop();
    await siteErasure.stop();
    await privacyRequests.stop();
    stopWakingImports();
    await imports.stop();
    await attribution.stop();
    await stopWebhookJobs();
    await retention.stop();
    await statsRollups.stop();
    await plannerStatistics?.stop();
    await stopDownloadRefreshes();
  };
}
