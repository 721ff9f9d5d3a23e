/**
 * The only reader of `process.env`. Every variable is validated at start; a bad value stops the
 * process with one line naming the variable. The README's configuration table mirrors this file.
 */
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The ECB's daily euro reference rates, the default source of `RATES_URL`. */
export const ECB_DAILY_RATES_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

/** `TRUST_PROXY`: false, true, a hop count, or a comma-separated list of addresses/CIDRs. */
export type TrustProxy = boolean | number | string[];

/** proxy-addr's names for whole ranges, accepted by Fastify's `trustProxy`. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address or CIDR as proxy-addr (Fastify's `trustProxy`) will parse it, so start-up cannot fail later. */
function isProxyAddress(part: string): boolean {
  if (PROXY_RANGE_NAMES.has(part)) return true;
  if (!part.includes('/')) return ipaddr.isValid(part);
  try {
    ipaddr.parseCIDR(part);
    return true;
  } catch {
    return false;
  }
}

function parseTrustProxy(raw: string): TrustProxy | undefined {
  const value = raw.trim().toLowerCase();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value) <= 99 ? Number(value) : undefined;
  const parts = value.split(',').map((part) => part.trim());
  return parts.every(isProxyAddress) ? parts : undefined;
}

const schema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  SETUP_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SITE_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(100),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  TRUST_PROXY: z.string().default('false'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('warn'),
  GEOIP_DB: z.string().min(1).optional(),
  INGEST_RATE_LIMIT: z.coerce.number().int().min(0).max(10_000_000).default(3000),
  TRACKER_SCRIPT_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9._~/-]{1,100}$/, 'must be a path starting with /')
    .default('/t.js'),
  COLLECT_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9._~/-]{1,100}$/, 'must be a path starting with /')
    .default('/v1/collect'),
  RATES_URL: z
    .string()
    .refine(
      (value) => value.toLowerCase() === 'off' || (/^https?:\/\/\S+$/.test(value) && URL.canParse(value)),
      'must be an http:// or https:// URL, or off',
    )
    // fetch refuses URLs with credentials; a key belongs in the query string.
    .refine(
      (value) => !URL.canParse(value) || !/^https?:\/\/[^/?#]*@/.test(value),
      'must not hold a user name or password',
    )
    .default(ECB_DAILY_RATES_URL),
  RATES_REFRESH_HOURS: z.coerce.number().int().min(1).max(168).default(6),
  RATES_SNAPSHOT: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  CRAWLER_RANGES: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false'),
  NODE_EXTRA_CA_CERTS: z.string().min(1).optional(),
  // Defaults and why: http/server-timeouts.ts. Milliseconds, so tests can use short ones.
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(256),
  // Sign-in: one optional OpenID Connect provider, and optional email.
  OIDC_ISSUER: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).max(500).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  OIDC_SCOPES: z.string().min(1).max(1000).default('openid email profile'),
  OIDC_ALLOWED_DOMAINS: z.string().max(5000).optional(),
  OIDC_NAME: z.string().min(1).max(100).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/\S+$/, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).max(300).optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(500).optional(),
  CLICKHOUSE_URL: z
    .string()
    .regex(/^(https?:\/\/\S+|chdb:\/\/\/\S+)$/, 'must be an http(s):// URL or chdb:///absolute/folder')
    .optional(),
  CLICKHOUSE_CLUSTER: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, 'must be a cluster name: letters, digits and _')
    .optional(),
  TRAFFIC_PG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(14),
});

