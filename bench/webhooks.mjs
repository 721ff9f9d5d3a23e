/**
 * Webhook delivery throughput: DELIVERIES facts (10,000) are queued in the outbox at once for one
 * endpoint, and the built server's delivery worker (fan-out, lease, signed undici POST, record)
 * sends them to a local HTTPS receiver on a worker thread that answers 204 at once. Prints
 * deliveries/s and the p50/p99 time from enqueue (the outbox commit) to the receiver's 2xx, next
 * to a baseline of bare undici POSTs to the same receiver at the same concurrency (no database,
 * no signing). Exits 1 unless every delivery succeeded exactly once. Figures go into
 * bench/RESULTS.md by hand. Environment: DELIVERIES (10000), CONCURRENCY (32),
 * BENCH_DATABASE_URL (a PostgreSQL admin URL; embedded PGlite in memory when unset).
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { Agent } from 'undici';
import { buildIfStale } from '../scripts/server-dist.mjs';
import { createThrowawayDatabase } from './ingest-db.mjs';
import { currentLoad, describeMachine, printTable, runBenchmark } from './lib.mjs';
import { createTestPki } from './test-pki.mjs';

const DELIVERIES = Number(process.env.DELIVERIES ?? 10_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 32);
const dist = (file) => new URL(`../packages/server/dist/${file}`, import.meta.url).href;

const RECEIVER = `
  import { createServer } from 'node:https';
  import { parentPort, workerData } from 'node:worker_threads';
  const seen = new Map();
  const server = createServer(workerData.tls, (request, response) => {
    const id = request.headers['webhook-id'];
    request.resume();
    request.on('end', () => {
      seen.set(id, (seen.get(id) ?? []).concat(Date.now()));
      response.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
  parentPort.on('message', () => parentPort.postMessage({ seen: [...seen] }));
`;

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function startReceiver(tls) {
  const worker = new Worker(RECEIVER, { eval: true, workerData: { tls } });
  const [{ port }] = await once(worker, 'message');
  return {
    url: `https://127.0.0.1:${port}/hook`,
    async arrivals() {
      worker.postMessage('report');
      const [{ seen }] = await once(worker, 'message');
      return new Map(seen);
    },
    stop: () => worker.terminate(),
  };
}

/** Bare undici POSTs, `concurrency` at a time: the ceiling the worker is measured against. */
async function baseline(url, ca, count, concurrency) {
  const agent = new Agent({ connect: { ca } });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        const response = await agent.request({
          origin: new URL(url).origin,
          path: '/hook',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'webhook-id': `base_${next}` },
          body: '{"type":"baseline"}',
        });
        await response.body.dump();
      }
    }),
  );
  await agent.close();
  return count / ((performance.now() - started) / 1000);
}

async function setUp(db) {
  const now = new Date();
  const accountId = randomUUID();
  const site = {
    id: randomUUID(),
    account_id: accountId,
    snippet_key: `ttid_${'b'.repeat(22)}`,
    domain: 'bench.example',
    name: null,
    region: 'eu',
    created_at: now,
  };
  await db
    .insertInto('accounts')
    .values({ id: accountId, name: 'Bench', site_limit: 10, created_at: now })
    .execute();
  await db.insertInto('sites').values(site).execute();
  return site;
}

async function enqueue(db, siteId, count) {
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, count - start) }, () => {
        const visit = randomUUID();
        return {
          site_id: siteId,
          id: randomUUID(),
          type: 'ai_session.classified',
          dedupe_key: visit,
          payload: JSON.stringify({ visit_id: visit, ai_source: 'chatgpt' }),
          created_at: new Date(),
        };
      });
      await trx.insertInto('outbox_events').values(rows).execute();
    }
  });
  return Date.now();
}

await runBenchmark(async (cleanups) => {
  if ((await buildIfStale()) !== 0) throw new Error('the server build failed');
  const [{ openDatabase }, { migrate }, { createWebhooksService }, { systemClock }] = await Promise.all(
    ['db/database.js', 'db/migrate.js', 'webhooks/webhooks.service.js', 'lib/clock.js'].map(
      (f) => import(dist(f)),
    ),
  );
  const startLoad = currentLoad();
  const pki = createTestPki();
  cleanups.add(() => pki.remove());
  const receiver = await startReceiver(pki.leaf);
  cleanups.add(() => receiver.stop());
  const adminUrl = process.env.BENCH_DATABASE_URL;
  const target = adminUrl
    ? { kind: 'postgres', url: await createThrowawayDatabase(adminUrl, cleanups), poolSize: 10 }
    : { kind: 'pglite' };
  const database = await openDatabase(target);
  cleanups.add(() => database.close());
  await migrate(database.db);
  const site = await setUp(database.db);
  const config = {
    secretKey: 'b'.repeat(40),
    webhookAllowPrivateTargets: true,
    extraCaCertsFile: pki.caFile,
  };
  const service = createWebhooksService({
    db: database.db,
    clock: systemClock,
    config,
    sites: { resolveSite: async () => site },
  });
  cleanups.add(() => service.close());
  const principal = { kind: 'session', accountId: site.account_id, userId: randomUUID(), role: 'admin' };
  const hook = await service.create(principal, site.snippet_key, { url: receiver.url });

  const enqueuedAt = await enqueue(database.db, site.id, DELIVERIES);
  let delivered = 0;
  while (delivered < DELIVERIES) {
    const report = await service.runDeliveriesOnce({ concurrency: CONCURRENCY, maxAttempts: DELIVERIES });
    delivered += report.succeeded;
    if (report.attempted === 0 && report.dispatched.facts === 0)
      throw new Error(`stalled at ${delivered} deliveries`);
  }
  const seconds = (Date.now() - enqueuedAt) / 1000;
  const arrivals = await receiver.arrivals();
  // Every envelope id but the creation ping's.
  const events = arrivals.size - 1;
  const duplicates = [...arrivals.values()].filter((times) => times.length > 1).length;
  if (events !== DELIVERIES || duplicates > 0)
    throw new Error(`${events} delivered, ${duplicates} duplicated`);
  const latencies = [...arrivals.values()]
    .map((times) => times[0] - enqueuedAt)
    .filter((ms) => ms >= 0)
    .sort((a, b) => a - b);
  const bare = await baseline(receiver.url, readFileSync(pki.caFile, 'utf8'), DELIVERIES, CONCURRENCY);
  const rate = DELIVERIES / seconds;
  printTable(
    [
      { name: 'bare undici POST', okPerSecond: Math.round(bare), non2xx: 0, errors: 0 },
      {
        name: `delivery worker (${target.kind})`,
        okPerSecond: Math.round(rate),
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        non2xx: 0,
        errors: 0,
      },
    ],
    'per s',
  );
  process.stdout.write(
    `\n${DELIVERIES} deliveries to ${hook.url}, concurrency ${CONCURRENCY}: ` +
      `${rate.toFixed(0)} deliveries/s (ratio to bare ${(rate / bare).toFixed(2)}), ` +
      `enqueue→2xx p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms\n${describeMachine(startLoad)}\n`,
  );
});
