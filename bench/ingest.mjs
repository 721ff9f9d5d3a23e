/**
 * Ingest under load: tracker pageviews against `POST /v1/collect` of the built server on a
 * throwaway PostgreSQL database, and the same load against a bare Fastify route answering 202.
 * Prints events/s, latency, the server's peak RSS, where the CPU went (server, PostgreSQL, load
 * generator, idle) and pass/fail per target, then stops the server (it drains its batches) and
 * checks that every acknowledged event is in the database. Exits 1 on a missing event, a failed
 * run or a missed target. Figures go into bench/RESULTS.md by hand.
 * Environment: CONNECTIONS (50), DURATION_S (20), BENCH_DATABASE_URL (an admin URL) and
 * SERVER_NODE_ARGS (node flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
import { randomBytes } from 'node:crypto';
import { isMainThread } from 'node:worker_threads';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { countStoredEvents, createThrowawayDatabase } from './ingest-db.mjs';
import { createPageviewLoad } from './ingest-load.mjs';
import {
  currentLoad,
  describeMachine,
  listenOnWorker,
  printTable,
  ratio,
  readPeakRssMb,
  runBenchmark,
  startBareWorker,
  startBuiltServer,
  startCpuMeter,
  summarise,
} from './lib.mjs';

const COLLECT_PATH = '/v1/collect';
const WARMUP_S = 3;
const TARGETS = { minThroughputRatio: 0.4, maxP99Ms: 50, maxPeakRssMb: 300 };

function positiveIntegerFromEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

async function serveBare() {
  const app = Fastify({ logger: false });
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body));
    } catch (error) {
      done(error, undefined);
    }
  });
  app.post(COLLECT_PATH, async (_request, reply) => reply.code(202).send({ accepted: true }));
  await listenOnWorker(app);
}

async function postJson(url, body, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

/** The first account (through the setup token) and one site; resolves to the site's snippet key. */
async function createBenchSite(baseUrl, setupToken) {
  const { api_key: apiKey } = await postJson(`${baseUrl}/v1/setup`, {
    setup_token: setupToken,
    email: 'bench@example.com',
    password: 'a bench password',
  });
  const site = await postJson(
    `${baseUrl}/v1/sites`,
    { domain: 'bench.example.com' },
    { authorization: `Bearer ${apiKey}` },
  );
  return site.snippet_key;
}

/** A warm-up run that is not counted, then the counted run. */
async function measure(name, baseUrl, load, { connections, durationS }, serverPid) {
  const options = { url: baseUrl, connections, requests: [load.request] };
  process.stderr.write(`${name}: warm-up, ${connections} connections for ${WARMUP_S} s\n`);
  await autocannon({ ...options, duration: WARMUP_S });
  process.stderr.write(
    `${name}: ${connections} connections for ${durationS} s against ${baseUrl}${COLLECT_PATH}\n`,
  );
  const stopCpuMeter = serverPid ? await startCpuMeter(serverPid) : null;
  const result = summarise(name, await autocannon({ ...options, duration: durationS }));
  return { ...result, cpu: await stopCpuMeter?.() };
}

async function main(cleanups) {
  const run = {
    connections: positiveIntegerFromEnv('CONNECTIONS', 50),
    durationS: positiveIntegerFromEnv('DURATION_S', 20),
  };
  const startLoad = currentLoad();
  const adminUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

  const bare = await startBareWorker(new URL(import.meta.url));
  cleanups.add(bare.stop);
  const bareLoad = createPageviewLoad({ snippetKey: 'ttid_bare', path: COLLECT_PATH });
  const baseline = await measure('bare fastify', bare.baseUrl, bareLoad, run);
  await bare.stop();

  const databaseUrl = await createThrowawayDatabase(adminUrl, cleanups);
  const setupToken = randomBytes(16).toString('hex');
  // REDIS_URL and DATA_DIR from the shell would change the set-up under test; leave them out.
  const { REDIS_URL, DATA_DIR, ...env } = process.env;
  const server = await startBuiltServer(
    { ...env, DATABASE_URL: databaseUrl, SETUP_TOKEN: setupToken, LOG_LEVEL: 'warn', INGEST_RATE_LIMIT: '0' },
    cleanups,
    process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean),
  );
  const snippetKey = await createBenchSite(server.baseUrl, setupToken);
  const load = createPageviewLoad({ snippetKey, path: COLLECT_PATH });
  const touchtrail = await measure('touchtrail', server.baseUrl, load, run, server.child.pid);

  const peakRssMb = await readPeakRssMb(server.child.pid);
  const exitCode = await server.stop();
  if (exitCode !== 0) console.log(`warning: the server exited with ${exitCode ?? 'a signal'} on SIGTERM`);
  const stored = await countStoredEvents(databaseUrl, load.acknowledged);

  report({ run, startLoad, baseline, touchtrail, peakRssMb, load, stored });
}

