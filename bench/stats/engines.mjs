/**
 * One benchmark run per database. PostgreSQL: the server runs while the bench seeds and while
 * it times the API and the plain SQL in alternation. PGlite: one process at a time may open the
 * folder, so the server makes the account and stops, the bench seeds and times the plain SQL
 * in-process, then the server starts again for the API. On both, the stats rollups are built by
 * the server's `npm run rollups` once the seed is in (every day but today, which stays raw).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SERVER_DIR } from '../../scripts/server-dist.mjs';
import { callApi } from './measure.mjs';
import { benchmarkQueries } from './queries.mjs';
import { measureAll, measureAlternately, measureApi, measurePlain, plainAnswer } from './query-runs.mjs';
import { BIG_SITE_VISITORS, countRows, SMALL_SITE_VISITORS, seedRecentVisits, seedSites } from './seed.mjs';
import {
  createBenchAccount,
  describePostgres,
  dropDatabase,
  newSetupToken,
  openPglite,
  openPostgres,
  recreateDatabase,
  resolveSites,
  startServer,
} from './targets.mjs';

export const DATABASE_NAME = 'touchtrail_bench_stats';
const SMALL_SITES = 50;
const log = (line) => process.stderr.write(`${line}\n`);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

export async function runOnPostgres(options, cleanups) {
  const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const url = await recreateDatabase(adminUrl, DATABASE_NAME);
  if (options.keep) log(`keeping database ${DATABASE_NAME} (--keep)`);
  else cleanups.add(() => dropDatabase(adminUrl, DATABASE_NAME));
  const setupToken = newSetupToken();
  const server = await startServer({ DATABASE_URL: url }, setupToken, cleanups);
  const { account, queries } = await prepareAccount(server.baseUrl, setupToken);
  const db = await openPostgres(url);
  cleanups.add(db.close);
  const setting = await describePostgres(db);
  const seeded = await seedAndPrepare(db, account, options.scale, { chunkVisits: 150_000 });
  seeded.rollupMs = await buildRollups({ DATABASE_URL: url });
  await db.exec('analyze stats_visit_rollups, stats_rollup_days');
  let reading = server;
  let title = `PostgreSQL, scale ${options.scale}`;
  if (options.clickhouse) {
    // Copied with the server stopped (one process per chdb folder), then read by a server with
    // ClickHouse; the last half hour, seeded after the copy, is read from PostgreSQL beside it.
    await server.stop();
    const folder = path.join(tmpdir(), 'touchtrail-bench-stats-chdb');
    await rm(folder, { recursive: true, force: true });
    if (!options.keep) cleanups.add(() => rm(folder, { recursive: true, force: true }));
    const clickhouse = { DATABASE_URL: url, CLICKHOUSE_URL: `chdb://${folder}` };
    seeded.shipMs = await runServerCli(['dist', 'clickhouse', 'ship-cli.js'], clickhouse, 'clickhouse:ship');
    reading = await startServer(clickhouse, setupToken, cleanups);
    title = `PostgreSQL + ClickHouse (chDB), scale ${options.scale}`;
  }
  await seedRecentVisits(db, seeded.big, seeded.recent);
  const counts = await countRows(db, seeded.big.id);
  const rows = await measureAll(queries, (query, i) =>
    measureAlternately(query, { server: reading, key: account.keys[i], db, site: seeded.big }, options),
  );
  await reading.stop();
  await db.close();
  if (!options.keep) await dropDatabase(adminUrl, DATABASE_NAME);
  return { title, setting, ...seeded, counts, rows };
}

export async function runOnPglite(options, cleanups) {
  const dataDir = path.join(tmpdir(), 'touchtrail-bench-stats-pglite');
  await rm(dataDir, { recursive: true, force: true });
  if (options.keep) log(`keeping the PGlite folder ${dataDir} (--keep)`);
  else cleanups.add(() => rm(dataDir, { recursive: true, force: true }));
  const setupToken = newSetupToken();
  let server = await startServer({ DATA_DIR: dataDir }, setupToken, cleanups);
  const { account, queries } = await prepareAccount(server.baseUrl, setupToken);
  await server.stop();

  const db = await openPglite(dataDir);
  const seeded = await seedAndPrepare(db, account, options.scale * 0.1, { chunkVisits: 25_000 });
  const site = seeded.big;
  const measured = queries.map((query) => !query.skipped);
  // The last half hour goes in after the slow part, so it is still recent when the server reads it;
  // every answer is then read again, to compare with the API's.
  const plain = [];
  for (const [i, query] of queries.entries()) {
    if (measured[i] && !query.isMovingWindow) plain[i] = await measurePlain(query, db, site, options);
  }
  await seedRecentVisits(db, site, seeded.recent);
  for (const [i, query] of queries.entries()) {
    if (!measured[i]) continue;
    if (query.isMovingWindow) plain[i] = await measurePlain(query, db, site, options);
    plain[i].rows = await plainAnswer(query, db, site);
  }
  const counts = await countRows(db, site.id);
  await db.close();
  seeded.rollupMs = await buildRollups({ DATA_DIR: dataDir });

  server = await startServer({ DATA_DIR: dataDir }, setupToken, cleanups);
  const rows = await measureAll(queries, (query, i) =>
    measureApi(query, { server, key: account.keys[i], plain: plain[i], site }, options),
  );
  await server.stop();
  const setting = 'PGlite (in-process WebAssembly PostgreSQL)';
  return { title: `PGlite, scale ${options.scale} × 0.1`, setting, ...seeded, counts, rows };
}

/** The account and sites, and the queries with what each route answers today (on no data yet). */
async function prepareAccount(baseUrl, setupToken) {
  const planned = benchmarkQueries();
  const account = await createBenchAccount(baseUrl, setupToken, {
    smallSites: SMALL_SITES,
    readKeys: planned.length,
  });
  const queries = [];
  for (const [i, query] of planned.entries()) {
    const { status, body } = await callApi(baseUrl, account.keys[i], query.request(account.big.snippetKey));
    if (status === 200) queries.push(query);
    else if (query.fallback && status === query.fallback.status) {
      queries.push({
        ...query.fallback,
        note: `the API answered ${status} for event:page (${body?.message ?? ''}): measured by entry page`,
      });
    } else if (status === 404 && query.skipOn404)
      queries.push({ ...query, skipped: 'the API answered 404 (not built yet)' });
    else {
      log(`!!! ${query.name}: the API answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
      queries.push({ ...query, skipped: `the API answered ${status}` });
    }
  }
  return { account, queries };
}

/** Seed, then VACUUM ANALYZE. */
async function seedAndPrepare(db, account, scale, { chunkVisits }) {
  const [big, ...small] = await resolveSites(db, [account.big, ...account.small]);
  const started = performance.now();
  const recent = await seedSites(db, {
    big,
    small,
    bigVisitors: Math.max(1, Math.round(BIG_SITE_VISITORS * scale)),
    smallVisitors: Math.max(1, Math.round(SMALL_SITE_VISITORS * scale)),
    chunkVisits,
    log,
  });
  const seedMs = performance.now() - started;
  log(`seeded in ${seconds(seedMs)}`);
  const vacuumStarted = performance.now();
  await db.exec('vacuum (analyze) visits, events, visitors, identity_links, daily_visits');
  const vacuumMs = performance.now() - vacuumStarted;
  return { big, recent, seedMs, vacuumMs, rollupMs: null };
}

/**
 * The server's `npm run rollups` on `database` ({DATABASE_URL} or {DATA_DIR}, which no other
 * process may hold open): builds the rollups of every day but today. Resolves to its milliseconds.
 */
const buildRollups = (database) =>
  runServerCli(['dist', 'reporting', 'rollups', 'rollups-cli.js'], database, 'rollups');

/** One of the server's command-line tools, to its end; resolves to its milliseconds. */
async function runServerCli(file, database, name) {
  const { REDIS_URL, DATA_DIR, DATABASE_URL, CLICKHOUSE_URL, ...env } = process.env;
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(SERVER_DIR, ...file)], {
    env: { ...env, ...database },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`npm run ${name} exited with code ${code}`);
  const ms = performance.now() - started;
  log(`${name}: ${output.trim()} in ${seconds(ms)}`);
  return ms;
}
