/**
 * One real server per test file (the server's test app on PGlite or PostgreSQL, listening on a
 * free port) and `run()`, which starts the BUILT `touchtrail` binary against it in a clean
 * environment: only the variables a test passes, a private config folder, no colour.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, mintKey, type Owner, setUpOwner, type TestApp } from '../../server/src/test/app.js';
import { insertSite } from '../../server/src/test/factories.js';

const BIN = fileURLToPath(new URL('../bin/touchtrail.js', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  /** Called with the child as soon as it starts (to signal it). */
  onStart?: (child: ReturnType<typeof spawn>) => void;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<Run> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', NO_COLOR: '1' };
  for (const [name, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[name] = value;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
    options.onStart?.(child);
  });
}

/** A port nothing listens on: bound, then released. */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const freshConfigFolder = () => mkdtempSync(path.join(tmpdir(), 'touchtrail-cli-'));

export interface CliServer {
  t: TestApp;
  owner: Owner;
  url: string;
  /** An all-scope key (the setup key). */
  key: string;
  /** The snippet key of a site made for the file. */
  site: string;
  siteUuid: string;
  siteDomain: string;
  /** Runs the CLI with this server's URL, key and site in its environment (overridable). */
  run(args: string[], options?: RunOptions): Promise<Run>;
  /** Calls the API directly with the key, to compare the CLI's output with what it answers. */
  api<T = unknown>(
    method: string,
    pathAndQuery: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }>;
  mint(scopes: string[]): Promise<{ id: string; api_key: string }>;
}

/** `env` reaches the server's configuration (e.g. to let webhooks reach a local receiver). */
export function useCliServer(env: Record<string, string> = {}): CliServer {
  const server = {} as CliServer;
  beforeAll(async () => {
    const t = await createTestApp(env);
    const owner = await setUpOwner(t);
    const site = await insertSite(t, owner.accountId, { domain: 'shop.example.com', name: 'Shop 🛍' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const config = freshConfigFolder();
    Object.assign(server, {
      t,
      owner,
      url,
      key: owner.apiKey,
      site: site.snippet_key,
      siteUuid: site.id,
      siteDomain: site.domain,
      run: (args: string[], options: RunOptions = {}) =>
        runCli(args, {
          ...options,
          env: {
            TOUCHTRAIL_URL: url,
            TOUCHTRAIL_API_KEY: owner.apiKey,
            TOUCHTRAIL_SITE: site.snippet_key,
            XDG_CONFIG_HOME: config,
            ...options.env,
          },
        }),
      async api(method: string, pathAndQuery: string, body?: unknown) {
        const response = await fetch(`${url}${pathAndQuery}`, {
          method,
          headers: {
            authorization: `Bearer ${owner.apiKey}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : undefined };
      },
      mint: (scopes: string[]) => mintKey(t, owner.cookie, { scopes }),
    });
  });
  afterAll(() => server.t?.close());
  return server;
}

/** `JSON.parse` of a run's stdout, failing with the run's output when it is not JSON. */
export function jsonOf<T = unknown>(run: Run): T {
  try {
    return JSON.parse(run.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}
