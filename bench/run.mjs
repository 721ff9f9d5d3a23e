/**
 * Health-check baseline: the same /healthz load against a bare Fastify route and against the real
 * built server, so the ratio shows what our plumbing (helmet, request ids, rate limits, logging)
 * costs on this machine, whatever its speed. Figures go into bench/RESULTS.md by hand.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildIfStale, SERVER_DIR } from '../scripts/server-dist.mjs';

const DURATION_S = 5;
const CONNECTIONS = 50;
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;
const HOST = '127.0.0.1';

async function serveBare() {
  const app = Fastify({ logger: false });
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.listen({ port: 0, host: HOST });
  parentPort.postMessage(app.server.address().port);
}

/**
 * The bare server runs on a worker thread so that, like the real server in its child process, it
 * does not share an event loop with autocannon; otherwise the baseline would be handicapped.
 */
async function startBare() {
  const worker = new Worker(new URL(import.meta.url));
  const [port] = await once(worker, 'message');
  return { url: `http://${HOST}:${port}/healthz`, stop: () => worker.terminate() };
}

async function findFreePort() {
  const probe = createServer();
  probe.listen(0, HOST);
  await once(probe, 'listening');
  const { port } = probe.address();
  probe.close();
  await once(probe, 'close');
  return port;
}

async function waitUntilHealthy(url, child) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with code ${child.exitCode} before answering`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not answer ${url} within ${READY_TIMEOUT_MS / 1000} s`);
}

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** The real server, built if stale, on a free port with its own throwaway PGlite folder. */
async function startTouchtrail(cleanups) {
  const buildCode = await buildIfStale();
  if (buildCode !== 0) throw new Error(`the server build failed (exit code ${buildCode})`);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'touchtrail-bench-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const port = await findFreePort();
  // The default single-process set-up: embedded storage, in-memory rate limits, whatever the shell says.
  const { DATABASE_URL, REDIS_URL, ...env } = process.env;
  const child = spawn(process.execPath, [path.join(SERVER_DIR, 'dist', 'main.js')], {
    env: { ...env, PORT: String(port), HOST, DATA_DIR: dataDir, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  cleanups.push(() => stopChild(child));
  const url = `http://${HOST}:${port}/healthz`;
  await waitUntilHealthy(url, child);
  return { url };
}

async function measure(name, url) {
  process.stderr.write(`${name}: ${CONNECTIONS} connections for ${DURATION_S} s against ${url}\n`);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function main() {
  const cleanups = [];
  const cleanUp = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups.length = 0;
  };
  const interrupt = () => void cleanUp().finally(() => process.exit(130));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    const bare = await startBare();
    cleanups.push(bare.stop);
    const baseline = await measure('bare fastify', bare.url);
    const real = await startTouchtrail(cleanups);
    const touchtrail = await measure('touchtrail', real.url);
    report([baseline, touchtrail]);
  } finally {
    await cleanUp();
  }
}

function report(rows) {
  const [baseline, touchtrail] = rows;
  const logLevel = process.env.LOG_LEVEL ?? 'warn';
  console.log(`\nGET /healthz, ${CONNECTIONS} connections, ${DURATION_S} s each, LOG_LEVEL=${logLevel}`);
  console.log(`node ${process.version}, ${availableParallelism()} × ${cpus()[0]?.model ?? 'unknown CPU'}\n`);
  console.table(
    Object.fromEntries(
      rows.map((row) => [
        row.name,
        {
          'req/s': row.requestsPerSecond,
          'p50 ms': row.p50Ms,
          'p99 ms': row.p99Ms,
          non2xx: row.non2xx,
          errors: row.errors,
        },
      ]),
    ),
  );
  const ratio = (a, b) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
  console.log(
    `touchtrail / bare: req/s ${ratio(touchtrail.requestsPerSecond, baseline.requestsPerSecond)}×, ` +
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

if (isMainThread) {
  main().catch((error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
} else {
  await serveBare();
}
