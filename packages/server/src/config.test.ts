import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has working defaults for a first start', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8080',
      siteLimit: 100,
      trustProxy: false,
      logLevel: 'warn',
      databaseUrl: undefined,
      redisUrl: undefined,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/touchtrail',
      DATABASE_URL: 'postgres://u@db:5432/tt',
      PUBLIC_URL: 'https://stats.example.com/',
      SETUP_TOKEN: 'a-long-enough-token',
      SITE_LIMIT: '3',
      SECRET_KEY: 's'.repeat(32),
      REDIS_URL: 'redis://cache:6379',
      TRUST_PROXY: '10.0.0.0/8, 192.168.1.1',
      LOG_LEVEL: 'info',
      METRICS_TOKEN: 'scrape-token-0123456789',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/touchtrail',
      publicUrl: 'https://stats.example.com',
      siteLimit: 3,
      trustProxy: ['10.0.0.0/8', '192.168.1.1'],
      logLevel: 'info',
      metricsToken: 'scrape-token-0123456789',
    });
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'loopback, ::1, fd00::/8' }).trustProxy).toEqual([
      'loopback',
      '::1',
      'fd00::/8',
    ]);
  });

  it.each(['100', 'abc', '1.2.3.4/40', '10.0.0.0/8, 300.1.1.1', 'fe80::/129'])(
    'refuses TRUST_PROXY=%s at start, naming the variable',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(
        /^TRUST_PROXY: must be true, false, a hop count \(1 to 99\)/,
      );
    },
  );

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['PUBLIC_URL', 'ftp://x'],
    ['SETUP_TOKEN', 'short'],
    ['SITE_LIMIT', '0'],
    ['SECRET_KEY', 'too-short'],
    ['REDIS_URL', 'http://cache'],
    ['TRUST_PROXY', 'sometimes'],
    ['LOG_LEVEL', 'loud'],
    ['REQUEST_TIMEOUT_MS', '0'],
    ['REQUEST_TIMEOUT_MS', 'soon'],
    ['HEADERS_TIMEOUT_MS', '50'],
    ['KEEP_ALIVE_TIMEOUT_MS', '1.5'],
    ['MAX_CONNECTIONS_PER_ADDRESS', '-1'],
    ['METRICS_TOKEN', 'short'],
  ])('stops with one line naming %s when it is %s', (name, value) => {
    const attempt = () => loadConfig({ [name]: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(new RegExp(`^${name}: `));
    try {
      attempt();
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('sets the server timeouts and the per-address bound, with production defaults', () => {
    expect(loadConfig({})).toMatchObject({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 10_000,
      maxConnectionsPerAddress: 256,
    });
    const short = {
      REQUEST_TIMEOUT_MS: '2000',
      HEADERS_TIMEOUT_MS: '500',
      KEEP_ALIVE_TIMEOUT_MS: '300',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
    };
    expect(loadConfig(short)).toMatchObject({
      requestTimeoutMs: 2000,
      headersTimeoutMs: 500,
      keepAliveTimeoutMs: 300,
      maxConnectionsPerAddress: 0,
    });
    // Node refuses to start with a headers timeout longer than the request timeout.
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '5000' })).toThrow(
      /^HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS \(5000\)/,
    );
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 8080, databaseUrl: undefined });
  });
});