/** The OpenID Connect provider people may sign in with; undefined when `OIDC_ISSUER` is unset. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** Undefined for a public client (PKCE only). */
  clientSecret: string | undefined;
  scopes: string;
  /** Lower-case email domains whose verified addresses may join as `member`; empty: members only. */
  allowedDomains: string[];
  /** What the sign-in page calls the provider. */
  name: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  setupToken: string | undefined;
  siteLimit: number;
  secretKey: string | undefined;
  redisUrl: string | undefined;
  trustProxy: TrustProxy;
  logLevel: (typeof LOG_LEVELS)[number];
  /** A MaxMind-format city or country database; the packaged DB-IP country database when unset. */
  geoipDb: string | undefined;
  /** Collect requests per minute per client address; 0 turns the limit off. */
  ingestRateLimit: number;
  trackerScriptPath: string;
  collectPath: string;
  /** Where exchange rates are refreshed from; undefined when refreshing is off. */
  ratesUrl: string | undefined;
  ratesRefreshHours: number;
  /** Whether start-up stores the packaged ECB rate history (rates/rates-snapshot.ts) where rates are missing. */
  ratesSnapshot: boolean;
  /** Whether crawler operators' published address ranges are fetched (daily) to flag spoofed crawlers. */
  crawlerRanges: boolean;
  /** Test-only: webhooks may target loopback and private addresses. Unsafe in production. */
  webhookAllowPrivateTargets: boolean;
  /** Node's own NODE_EXTRA_CA_CERTS: a PEM file webhook deliveries trust beside the bundled roots. */
  extraCaCertsFile: string | undefined;
  /** Time allowed to receive a whole request, headers and body (Node's `requestTimeout`). */
  requestTimeoutMs: number;
  /** Time allowed to receive a request's headers (Node's `headersTimeout`); at most `requestTimeoutMs`. */
  headersTimeoutMs: number;
  /** How long an idle connection is kept open for the client's next request. */
  keepAliveTimeoutMs: number;
  /** Open connections one remote address may hold (a proxy counts as one address); 0 turns the bound off. */
  maxConnectionsPerAddress: number;
  oidc: OidcConfig | undefined;
  /** Where invitation and password-reset emails are sent through; undefined: links go to the admin instead. */
  smtpUrl: string | undefined;
  /** The From address of those emails. */
  mailFrom: string;
  /** The bearer token `GET /metrics` asks of a caller off the loopback; unset: only loopback reads it. */
  metricsToken: string | undefined;
  /** ClickHouse for traffic history (clickhouse/); undefined: PostgreSQL answers everything. */
  clickhouse: ClickHouseConfig | undefined;
  trafficPgRetentionDays: number;
}

export class ConfigError extends Error {}

export interface ClickHouseConfig {
  /** `http(s)://host:port` without credentials or path, or undefined for the in-process engine. */
  url: string | undefined;
  username: string | undefined;
  password: string | undefined;
  /** The in-process engine's folder (`chdb:///folder`). */
  chdbPath: string | undefined;
  database: string;
  cluster: string | undefined;
}

