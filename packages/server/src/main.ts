/**
 * The process entry point: reads the environment and `--role` (http/roles.ts), opens the
 * database, starts the background jobs when the role runs them, and listens. SIGTERM and
 * SIGINT stop accepting connections, let in-flight requests finish, close the database and exit
 * 0, or exit 1 if that takes more than 10 seconds.
 */
import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { ChdbMissingError, openClickHouse } from './clickhouse/connection.js';
import { type ClickHouseConfig, ConfigError, loadConfig } from './config.js';
import { configuredDatabase, openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import { startupLogLevel } from './http/logging.js';
import { roleFromArgs, runsBackgroundJobs, type ServerRole } from './http/roles.js';
import { applySiteLimit, prepareSetupToken, remindSetupToken, resolveSecretKey } from './instance.js';
import { startBackgroundJobs } from './jobs/background-jobs.js';
import { systemClock } from './lib/clock.js';
import { loadRatesSnapshot } from './rates/rates-snapshot.js';

const SHUTDOWN_DEADLINE_MS = 10_000;

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  let role: ServerRole;
  try {
    config = loadConfig();
    role = roleFromArgs(process.argv.slice(2));
    // PGlite serves one process, which must then do everything.
    if (role !== 'all' && !config.databaseUrl)
      throw new ConfigError('--role needs DATABASE_URL (PostgreSQL)');
  } catch (error) {
    process.stderr.write(`touchtrail: configuration error: ${(error as Error).message}\n`);
    process.exit(1);
  }

  const database = await openDatabase(configuredDatabase(config));
  await migrate(database.db);
  await applySiteLimit(database.db, config);
  config = { ...config, secretKey: await resolveSecretKey(database.db, config) };
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  const clickhouse = config.clickhouse ? await openConfiguredClickHouse(config.clickhouse) : undefined;
  const app = await buildApp({ config, database, clock: systemClock, redis, role, clickhouse });
  const startupLog = app.log.child({}, { level: startupLogLevel(config.logLevel) });
  // Traffic keeps arriving while ClickHouse is away: a failure here is one line, and the
  // shipper applies the schema once ClickHouse answers.
  await app.services.clickhouseEngine?.ensureSchema().catch((error: Error) => {
    startupLog.warn(
      `ClickHouse does not answer yet (${error.message.split('\n')[0]}); reports read PostgreSQL until it does`,
    );
  });

  // Before listening, so reports convert from the first request (rates/rates-snapshot.ts).
  if (runsBackgroundJobs(role) && config.ratesSnapshot)
    await loadRatesSnapshot({ db: database.db, log: startupLog });
  const stopJobs = runsBackgroundJobs(role) ? startBackgroundJobs(app, config) : async () => {};

  let stopping = false;
  let stopReminder = () => {};
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    startupLog.info({ signal }, 'shutting down');
    stopReminder();
    const deadline = setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    await stopJobs();
    await app.close();
    await clickhouse?.close();
    redis?.disconnect();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const storage =
    (config.databaseUrl ? 'PostgreSQL' : `embedded PGlite in ${config.dataDir}`) +
    (config.clickhouse ? ', traffic history in ClickHouse' : '');
  startupLog.info(`Touchtrail is serving ${config.publicUrl} (storage: ${storage}, role: ${role})`);

  // Only a process that answers setup makes a token: another would replace the one printed.
  const setupToken = role === 'all' || role === 'api' ? await prepareSetupToken(database.db, config) : null;
  if (setupToken) {
    const printToken = () => process.stdout.write(setupTokenMessage(config.publicUrl, setupToken));
    printToken();
    stopReminder = remindSetupToken(database.db, printToken).stop;
  }
}

/** Opens the configured ClickHouse; without npm `chdb` for a `chdb://` URL, says so in one line. */
async function openConfiguredClickHouse(config: ClickHouseConfig) {
  try {
    return await openClickHouse(config);
  } catch (error) {
    if (!(error instanceof ChdbMissingError)) throw error;
    process.stderr.write(`touchtrail: ${error.message}\n`);
    process.exit(1);
  }
}

/**
 * Printed straight to the terminal, not through the logger: it is meant for the operator's eyes.
 * The command is the README's first one (ops/readme-walkthrough.test.ts compares them).
 */
function setupTokenMessage(publicUrl: string, token: string): string {
  return (
    `\nNo account yet. Open ${publicUrl}/setup in a browser and enter this one-time setup token:\n\n  ${token}\n\n` +
    'or create the account from a terminal:\n\n' +
    `  curl -X POST ${publicUrl}/v1/setup -H 'content-type: application/json' \\\n` +
    `    -d '{"setup_token":"${token}","email":"you@example.com","password":"a long password","account_name":"Example"}'\n\n`
  );
}

main().catch((error) => {
  process.stderr.write(
    `touchtrail: failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
