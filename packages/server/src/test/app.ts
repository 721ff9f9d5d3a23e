/**
 * Boots the real application on a fresh database with a clock the test can move. Tests speak
 * HTTP to it through `app.inject`, the same router, hooks and serialisers as a real socket.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../app.js';
import type { ClickHouse } from '../clickhouse/connection.js';
import { type Config, loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { SESSION_COOKIE } from '../http/authenticate.js';
import { buildLoggerOptions } from '../http/logging.js';
import type { ServerRole } from '../http/roles.js';
import { createManualClock } from '../lib/clock.js';
import { CLICKHOUSE_FOR_EVERY_APP, openTestClickHouse } from './clickhouse.js';
import { openTestDatabase } from './database.js';

export const SETUP_TOKEN = 'test-setup-token-0123456789';
export const ADMIN = { email: 'owner@example.com', password: 'correct horse battery' };

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  clock: ReturnType<typeof createManualClock>;
  config: Config;
  /** The app's ClickHouse, when it runs with one (`options.clickhouse`, or every app in the third run). */
  clickhouse?: ClickHouse;
  /** Every log line written so far, as text. */
  logs(): string;
  /**
   * Sends a request as the dashboard would: a write carrying the session cookie gets the app's
   * own `Origin` (of the test's `Host`, else inject's `http://localhost:80`) unless it sets
   * `Origin` or `Referer` itself, as a browser adds one to every write it sends (CSRF
   * protection, http/csrf.ts). `rawRequest` sends a request untouched, e.g. with no `Origin`.
   */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** Sends exactly what it is given, adding no `Origin` (for the CSRF tests). */
  rawRequest(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** `env` reaches `loadConfig`; `LOG_LEVEL` (default `info`) sets the level of the captured log. */
export async function createTestApp(
  env: Record<string, string> = {},
  options: { role?: ServerRole; dashboardDir?: string; clickhouse?: boolean } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const clickhouse =
    (options.clickhouse ?? CLICKHOUSE_FOR_EVERY_APP) ? await openTestClickHouse() : undefined;
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
    dashboardDir: options.dashboardDir,
    clickhouse,
  });
  const engine = app.services.clickhouseEngine;
  await engine?.ensureSchema();
  // A failed ClickHouse read would be answered by PostgreSQL and pass unseen: in tests it fails
  // the request instead (engines-agree.test.ts tests the fallback with reads of its own).
  if (engine)
    engine.reads.onFailure = (error) => {
      throw error;
    };
  // With ClickHouse, a read first copies what has been committed, as a running server's shipper
  // would have a moment later; the reads of unshipped rows have tests of their own.
  const inject = async (options: InjectOptions) => {
    // A test of a failing database breaks the copy too; the request then shows what it does.
    if (engine && (options.method ?? 'GET') === 'GET') await engine.shipper.shipAll().catch(() => {});
    return app.inject(options);
  };
  // A test may close early (to flush the log); the file's own teardown then finds it closed.
  let closing: Promise<void> | undefined;
  return {
    app,
    database,
    clock,
    config,
    clickhouse,
    logs: () => logText,
    request: (options) => inject(asDashboard(options)),
    rawRequest: (options) => inject(options),
    close() {
      closing ??= app
        .close()
        .then(() => database.close())
        .then(() => clickhouse?.close());
      return closing;
    },
  };
}

/** The origin light-my-request's default `Host` (`localhost:80`) gives the app. */
export const APP_ORIGIN = 'http://localhost:80';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

type Headers = NonNullable<InjectOptions['headers']>;
const headerValue = (headers: Headers, name: string) =>
  Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];

function hasSessionCookie(options: InjectOptions): boolean {
  const { cookies } = options;
  if (Array.isArray(cookies) ? cookies.some((c) => c.name === SESSION_COOKIE) : cookies?.[SESSION_COOKIE]) {
    return true;
  }
  const header = String(headerValue(options.headers ?? {}, 'cookie') ?? '');
  return header.split(';').some((pair) => pair.trim().startsWith(`${SESSION_COOKIE}=`));
}

/** What a browser adds to the dashboard's writes: its own page's `Origin`. */
function asDashboard(options: InjectOptions): InjectOptions {
  if (SAFE_METHODS.has((options.method ?? 'GET').toUpperCase()) || !hasSessionCookie(options)) return options;
  const headers = options.headers ?? {};
  if (headerValue(headers, 'origin') !== undefined || headerValue(headers, 'referer') !== undefined)
    return options;
  const host = headerValue(headers, 'host');
  return { ...options, headers: { ...headers, origin: host ? `http://${host}` : APP_ORIGIN } };
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
  options: { role?: ServerRole; owner?: boolean; dashboardDir?: string; clickhouse?: boolean } = {},
): TestContext {
  let current: TestApp | undefined;
  let owner: Owner | undefined;
  beforeAll(async () => {
    current = await createTestApp(env, options);
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
    get clickhouse() {
      return ready().clickhouse;
    },
    get owner() {
      if (!owner) throw new Error('useTestApp: this file asked for no owner');
      return owner;
    },
    logs: () => ready().logs(),
    request: (options) => ready().request(options),
    rawRequest: (options) => ready().rawRequest(options),
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
