/**
 * What the benchmarks share: a bare Fastify baseline on a worker thread, the built server in a
 * child process on a free port, autocannon figures in one shape, and clean-up that runs on
 * success, on failure and on Ctrl-C alike.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { availableParallelism, cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parentPort, Worker } from 'node:worker_threads';
import { buildIfStale, SERVER_DIR } from '../scripts/server-dist.mjs';

export const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * A list of clean-up steps run last-added-first, once. A step added after clean-up began runs at
 * once, so a child spawned while Ctrl-C is being handled is not left behind.
 */
export function createCleanups() {
  const steps = [];
  let running;
  const runStep = async (step) => {
    try {
      await step();
    } catch (error) {
      process.stderr.write(`clean-up step failed: ${error instanceof Error ? error.message : error}\n`);
    }
  };
  return {
    add(step) {
      if (running) void runStep(step);
      else steps.push(step);
    },
    runAll() {
      running ??= (async () => {
        while (steps.length > 0) await runStep(steps.pop());
      })();
      return running;
    },
  };
}

/**
 * Runs `main(cleanups)`, then the clean-up steps, also on SIGINT/SIGTERM (exit 130) and on a
 * thrown error (exit 1, one line on stderr).
 */
export async function runBenchmark(main) {
  const cleanups = createCleanups();
  const interrupt = () => void cleanups.runAll().finally(() => process.exit(130));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    await main(cleanups);
  } catch (error) {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await cleanups.runAll();
  }
}

/**
 * Starts `moduleUrl` on a worker thread and waits for the port it posts (see `listenOnWorker`).
 * The bare server runs on its own thread so that, like the real server in its child process, it
 * does not share an event loop with autocannon; otherwise the baseline would be handicapped.
 */
export async function startBareWorker(moduleUrl) {
  const worker = new Worker(moduleUrl);
  const [port] = await Promise.race([
    once(worker, 'message'),
    once(worker, 'exit').then(([code]) => {
      throw new Error(`the bare server's worker exited with code ${code} before listening`);
    }),
  ]);
  return { baseUrl: `http://${HOST}:${port}`, stop: () => worker.terminate() };
}

/** In the worker: listens on a free port and tells `startBareWorker` which. */
export async function listenOnWorker(app) {
  await app.listen({ port: 0, host: HOST });
  parentPort.postMessage(app.server.address().port);
}

export async function findFreePort() {
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

/**
 * SIGTERM (the server drains and closes), SIGKILL after STOP_TIMEOUT_MS. Resolves to the exit
 * code, null when the process was killed by a signal, or undefined when it had already exited.
 */
export async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return undefined;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  const [code] = await exited;
  clearTimeout(timer);
  return code;
}

/**
 * The real server (`packages/server/dist/main.js`, built first if stale) on a free port with
 * `env` (PORT and HOST are set here), once `/healthz` answers. `stop()` (also a clean-up step)
 * resolves like `stopChild`.
 * `nodeArgs` go to node before the file, e.g. `--cpu-prof` (which NODE_OPTIONS does not allow).
 * Its stdout is discarded and its stderr shared, unless `keepOutput(stdout, stderr)` is given: it
 * gets both streams as soon as the child is spawned, so no line is lost. `serverArgs` go after
 * the file (`--role api`).
 */
export async function startBuiltServer(env, cleanups, nodeArgs = [], { keepOutput, serverArgs = [] } = {}) {
  const buildCode = await buildIfStale();
  if (buildCode !== 0) throw new Error(`the server build failed (exit code ${buildCode})`);
  const port = await findFreePort();
  const child = spawn(
    process.execPath,
    [...nodeArgs, path.join(SERVER_DIR, 'dist', 'main.js'), ...serverArgs],
    {
      // Benchmarks stay on this machine: no exchange-rate or crawler-range downloads.
      env: { RATES_URL: 'off', CRAWLER_RANGES: 'off', ...env, PORT: String(port), HOST },
      stdio: keepOutput ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'ignore', 'inherit'],
    },
  );
  keepOutput?.(child.stdout, child.stderr);
  let isStopping = false;
  child.once('exit', (code, signal) => {
    // A server gone mid-run turns every later request into an error; say why.
    if (!isStopping) process.stderr.write(`the server exited unexpectedly (${signal ?? `code ${code}`})\n`);
  });
  const stop = () => {
    isStopping = true;
    return stopChild(child);
  };
  cleanups.add(stop);
  const baseUrl = `http://${HOST}:${port}`;
  await waitUntilHealthy(`${baseUrl}/healthz`, child);
  return { child, baseUrl, stop };
}