const CLICKHOUSE_DATABASE = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/** CLICKHOUSE_URL read: the database is the URL's path (default `touchtrail`). */
function clickhouseConfig(raw: string, cluster: string | undefined): ClickHouseConfig {
  if (raw.startsWith('chdb://')) {
    const folder = raw.slice('chdb://'.length);
    if (cluster)
      throw new ConfigError('CLICKHOUSE_CLUSTER: the in-process engine (chdb://) is one node; unset it');
    return {
      url: undefined,
      username: undefined,
      password: undefined,
      chdbPath: folder,
      database: 'touchtrail',
      cluster,
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('CLICKHOUSE_URL: is not a URL (see README.md)');
  }
  const database = decodeURIComponent(parsed.pathname.replace(/^\/+|\/+$/g, '')) || 'touchtrail';
  if (!CLICKHOUSE_DATABASE.test(database))
    throw new ConfigError('CLICKHOUSE_URL: the database (the URL path) must be letters, digits and _');
  return {
    url: `${parsed.protocol}//${parsed.host}`,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    chdbPath: undefined,
    database,
    cluster,
  };
}

/** localhost, 127.0.0.0/8 or [::1]: the hosts an http:// OpenID Connect issuer may use. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return ipaddr.isValid(host) && ipaddr.parse(host).range() === 'loopback';
}

/**
 * Reads the environment. Empty strings count as unset, as most shells and .env files intend,
 * except `RATES_URL`, where empty means off (the issue's contract).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(
      `${name}: ${issue?.message ?? 'invalid value'} (see the configuration table in README.md)`,
    );
  }
  const values = parsed.data;
  const trustProxy = parseTrustProxy(values.TRUST_PROXY);
  if (trustProxy === undefined) {
    throw new ConfigError(
      'TRUST_PROXY: must be true, false, a hop count (1 to 99), or a comma-separated list of addresses, CIDR ranges or loopback, linklocal, uniquelocal (see README.md)',
    );
  }
  if (values.HEADERS_TIMEOUT_MS > values.REQUEST_TIMEOUT_MS) {
    throw new ConfigError(
      `HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS (${values.REQUEST_TIMEOUT_MS}) (see README.md)`,
    );
  }
  if (values.OIDC_ISSUER && !values.OIDC_CLIENT_ID) {
    throw new ConfigError('OIDC_CLIENT_ID: must be set when OIDC_ISSUER is (see README.md)');
  }
  // Tokens and the provider's keys must not cross a network in clear; a loopback provider (tests,
  // a local Keycloak) may use http.
  if (values.OIDC_ISSUER?.startsWith('http://') && !isLoopbackHost(new URL(values.OIDC_ISSUER).hostname)) {
    throw new ConfigError(
      'OIDC_ISSUER: must be an https:// URL (http:// only for localhost or 127.0.0.1) (see README.md)',
    );
  }
  const publicUrl = (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '');
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir: path.resolve(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    publicUrl,
    setupToken: values.SETUP_TOKEN,
    siteLimit: values.SITE_LIMIT,
    secretKey: values.SECRET_KEY,
    redisUrl: values.REDIS_URL,
    trustProxy,
    logLevel: values.LOG_LEVEL,
    geoipDb: values.GEOIP_DB ? path.resolve(values.GEOIP_DB) : undefined,
    ingestRateLimit: values.INGEST_RATE_LIMIT,
    trackerScriptPath: values.TRACKER_SCRIPT_PATH,
    collectPath: values.COLLECT_PATH,
    // The one variable where empty is not unset: `RATES_URL=` turns refreshing off, as does `off`.
    ratesUrl: env.RATES_URL === '' || values.RATES_URL.toLowerCase() === 'off' ? undefined : values.RATES_URL,
    ratesRefreshHours: values.RATES_REFRESH_HOURS,
    ratesSnapshot: values.RATES_SNAPSHOT === 'on',
    crawlerRanges: values.CRAWLER_RANGES === 'on',
    webhookAllowPrivateTargets: values.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
    extraCaCertsFile: values.NODE_EXTRA_CA_CERTS ? path.resolve(values.NODE_EXTRA_CA_CERTS) : undefined,
    requestTimeoutMs: values.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: values.HEADERS_TIMEOUT_MS,
    keepAliveTimeoutMs: values.KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerAddress: values.MAX_CONNECTIONS_PER_ADDRESS,
    oidc: values.OIDC_ISSUER
      ? {
          issuer: values.OIDC_ISSUER,
          clientId: values.OIDC_CLIENT_ID ?? '',
          clientSecret: values.OIDC_CLIENT_SECRET,
          scopes: values.OIDC_SCOPES,
          allowedDomains: (values.OIDC_ALLOWED_DOMAINS ?? '')
            .split(',')
            .map((domain) => domain.trim().toLowerCase())
            .filter(Boolean),
          name: values.OIDC_NAME ?? new URL(values.OIDC_ISSUER).hostname,
        }
      : undefined,
    smtpUrl: values.SMTP_URL,
    mailFrom: values.MAIL_FROM ?? `Touchtrail <no-reply@${new URL(publicUrl).hostname}>`,
    metricsToken: values.METRICS_TOKEN,
    clickhouse: values.CLICKHOUSE_URL
      ? clickhouseConfig(values.CLICKHOUSE_URL, values.CLICKHOUSE_CLUSTER)
      : undefined,
    trafficPgRetentionDays: values.TRAFFIC_PG_RETENTION_DAYS,
  };
}
