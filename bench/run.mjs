/**
 * Health-check baseline: the same /healthz load against a bare Fastify route and against the real
 * built server, so the ratio shows what our plumbing (helmet, request ids, rate limits, logging)
 * costs on this machine, whatever its speed. Figures go into bench/RESULTS.md by hand.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import {
  currentLoad,
  describeMachine,
  listenOnWorker,
  printTable,
  ratio,
  runBenchmark,
  startBareWorker,
  startBuiltServer,
  summarise,
} from './lib.mjs';

const DURATION_S = 5;
const CONNECTIONS = 50;

async function serveBare() {
  const app = Fastify({ logger: false });
  app.get('/healthz', async () => ({ status: 'ok' }));
  await listenOnWorker(app);
}

/** The real server with its own throwaway PGlite folder. */
async function startTouchtrail(cleanups) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'touchtrail-bench-'));
  cleanups.add(() => rm(dataDir, { recursive: true, force: true }));
  // The default single-process set-up: embedded storage, in-memory rate limits, whatever the shell says.
  const { DATABASE_URL, REDIS_URL, ...env } = process.env;
  return startBuiltServer(
    { ...env, DATA_DIR: dataDir, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    cleanups,
  );
}

async function measure(name, url) {
  process.stderr.write(`${name}: ${CONNECTIONS} connections for ${DURATION_S} s against ${url}\n`);
  return summarise(name, await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S }));
}

async function main(cleanups) {
  const startLoad = currentLoad();
  const bare = await startBareWorker(new URL(import.meta.url));
  cleanups.add(bare.stop);
  const baseline = await measure('bare fastify', `${bare.baseUrl}/healthz`);
  const real = await startTouchtrail(cleanups);
  const touchtrail = await measure('touchtrail', `${real.baseUrl}/healthz`);
  report([baseline, touchtrail], startLoad);
}

function report(rows, startLoad) {
  const [baseline, touchtrail] = rows;
  const logLevel = process.env.LOG_LEVEL ?? 'warn';
  console.log(`\nGET /healthz, ${CONNECTIONS} connections, ${DURATION_S} s each, LOG_LEVEL=${logLevel}`);
  console.log(`${describeMachine(startLoad)}\n`);
  printTable(rows, 'req/s');
  console.log(
    `touchtrail / bare: req/s ${ratio(touchtrail.okPerSecond, baseline.okPerSecond)}×, ` +
      `p50 ${ratio(touchtrail.p50Ms, baseline.p50Ms)}×, p99 ${ratio(touchtrail.p99Ms, baseline.p99Ms)}×`,
  );
  for (const row of rows) {
    if (row.non2xx > 0 || row.errors > 0) {
      process.exitCode = 1;
      console.log(
        `warning: ${row.name} answered ${row.non2xx} non-2xx and had ${row.errors} errors; its figures are not a baseline`,
      );
    }
  }
}

if (isMainThread) await runBenchmark(main);
else await serveBare();