/** Where the CPU went during the counted touchtrail run, per event too. */
function printCpu({ cpu, okPerSecond }) {
  if (!cpu) return console.log('CPU shares: not measured (no /proc)\n');
  const perEvent = (pct) => (okPerSecond > 0 ? Math.round((pct / 100 / okPerSecond) * 1e6) : '?');
  console.log(
    `CPU during the counted run (% of one core, µs per event): server ${cpu.serverPct}% (${perEvent(cpu.serverPct)} µs), ` +
      `PostgreSQL ${cpu.postgresPct}% (${perEvent(cpu.postgresPct)} µs), load generator ${cpu.loadGeneratorPct}% ` +
      `(${perEvent(cpu.loadGeneratorPct)} µs); machine idle ${cpu.idlePct}% of its cores\n`,
  );
}

function report({ run, startLoad, baseline, touchtrail, peakRssMb, load, stored }) {
  console.log(
    `\nPOST ${COLLECT_PATH} (text/plain pageviews), ${run.connections} connections, ` +
      `${run.durationS} s each after a ${WARMUP_S} s warm-up, server LOG_LEVEL=warn on PostgreSQL`,
  );
  console.log(`${describeMachine(startLoad)}\n`);
  printTable([baseline, touchtrail], 'events/s');
  const throughputRatio = baseline.okPerSecond > 0 ? touchtrail.okPerSecond / baseline.okPerSecond : 0;
  console.log(
    `touchtrail / bare: events/s ${ratio(touchtrail.okPerSecond, baseline.okPerSecond)}×, ` +
      `p50 ${ratio(touchtrail.p50Ms, baseline.p50Ms)}×, p99 ${ratio(touchtrail.p99Ms, baseline.p99Ms)}×`,
  );
  console.log(`touchtrail peak RSS (VmHWM of the server process): ${peakRssMb ?? 'unknown'} MB`);
  printCpu(touchtrail);

  const checks = [
    [
      `throughput ≥ ${TARGETS.minThroughputRatio * 100}% of bare`,
      throughputRatio >= TARGETS.minThroughputRatio,
      `${Math.round(throughputRatio * 100)}%`,
    ],
    [`p99 < ${TARGETS.maxP99Ms} ms`, touchtrail.p99Ms < TARGETS.maxP99Ms, `${touchtrail.p99Ms} ms`],
    [
      `peak RSS < ${TARGETS.maxPeakRssMb} MB`,
      peakRssMb !== null && peakRssMb < TARGETS.maxPeakRssMb,
      `${peakRssMb ?? 'unknown'} MB`,
    ],
  ];
  for (const [target, isMet, observed] of checks) {
    console.log(`${isMet ? 'PASS' : 'FAIL'}  ${target}: ${observed}`);
    if (!isMet) process.exitCode = 1;
  }
  for (const row of [baseline, touchtrail]) {
    if (row.non2xx > 0 || row.errors > 0) {
      process.exitCode = 1;
      console.log(`warning: ${row.name} answered ${row.non2xx} non-2xx and had ${row.errors} errors`);
    }
  }

  const acknowledged = load.acknowledged.length;
  console.log(
    `\nevents acknowledged (202, warm-up included): ${acknowledged}; found in the database: ${stored.found}` +
      ` (requests sent: ${load.sent}; events table rows: ${stored.total})`,
  );
  if (stored.found < acknowledged) {
    process.exitCode = 1;
    console.log(`\n!!! MISSING ${acknowledged - stored.found} acknowledged events !!!`);
  } else {
    console.log('PASS  every acknowledged event is stored');
  }
}

if (isMainThread) await runBenchmark(main);
else await serveBare();
