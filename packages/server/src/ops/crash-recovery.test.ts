/**
 * The compiled server as an operator runs it (`node scripts/start.mjs`), killed with SIGKILL in
 * the middle of a stream of writes and started again: everything that was acknowledged is there.
 * Runs on PGlite in a temporary folder, or on a fresh PostgreSQL database when DATABASE_URL is set.
 */
import { type ChildProcess, spawn } from 'node:child_process';
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
const SETUP_TOKEN = 'crash-test-setup-token-123';
const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base: string, child: ChildProcess): Promise<void> {
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

describe('crash recovery', () => {
  let dataDir: string;
  let databaseUrl: string | undefined;
  let port: number;
  let base: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'touchtrail-crash-'));
    const adminUrl = process.env.DATABASE_URL;
    if (adminUrl) {
      const name = `tt_crash_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      databaseUrl = withDatabaseName(adminUrl, name);
    }
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
  });

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
    // Its own process group: the kill reaches the wrapper and the server alike, as a crash would.
    return spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], {
      cwd: ROOT,
      env,
      stdio: 'ignore',
      detached: true,
    });
  }

  it('loses nothing acknowledged when killed with SIGKILL mid-stream', async () => {
    let server = start();
    await waitForHealth(base, server);
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
    const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/v1/sites`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ domain: 'crash.example.com' }),
    });
    expect(created.status).toBe(201);
    const { snippet_key: snippetKey } = (await created.json()) as { snippet_key: string };

    const acknowledged: string[] = [];
    let stop = false;
    const writer = async (worker: number) => {
      for (let i = 0; !stop; i++) {
        const eid = `w${worker}e${i}${randomBytes(6).toString('hex')}`;
        try {
          const response = await fetch(`${base}/v1/collect`, {
            method: 'POST',
            headers: { 'content-type': 'text/plain', 'user-agent': UA },
            body: JSON.stringify({
              type: 'pageview',
              site: snippetKey,
              vid: `visitor${worker}xx`,
              eid,
              url: 'https://crash.example.com/',
            }),
          });
          if (response.status === 202) acknowledged.push(eid);
        } catch {
          return;
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, worker) => writer(worker));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const killed = new Promise((resolve) => server.once('exit', resolve));
    process.kill(-(server.pid as number), 'SIGKILL');
    stop = true;
    await Promise.all(writers);
    await killed;
    expect(acknowledged.length).toBeGreaterThan(20);

    server = start();
    await waitForHealth(base, server);
    const keys = await fetch(`${base}/v1/account/keys`, { headers: auth });
    expect(keys.status).toBe(200);
    const stopped = new Promise((resolve) => server.once('exit', resolve));
    process.kill(-(server.pid as number), 'SIGTERM');
    expect(await stopped).toBe(0);

    const database = await openDatabase(
      databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite', dataDir },
    );
    try {
      const stored = new Set(
        (
          await database.db
            .selectFrom('events')
            .select('event_id')
            .where('event_id', 'in', acknowledged)
            .execute()
        ).map((row) => row.event_id),
      );
      const missing = acknowledged.filter((eid) => !stored.has(eid));
      expect(missing).toEqual([]);
    } finally {
      await database.close();
    }
  }, 240_000);
});
