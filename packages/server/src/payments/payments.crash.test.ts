/**
 * A payment load against the compiled server (`dist/main.js`, spawned directly so SIGKILL hits
 * the process that holds the database), killed mid-run and started again: every payment that
 * got a 202 is stored exactly once, with its conversion event and attribution job, and retrying
 * the posts that got no answer records each of them once. PGlite in a temporary folder, or a
 * fresh PostgreSQL database when DATABASE_URL is set.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { withDatabaseName } from '../test/global-setup.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const MAIN = path.join(ROOT, 'packages/server/dist/main.js');
const SETUP_TOKEN = 'payment-crash-setup-token-1';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForReady(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not become ready');
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

describe('payments survive a crash', () => {
  let dataDir: string;
  let databaseUrl: string | undefined;
  let base: string;
  let port: number;

  beforeAll(async () => {
    const build = spawnSync(
      process.execPath,
      ['-e', "import('./scripts/server-dist.mjs').then(async (m) => process.exit(await m.buildIfStale()))"],
      { cwd: ROOT, stdio: 'inherit' },
    );
    if (build.status !== 0) throw new Error('could not build the server');
    dataDir = await mkdtemp(path.join(tmpdir(), 'touchtrail-pay-crash-'));
    if (process.env.DATABASE_URL) {
      const name = `tt_pay_crash_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      databaseUrl = withDatabaseName(process.env.DATABASE_URL, name);
    }
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
  }, 300_000);

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    if (databaseUrl && process.env.DATABASE_URL) {
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${new URL(databaseUrl).pathname.slice(1)} with (force)`);
      await admin.end();
    }
  });

  function start(): ChildProcess {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SETUP_TOKEN,
      LOG_LEVEL: 'warn',
      RATES_URL: 'off',
    };
    if (databaseUrl) env.DATABASE_URL = databaseUrl;
    else delete env.DATABASE_URL;
    return spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: 'ignore' });
  }

  it('stores every acknowledged payment exactly once after SIGKILL and restart', async () => {
    let server = start();
    await waitForReady(base, server);
    const setup = await fetch(`${base}/v1/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        setup_token: SETUP_TOKEN,
        email: 'ops@example.com',
        password: 'a long password',
      }),
    });
    expect(setup.status).toBe(201);
    const { api_key: apiKey } = (await setup.json()) as { api_key: string };
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/v1/sites`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ domain: 'pay-crash.example.com' }),
    });
    expect(created.status).toBe(201);
    const { snippet_key: siteKey } = (await created.json()) as { snippet_key: string };
    const pay = (transactionId: string) =>
      fetch(`${base}/v1/server/payments`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          site_id: siteKey,
          transaction_id: transactionId,
          amount: 19.99,
          currency: 'USD',
          provider: 'stripe',
        }),
      });

    const attempted: string[] = [];
    const acknowledged = new Set<string>();
    let isStopping = false;
    const worker = async (id: number) => {
      for (let i = 0; !isStopping; i++) {
        // Every fourth post repeats an earlier one, as a processor retrying a webhook would.
        const earlier = attempted[Math.floor(Math.random() * attempted.length)];
        const transactionId =
          i % 4 === 3 && earlier ? earlier : `ch_w${id}_${i}_${randomBytes(4).toString('hex')}`;
        if (transactionId !== earlier) attempted.push(transactionId);
        try {
          const response = await pay(transactionId);
          if (response.status === 202) acknowledged.add(transactionId);
        } catch {
          return;
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, id) => worker(id));
    // Killed once the load is well under way, with posts in flight (however fast this machine is).
    const deadline = Date.now() + 60_000;
    while (acknowledged.size < 100 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    server.kill('SIGKILL');
    isStopping = true;
    await Promise.all(workers);
    await exited(server);
    expect(acknowledged.size).toBeGreaterThan(20);

    server = start();
    await waitForReady(base, server);
    // Posts that got no answer may or may not have committed: retried, each is recorded once.
    for (const transactionId of attempted.filter((id) => !acknowledged.has(id))) {
      const response = await pay(transactionId);
      expect(response.status).toBe(202);
      expect(['recorded', 'duplicate']).toContain(((await response.json()) as { status: string }).status);
    }
    server.kill('SIGTERM');
    expect(await exited(server)).toBe(0);

    const database = await openDatabase(
      databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite', dataDir },
    );
    try {
      const payments = await database.db.selectFrom('payments').select(['id', 'transaction_id']).execute();
      const count = new Map<string, number>();
      for (const p of payments) count.set(p.transaction_id, (count.get(p.transaction_id) ?? 0) + 1);
      expect([...acknowledged].filter((id) => count.get(id) !== 1)).toEqual([]);
      expect(attempted.filter((id) => count.get(id) !== 1)).toEqual([]);
      expect(payments).toHaveLength(attempted.length);
      const events = await database.db
        .selectFrom('events')
        .select('event_id')
        .where('name', '=', 'payment')
        .execute();
      const jobs = await database.db.selectFrom('attribution_jobs').select('event_id').execute();
      const expected = payments.map((p) => `pay_${p.id}`).sort();
      expect(events.map((e) => e.event_id).sort()).toEqual(expected);
      expect(
        jobs
          .map((j) => j.event_id)
          .filter((id) => id.startsWith('pay_'))
          .sort(),
      ).toEqual(expected);
    } finally {
      await database.close();
    }
  }, 300_000);
});