/** A process's peak resident set (VmHWM) in MB, from Linux's /proc; null elsewhere. */
export async function readPeakRssMb(pid) {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

/** Ticks of /proc's CPU counters per second (`getconf CLK_TCK`, 100 on Linux). */
const CLOCK_TICKS = 100;

/** User and system CPU seconds of one process, or null when /proc cannot tell. */
async function cpuSecondsOf(pid) {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** CPU seconds of every PostgreSQL process on this machine (its server and all backends). */
async function postgresCpuSeconds() {
  const pids = (await readdir('/proc').catch(() => [])).filter((name) => /^\d+$/.test(name));
  let total = 0;
  for (const pid of pids) {
    const command = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
    if (command.trim() === 'postgres') total += (await cpuSecondsOf(pid)) ?? 0;
  }
  return total;
}

/** Idle CPU seconds of the whole machine, summed over its cores. */
async function machineIdleSeconds() {
  const stat = await readFile('/proc/stat', 'utf8').catch(() => '');
  const idle = Number(stat.split('\n')[0]?.split(/\s+/)[4]);
  return Number.isFinite(idle) ? idle / CLOCK_TICKS : null;
}

/**
 * Starts measuring where the CPU goes while a run lasts: the server process, PostgreSQL, this
 * process (the load generator) and the machine's idle time. The returned function stops it and
 * gives the shares in percent of one core (idle in percent of all cores). Linux only; null
 * elsewhere.
 */
export async function startCpuMeter(serverPid) {
  const read = async () => ({
    at: performance.now(),
    server: await cpuSecondsOf(serverPid),
    postgres: await postgresCpuSeconds(),
    loadGenerator: await cpuSecondsOf(process.pid),
    idle: await machineIdleSeconds(),
  });
  const before = await read();
  return async () => {
    const after = await read();
    if ([before.server, after.server, before.idle, after.idle].includes(null)) return null;
    const seconds = (after.at - before.at) / 1000;
    const share = (key) => Math.round(((after[key] - before[key]) / seconds) * 100);
    return {
      serverPct: share('server'),
      postgresPct: share('postgres'),
      loadGeneratorPct: share('loadGenerator'),
      idlePct: Math.round(share('idle') / availableParallelism()),
    };
  };
}

/** The figures both benchmarks print, from an autocannon result (its errors include timeouts). */
export function summarise(name, result) {
  return {
    name,
    okPerSecond: Math.round(result['2xx'] / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export function printTable(rows, rateLabel) {
  console.table(
    Object.fromEntries(
      rows.map((row) => [
        row.name,
        {
          [rateLabel]: row.okPerSecond,
          'p50 ms': row.p50Ms,
          'p99 ms': row.p99Ms,
          non2xx: row.non2xx,
          errors: row.errors,
        },
      ]),
    ),
  );
}

/**
 * Node version, CPUs and the 1-minute load average at `startLoad` and now. Other work on the
 * machine skews every figure, the ratios included; the start figure shows it (the end figure
 * includes the run's own load).
 */
export function describeMachine(startLoad) {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const load = `load average ${startLoad.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end`;
  return `node ${process.version}, ${availableParallelism()} × ${cpu}, ${load}`;
}

/** The 1-minute load average, to hand to `describeMachine` at the end. */
export const currentLoad = () => loadavg()[0];

export const ratio = (a, b) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
