/**
 * Boots the real application on a fresh database with a clock the test can move. Tests speak
 * HTTP to it through `app.inject`, the same router, hooks and serialisers as a real socket.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { buildLoggerOptions } from '../http/logging.js';
import type { ServerRole } from '../http/roles.js';
import { createManualClock } from '../lib/clock.js';
import { openTestDatabase } from './database.js';

export const SETUP_TOKEN = 'test-setup-token-0123456789';
export const ADMIN = { email: 'owner@example.com', password: 'correct horse battery' };

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  clock: ReturnType<typeof createManualClock>;
  config: Config;
  /** Every log line written so far, as text. */
  logs(): string;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** `env` reaches `loadConfig`; `LOG_LEVEL` (default `info`) sets the level of the captured log. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { role?: ServerRole } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const clock = createManualClock(new Date());
  const config = loadConfig({ SETUP_TOKEN, SECRET_KEY: 'k'.repeat(40), LOG_LEVEL: 'info', ...env });
  const stream = new PassThrough();
  let logText = '';
  stream.on('data', (chunk) => {
    logText += chunk.toString();
  });
  const app = await buildApp({
    config,
    database,
    clock,
    logger: buildLoggerOptions(config.logLevel, stream),
    role: options.role,
  });
  // A test may close early (to flush the log); the file's own teardown then finds it closed.
  let closing: Promise<void> | undefined;
  return {
    app,
    database,
    clock,
    config,
    logs: () => logText,
    request: (options) => app.inject(options),
    close() {
      closing ??= app.close().then(() => database.close());
      return closing;
    },
  };
}

export interface Owner {
  accountId: string;
  userId: string;
  apiKey: string;
  cookie: string;
}

/** The app of one test file, with its owner (setup run and signed in) unless asked not to. */
export interface TestContext extends TestApp {
  owner: Owner;
}

/**
 * A test file's whole setup in one line: `const t = useTestApp()` boots the app on a fresh
 * database before the file's tests (and runs setup unless `owner: false`), and closes both after
 * them. Tests in a file share the app; each makes the sites or accounts it needs.
 */
export function useTestApp(
  env: Record<string, string> = {},
  options: { role?: ServerRole; owner?: boolean } = {},
): TestContext {
  let current: TestApp | undefined;
  let owner: Owner | undefined;
  beforeAll(async () => {
    current = await createTestApp(env, { role: options.role });
    if (options.owner !== false) owner = await setUpOwner(current);
  });
  afterAll(() => current?.close());
  const ready = (): TestApp => {
    if (!current) throw new Error('useTestApp: the app exists from beforeAll on, inside tests and hooks');
    return current;
  };
  return {
    get app() {
      return ready().app;
    },
    get database() {
      return ready().database;
    },
    get clock() {
      return ready().clock;
    },
    get config() {
      return ready().config;
    },
    get owner() {
      if (!owner) throw new Error('useTestApp: this file asked for no owner');
      return owner;
    },
    logs: () => ready().logs(),
    request: (options) => ready().request(options),
    close: () => ready().close(),
  };
}

/** Runs first-time setup and signs the admin in. */
export async function setUpOwner(t: TestApp): Promise<Owner> {
  const setup = await t.request({
    method: 'POST',
    url: '/v1/setup',
    payload: { setup_token: SETUP_TOKEN, ...ADMIN, account_name: 'Acme' },
  });
  if (setup.statusCode !== 201) throw new Error(`setup failed: ${setup.body}`);
  const body = setup.json();
  return {
    accountId: body.account_id,
    userId: body.user_id,
    apiKey: body.api_key,
    cookie: await login(t, ADMIN),
  };
}

/** Signs in and returns the `Cookie` header value for the session. */
export async function login(t: TestApp, who: { email: string; password: string }): Promise<string> {
  const response = await t.request({ method: 'POST', url: '/v1/auth/login', payload: who });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === 'tt_session');
  if (!cookie) throw new Error('no session cookie');
  return `tt_session=${cookie.value}`;
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** Mints a key with the given scopes through the API, as the owner's session. */
export async function mintKey(
  t: TestApp,
  cookie: string,
  body: { scopes: string[]; name?: string; site_id?: string; expires_at?: string },
): Promise<{ id: string; api_key: string }> {
  const response = await t.request({
    method: 'POST',
    url: '/v1/account/keys',
    headers: { cookie },
    payload: { name: 'test key', ...body },
  });
  if (response.statusCode !== 201) throw new Error(`key creation failed: ${response.body}`);
  return response.json();
}
