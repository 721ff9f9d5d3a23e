/**
 * The compiled server as an operator runs it, for whole-process tests: built if stale, started
 * as a child on a free port, on PGlite in a temporary folder or on a fresh PostgreSQL database
 * (when DATABASE_URL is set), and killed however the test likes. Each child runs in its own
 * process group, so a kill reaches every process of it, as a crash would.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type Database, openDatabase } from '../db/database.js';
import { withDatabaseName } from './global-setup.js';

/** The owner `setUpSite` creates, for tests that log in as them. */
export const PROCESS_OWNER = { email: 'ops@example.com', password: 'a long password' };

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** The compiled entry point that `prepareServerProcess` builds when stale. */
export const SERVER_MAIN = path.join(ROOT, 'packages/server/dist/main.js');
const READY_TIMEOUT_MS = 120_000;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves with the exit code once the child has exited (at once if it already has). */
export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

export interface StartOptions {
  /** Receives the server's standard output (its log lines and start-up text) as it comes. */
  onStdout?: (text: string) => void;
}

export interface ServerProcess {
  base: string;
  /** Starts the server; call again after a kill to restart it on the same storage. */
  start(options?: StartOptions): Promise<ChildProcess>;
  kill(child: ChildProcess, signal: 'SIGKILL' | 'SIGTERM'): Promise<number | null>;
  /** Runs setup and creates a site: the all-scope key and the site's snippet key. */
  setUpSite(domain: string): Promise<{ apiKey: string; snippetKey: string }>;
  /** Opens the server's storage directly (only once the server is stopped, for PGlite). */
  openStore(): Promise<Database>;
  cleanUp(): Promise<void>;
}

export async function prepareServerProcess(
  label: string,
  extraEnv: Record<string, string> = {},
): Promise<ServerProcess> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `touchtrail-${label}-`));
  const adminUrl = process.env.DATABASE_URL;
  let databaseUrl: string | undefined;
  if (adminUrl) {
    const name = `tt_${label.replaceAll('-', '_')}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    databaseUrl = withDatabaseName(adminUrl, name);
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const setupToken = `setup-${randomBytes(12).toString('hex')}`;

  return {
    base,
    async start(options = {}) {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SETUP_TOKEN: setupToken,
        LOG_LEVEL: 'warn',
        // Tests stay on this machine: no exchange-rate downloads.
        RATES_URL: 'off',
        // Storing the packaged rate history costs seconds on each fresh database; no test here needs it.
        RATES_SNAPSHOT: 'off',
        CRAWLER_RANGES: 'off',
        ...extraEnv,
      };
      if (databaseUrl) env.DATABASE_URL = databaseUrl;
      else delete env.DATABASE_URL;
      const child = spawn(process.execPath, [SERVER_MAIN], {
        cwd: ROOT,
        env,
        stdio: ['ignore', options.onStdout ? 'pipe' : 'ignore', 'ignore'],
        detached: true,
      });
      const onStdout = options.onStdout;
      if (onStdout) child.stdout?.on('data', (chunk: Buffer) => onStdout(chunk.toString()));
      const deadline = Date.now() + READY_TIMEOUT_MS;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
        try {
          if ((await fetch(`${base}/readyz`)).ok) return child;
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('server did not become ready');
    },
    kill(child, signal) {
      const done = exited(child);
      process.kill(-(child.pid as number), signal);
      return done;
    },
    async setUpSite(domain) {
      const setup = await fetch(`${base}/v1/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          setup_token: setupToken,
          ...PROCESS_OWNER,
        }),
      });
      if (setup.status !== 201) throw new Error(`setup answered ${setup.status}`);
      const { api_key: apiKey } = (await setup.json()) as { api_key: string };
      const created = await fetch(`${base}/v1/sites`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ domain }),
      });
      if (created.status !== 201) throw new Error(`site creation answered ${created.status}`);
      const { snippet_key: snippetKey } = (await created.json()) as { snippet_key: string };
      return { apiKey, snippetKey };
    },
    openStore: () =>
      openDatabase(databaseUrl ? { kind: 'postgres', url: databaseUrl } : { kind: 'pglite', dataDir }),
    async cleanUp() {
      await rm(dataDir, { recursive: true, force: true });
      if (databaseUrl && adminUrl) {
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`drop database if exists ${new URL(databaseUrl).pathname.slice(1)} with (force)`);
        await admin.end();
      }
    },
  };
}
