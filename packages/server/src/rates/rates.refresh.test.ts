/**
 * Refreshing from a URL, against a real HTTP server on 127.0.0.1: a good file is imported; a
 * server that answers 500, stalls before or during the body, or serves something else
 * surfaces an error and imports nothing.
 */
import { readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { createManualClock } from '../lib/clock.js';
import { FetchFileError } from '../lib/fetch-file.js';
import { openTestDatabase } from '../test/database.js';
import { RatesFileError } from './ecb-xml.js';
import { createRatesService, type RatesService } from './rates.service.js';

const DAILY = readFileSync(new URL('./fixtures/eurofxref-daily-sample.xml', import.meta.url), 'utf8');
const TEST_TIMEOUT_MS = 300;

describe('rates refresh', () => {
  let database: Database;
  let rates: RatesService;
  /** The same, with a short deadline for the servers that stall (the default is 10 s). */
  let impatient: RatesService;
  let server: Server | undefined;
  let requests: { url?: string; accept?: string }[] = [];
  beforeAll(async () => {
    database = await openTestDatabase();
    const clock = createManualClock(new Date('2026-11-20T12:00:00Z'));
    rates = createRatesService({ db: database.db, clock });
    impatient = createRatesService({ db: database.db, clock, refreshTimeoutMs: TEST_TIMEOUT_MS });
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    requests = [];
    await database.db.deleteFrom('exchange_rates').execute();
  });
  afterEach(async () => {
    const open = server;
    server = undefined;
    if (!open?.listening) return;
    open.closeAllConnections();
    await new Promise((resolve) => open.close(resolve));
  });

  /** Serves `handler` on a random port of 127.0.0.1 and returns the URL of the rates file. */
  async function serve(handler: RequestListener): Promise<string> {
    server = createServer((request, response) => {
      requests.push({ url: request.url, accept: request.headers.accept });
      handler(request, response);
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/stats/eurofxref/eurofxref-daily.xml`;
  }
  const count = async () => (await database.db.selectFrom('exchange_rates').select('day').execute()).length;

  it('downloads the file and imports it', async () => {
    const url = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'text/xml' });
      response.end(DAILY);
    });
    expect(await rates.refresh(url)).toEqual({
      days: 1,
      rows: 5,
      firstDay: '2026-11-17',
      lastDay: '2026-11-17',
    });
    expect(requests).toEqual([
      { url: '/stats/eurofxref/eurofxref-daily.xml', accept: 'application/xml, text/xml' },
    ]);
    expect(await rates.rateOn('JPY', '2026-11-18')).toBe(182.1);
    expect(await rates.convertMinor(1821, 'JPY', 'EUR', '2026-11-17')).toBe(10);
  });

  it('surfaces a 500 and imports nothing', async () => {
    const url = await serve((_, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('Internal Server Error');
    });
    const refreshing = rates.refresh(url);
    await expect(refreshing).rejects.toThrow(FetchFileError);
    await expect(refreshing).rejects.toThrow(`GET ${url} answered 500`);
    expect(await count()).toBe(0);
  });

  it('keeps a key in the query string or user part out of its messages', async () => {
    const url = await serve((_, response) => response.writeHead(403).end());
    const withKey = `${url}?access_key=s3cret-key`;
    await expect(rates.refresh(withKey)).rejects.toThrow(new FetchFileError(`GET ${url} answered 403`));
    expect(requests.map((request) => request.url)).toEqual([
      '/stats/eurofxref/eurofxref-daily.xml?access_key=s3cret-key',
    ]);
    // fetch refuses credentials and quotes the URL it refused; config refuses them too.
    const withUser = withKey.replace('http://', 'http://user:hunter2@');
    const message = await rates.refresh(withUser).catch((error: Error) => error.message);
    expect(message).toMatch(new RegExp(`^GET ${url} failed: `));
    expect(message).not.toMatch(/s3cret|hunter2|access_key/);
  });

  it('gives up on a server that never answers, within the deadline', async () => {
    const url = await serve(() => {});
    const started = Date.now();
    await expect(impatient.refresh(url)).rejects.toThrow(`GET ${url} timed out after ${TEST_TIMEOUT_MS} ms`);
    expect(Date.now() - started).toBeLessThan(TEST_TIMEOUT_MS + 5000);
    expect(await count()).toBe(0);
  });

  it('gives up on a server that stalls in the middle of the body', async () => {
    const url = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'text/xml' });
      response.write(DAILY.slice(0, DAILY.length / 2));
    });
    await expect(impatient.refresh(url)).rejects.toThrow(/timed out/);
    expect(await count()).toBe(0);
  });

  it('refuses a page that is not a rates file', async () => {
    const url = await serve((_, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!DOCTYPE html><html><body>Moved</body></html>');
    });
    await expect(rates.refresh(url)).rejects.toThrow(RatesFileError);
    expect(await count()).toBe(0);
  });

  it('reports a refused connection', async () => {
    const url = await serve(() => {});
    await new Promise((resolve) => server?.close(resolve));
    await expect(rates.refresh(url)).rejects.toThrow(new RegExp(`GET ${url} failed: .*ECONNREFUSED`));
  });

  it('stops at once when cancelled, importing nothing', async () => {
    const url = await serve(() => {});
    const cancel = new AbortController();
    const refreshing = rates.refresh(url, { signal: cancel.signal });
    setTimeout(() => cancel.abort(), 50);
    await expect(refreshing).rejects.toThrow(`GET ${url} cancelled`);
    expect(await count()).toBe(0);
  });

  it('fetches through the injected fetch when one is given', async () => {
    const seen: string[] = [];
    const offline = createRatesService({
      db: database.db,
      clock: createManualClock(new Date('2026-11-20T12:00:00Z')),
      fetch: async (input) => {
        seen.push(String(input));
        return new Response(DAILY, { status: 200 });
      },
    });
    expect(await offline.refresh('https://rates.example/daily.xml')).toMatchObject({ rows: 5 });
    expect(seen).toEqual(['https://rates.example/daily.xml']);
  });
});
