/**
 * The process entry point: the only place that reads the environment, opens the database and
 * listens. SIGTERM and SIGINT stop accepting connections, let in-flight requests finish, close
 * the database and exit 0, or exit 1 if that takes more than 10 seconds.
 */
import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import { applySiteLimit, prepareSetupToken, resolveSecretKey } from './instance.js';
import { startPeriodicJob } from './jobs/periodic.js';
import { HOUR_MS, MINUTE_MS, systemClock } from './lib/clock.js';
import { shownUrl } from './rates/rates-fetch.js';
import { startRatesRefresh } from './rates/rates-refresh-job.js';

const SHUTDOWN_DEADLINE_MS = 10_000;

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`touchtrail: configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: config.dataDir },
  );
  await migrate(database.db);
  await applySiteLimit(database.db, config);
  config = { ...config, secretKey: await resolveSecretKey(database.db, config) };
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  const app = await buildApp({ config, database, clock: systemClock, redis });

  // ── Background worker: site erasure (sites/site-erasure.ts), once a minute ──────────────
  const siteErasure = startPeriodicJob({
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

  // ── Background worker: exchange rates (rates/rates-refresh-job.ts), at start and every ──────
  // RATES_REFRESH_HOURS from RATES_URL; off when RATES_URL is empty or `off`. A failure keeps
  // the stored rates and is logged; it never stops the server.
  const ratesUrl = config.ratesUrl;
  const ratesRefresh = ratesUrl
    ? startRatesRefresh({
        refresh: (signal) => app.services.rates.refresh(ratesUrl, { signal }),
        intervalMs: config.ratesRefreshHours * HOUR_MS,
        onRefreshed: (result) =>
          app.log.info({ job: 'rates-refresh', ...result }, 'exchange rates refreshed'),
        onError: (error) =>
          app.log.warn(
            { err: error, job: 'rates-refresh', url: shownUrl(ratesUrl) },
            'exchange rates refresh failed',
          ),
      })
    : undefined;
  // ─────────────────────────────────────────────────────────────────────────────────────────

  // ── Background worker: attribution (attribution/attribution.worker.ts), every second ──────
  // Up to 200 due conversions a tick; each job commits on its own, so stopping mid-batch loses
  // nothing. Retries and give-ups are logged; the rows keep the last error.
  const attribution = startPeriodicJob({
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

  // ── Background worker: retention (retention/conversion-retention.ts), every hour ─────────
  // Conversion records go 365 days after they happened (and were received); daily totals stay.
  const conversionRetention = startPeriodicJob({
    intervalMs: HOUR_MS,
    run: async () => {
      const purged = await app.services.retention.purgeExpiredConversions();
      if (purged.deleted > 0)
        app.log.info({ job: 'conversion-retention', ...purged }, 'expired conversion records deleted');
    },
    onError: (error) =>
      app.log.error({ err: error, job: 'conversion-retention' }, 'conversion retention failed'),
  });
  // ─────────────────────────────────────────────────────────────────────────────────────────

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    await siteErasure.stop();
    await attribution.stop();
    await stopWebhookJobs();
    await conversionRetention.stop();
    await ratesRefresh?.stop();
    await app.close();
    redis?.disconnect();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const storage = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`;
  app.log.info(`Touchtrail is serving ${config.publicUrl} (storage: ${storage})`);

  const setupToken = await prepareSetupToken(database.db, config);
  if (setupToken) {
    // Printed straight to the terminal, not through the logger: it is meant for the operator's eyes once.
    process.stdout.write(
      `\nNo account yet. Create the first one with this one-time setup token:\n\n  ${setupToken}\n\n` +
        `  curl -X POST ${config.publicUrl}/v1/setup -H 'content-type: application/json' \\\n` +
        `    -d '{"setup_token":"${setupToken}","email":"you@example.com","password":"a long password"}'\n\n`,
    );
  }
}

main().catch((error) => {
  process.stderr.write(
    `touchtrail: failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
