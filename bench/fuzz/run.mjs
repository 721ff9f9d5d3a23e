/**
 * Fuzzing, `npm run bench:fuzz`: randomized malformed requests against every operation
 * of the built server's own OpenAPI document, on a fresh PGlite folder or, with BENCH_DATABASE_URL,
 * a throwaway PostgreSQL database. Looks for 5xx answers, Fastify's default error bodies, stack traces, SQL or
 * a known secret in a body, a 2xx on another account's id, requests that hang, and error-level
 * log lines that no 5xx explains. Prints a summary and exits 1 on any finding. Not a test: the
 * figures go into bench/RESULTS.md by hand.
 * Environment: FUZZ_REQUESTS (20000), FUZZ_SEED (random, printed; the same seed sends the same
 * requests), FUZZ_ONLY (send only request number N of that seed), FUZZ_CONCURRENCY (8),
 * FUZZ_MAX_S (600, the sending phase's budget), FUZZ_TIMEOUT_MS (15000, after which a request
 * counts as hung), BENCH_DATABASE_URL (a PostgreSQL admin URL).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createThrowawayDatabase } from '../ingest-db.mjs';
import { currentLoad, runBenchmark } from '../lib.mjs';
import { insertRivalAccount } from './accounts.mjs';
import { call } from './api.mjs';
import { checkLog } from './classify.mjs';
import { operationsOf } from './operations.mjs';
import { report } from './report.mjs';
import { fuzz } from './send.mjs';
import { createLog, startReceiver, startServerWithLog } from './server.mjs';
import { setUp } from './setup.mjs';

function integerFromEnv(name, fallback, min = 1) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

async function main(cleanups) {
  const options = {
    seed: integerFromEnv('FUZZ_SEED', randomBytes(4).readUInt32BE(0), 0),
    requests: integerFromEnv('FUZZ_REQUESTS', 20_000),
    concurrency: integerFromEnv('FUZZ_CONCURRENCY', 8),
    maxSeconds: integerFromEnv('FUZZ_MAX_S', 600),
    timeoutMs: integerFromEnv('FUZZ_TIMEOUT_MS', 15_000),
    only: process.env.FUZZ_ONLY ? integerFromEnv('FUZZ_ONLY', 0, 0) : undefined,
  };
  const startLoad = currentLoad();
  process.stderr.write(`fuzz seed ${options.seed} (FUZZ_SEED=${options.seed} replays this run)\n`);
  const receiver = await startReceiver(cleanups);
  const setupToken = randomBytes(24).toString('hex');
  const secretKey = randomBytes(32).toString('hex');
  const owner = { email: 'owner@fuzz.example', password: 'the owner password 1' };
  const rival = {
    accountId: randomUUID(),
    userId: randomUUID(),
    email: 'rival@fuzz.example',
    password: 'the rival password 1',
  };
  const fx = {
    setupToken,
    receiverUrl: receiver.url,
    rival,
    secrets: [
      { label: 'setup token', value: setupToken },
      { label: 'SECRET_KEY', value: secretKey },
    ],
  };

  let storage;
  let engine;
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (adminUrl) {
    const url = await createThrowawayDatabase(adminUrl, cleanups);
    storage = { env: { DATABASE_URL: url }, target: { kind: 'postgres', url } };
    engine = 'PostgreSQL';
  } else {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'touchtrail-fuzz-'));
    cleanups.add(() => rmSync(dataDir, { recursive: true, force: true }));
    storage = { env: { DATA_DIR: dataDir }, target: { kind: 'pglite', dataDir } };
    engine = 'PGlite';
  }
  // REDIS_URL, DATA_DIR and DATABASE_URL from the shell would change the set-up under test.
  const { REDIS_URL, DATA_DIR, DATABASE_URL, ...shellEnv } = process.env;
  const env = {
    ...shellEnv,
    ...storage.env,
    SETUP_TOKEN: setupToken,
    SECRET_KEY: secretKey,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'loopback',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    NODE_EXTRA_CA_CERTS: receiver.caFile,
  };
  const log = createLog();

  // Setup makes the first account; the rival is written while the server is down (PGlite has
  // one process), then the server starts again for the run.
  let server = await startServerWithLog(env, cleanups, log);
  fx.ownerKey = (
    await call(server.baseUrl, 'POST', '/v1/setup', {
      body: { setup_token: setupToken, ...owner, account_name: 'Fuzz' },
    })
  ).json.api_key;
  await server.stop();
  await insertRivalAccount(storage.target, rival);
  server = await startServerWithLog(env, cleanups, log);
  await setUp(server, fx, owner);
  const document = await call(server.baseUrl, 'GET', '/v1/openapi.json').then((r) => r.json);
  const operations = operationsOf(document);
  process.stderr.write(`${operations.length} operations; sending up to ${options.requests} requests\n`);

  const started = performance.now();
  const stats = await fuzz(server, fx, operations, options);
  const seconds = (performance.now() - started) / 1000;
  const exitedEarly = server.exitedEarly;
  await server.stop();
  // Let the last log lines through the pipe.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const logCheck = checkLog(log, stats, fx);
  report({
    operationCount: operations.length,
    options,
    engine,
    startLoad,
    stats,
    logCheck,
    seconds,
    exitedEarly,
  });
}

await runBenchmark(main);
