/**
 * What a site owner may expect of the crawler middleware, checked against the real Touchtrail
 * server: it never delays or breaks the host's responses, holds a bounded number of hits, sends
 * batches the server accepts, sends no personal data but the address the server uses to spot
 * spoofed crawlers, and reports for its configured site only.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Owner, setUpOwner, type TestApp } from '../../server/src/test/app.js';
import { insertSite } from '../../server/src/test/factories.js';
import { crawlerMiddleware, createCrawlerReporter, withCrawlerTracking } from '../src/crawler/index.js';

const GPTBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

type Fetch = typeof fetch;

describe('crawler middleware (contract)', () => {
  let t: TestApp;
  let owner: Owner;
  let endpoint: string;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await setUpOwner(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    endpoint = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await t.close();
  });

  let sites = 0;
  async function newSiteWithToken() {
    const site = await insertSite(t, owner.accountId, { domain: `contract${++sites}.example.com` });
    const minted = await t.request({
      method: 'POST',
      url: '/v1/account/bot-tokens',
      headers: { authorization: `Bearer ${owner.apiKey}` },
      payload: { site_id: site.snippet_key },
    });
    const { plaintext_token: token, snippet_key: snippetKey } = minted.json();
    return { site, options: { snippetKey, token, endpoint, flushIntervalMs: 60_000 } };
  }
  const pathsOf = async (siteId: string) =>
    (
      await t.database.db
        .selectFrom('crawler_hits')
        .select('path')
        .where('site_id', '=', siteId)
        .orderBy('path')
        .execute()
    ).map((row) => row.path);

  async function serve(app: express.Express) {
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    return {
      base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => server.close(),
    };
  }

  /** A fetch that records each body it sends, then passes the request on to the server. */
  function recordingFetch(bodies: string[]): Fetch {
    return async (url, init) => {
      bodies.push(String(init?.body));
      return fetch(url, init);
    };
  }

  it('sends the connection’s address but no cookie, forwarded address or email address', async () => {
    const { site, options } = await newSiteWithToken();
    const bodies: string[] = [];
    const app = express();
    const middleware = crawlerMiddleware({ ...options, fetch: recordingFetch(bodies) });
    app.use(middleware);
    app.get('/signup', (_req, res) => res.send('ok'));
    const host = await serve(app);
    try {
      const response = await fetch(`${host.base}/signup?email=jane.doe%40example.com&plan=pro`, {
        headers: { 'user-agent': GPTBOT, cookie: 'session=s3cr3t-cookie', 'x-forwarded-for': '198.51.100.7' },
      });
      expect(await response.text()).toBe('ok');
      await middleware.reporter.close();
    } finally {
      host.close();
    }
    expect(bodies).toHaveLength(1);
    const sent = JSON.parse(bodies[0] as string);
    expect(sent.hits).toEqual([
      {
        user_agent: GPTBOT,
        path: '/signup?email=%5BREDACTED%5D&plan=pro',
        status: 200,
        timestamp: expect.any(String),
        ip: '127.0.0.1',
      },
    ]);
    // Express does not trust X-Forwarded-For unless told to, and neither does the middleware.
    expect(bodies[0]).not.toMatch(/s3cr3t|jane|198\.51\.100\.7/);
    expect(await pathsOf(site.id)).toEqual(['/signup?email=%5BREDACTED%5D&plan=pro']);
  });

  it('sends its site setting, so a token of another site is refused instead of counted there', async () => {
    const a = await newSiteWithToken();
    const b = await newSiteWithToken();
    const errors: Error[] = [];
    const misconfigured = createCrawlerReporter({
      ...a.options,
      token: b.options.token,
      onError: (error) => errors.push(error),
    });
    misconfigured.record({ user_agent: GPTBOT, path: '/wrong' });
    await misconfigured.close();
    expect(misconfigured.stats).toMatchObject({ sent: 0, failed: 1 });
    expect(errors[0]?.message).toMatch(/401/);
    expect(await pathsOf(a.site.id)).toEqual([]);
    expect(await pathsOf(b.site.id)).toEqual([]);

    const right = createCrawlerReporter(a.options);
    right.record({ user_agent: GPTBOT, path: '/right' });
    await right.close();
    expect(await pathsOf(a.site.id)).toEqual(['/right']);
  });

  it('answers the host’s requests at once while Touchtrail hangs, and gives up on a request after its timeout', async () => {
    const { options } = await newSiteWithToken();
    let attempts = 0;
    const hanging: Fetch = (_url, init) => {
      attempts += 1;
      return new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    };
    const errors: Error[] = [];
    const app = express();
    const middleware = crawlerMiddleware({
      ...options,
      maxBatch: 1,
      timeoutMs: 200,
      fetch: hanging,
      onError: (error) => errors.push(error),
    });
    app.use(middleware);
    app.get('/', (_req, res) => res.send('home'));
    const host = await serve(app);
    try {
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const response = await fetch(`${host.base}/`, { headers: { 'user-agent': GPTBOT } });
        expect(await response.text()).toBe('home');
        expect(Date.now() - started).toBeLessThan(150);
      }
      const closing = Date.now();
      await middleware.reporter.close();
      expect(Date.now() - closing).toBeLessThan(5_000);
    } finally {
      host.close();
    }
    expect(attempts).toBeGreaterThan(0);
    expect(errors.length).toBeGreaterThan(0);
    expect(middleware.reporter.stats.sent).toBe(0);
  });

  it('never throws into the request or leaves a rejection unhandled when sending fails', async () => {
    const { options } = await newSiteWithToken();
    const throwing: Fetch = () => {
      throw new Error('socket exploded');
    };
    const handler = withCrawlerTracking(async () => new Response('fine', { status: 200 }), {
      ...options,
      maxBatch: 1,
      fetch: throwing,
      onError: () => {
        throw new Error('a broken error handler');
      },
    });
    for (let i = 0; i < 3; i++) {
      const response = await handler(
        new Request('https://edge.example.com/x', { headers: { 'user-agent': GPTBOT } }),
      );
      expect(await response.text()).toBe('fine');
    }
    await handler.reporter.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
  });

  it('holds at most maxQueue hits, the batch in flight included, while Touchtrail is unreachable', async () => {
    const { site, options } = await newSiteWithToken();
    let release: (response: Response) => void = () => {};
    let isDown = true;
    const reporter = createCrawlerReporter({
      ...options,
      maxQueue: 100,
      maxBatch: 50,
      fetch: (url, init) =>
        isDown
          ? new Promise<Response>((resolve) => {
              release = resolve;
            })
          : fetch(url, init),
    });
    for (let i = 0; i < 50; i++) reporter.record({ user_agent: GPTBOT, path: `/a${i}` });
    // Those 50 are now on their way; 100 more arrive while the request hangs.
    for (let i = 0; i < 100; i++) reporter.record({ user_agent: GPTBOT, path: `/b${i}` });
    expect(reporter.stats.dropped).toBe(50);
    release(new Response('down', { status: 503 }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reporter.stats.queued).toBeLessThanOrEqual(100);
    isDown = false;
    await reporter.close();
    expect(reporter.stats).toMatchObject({ sent: 100, dropped: 50, failed: 0 });
    expect(await pathsOf(site.id)).toHaveLength(100);
  });

  it('cuts batches small enough for the server’s body limit, so long URLs are not refused', async () => {
    const { site, options } = await newSiteWithToken();
    const sizes: number[] = [];
    const reporter = createCrawlerReporter({
      ...options,
      maxBatch: 1000,
      fetch: async (url, init) => {
        sizes.push(Buffer.byteLength(String(init?.body)));
        return fetch(url, init);
      },
    });
    const longAgent = `${GPTBOT} ${'x'.repeat(900)}`;
    for (let i = 0; i < 400; i++)
      reporter.record({ user_agent: longAgent, path: `/${i}/${'p'.repeat(4000)}` });
    await reporter.close();
    expect(reporter.stats).toMatchObject({ sent: 400, failed: 0 });
    expect(Math.max(...sizes)).toBeLessThan(1024 * 1024);
    expect(await pathsOf(site.id)).toHaveLength(400);
  });

  it('waits as long as a 429 asks in Retry-After before sending again', async () => {
    const { options } = await newSiteWithToken();
    // Spend the token's budget of 600 reports a minute, so the next one is refused with Retry-After.
    await Promise.all(
      Array.from({ length: 600 }, () =>
        t.request({
          method: 'POST',
          url: '/v1/crawler/hits',
          headers: { authorization: `Bearer ${options.token}` },
          payload: { hits: [{ user_agent: GPTBOT, path: '/budget' }] },
        }),
      ),
    );
    const errors: string[] = [];
    const reporter = createCrawlerReporter({
      ...options,
      flushIntervalMs: 100,
      maxBatch: 1,
      onError: (error) => errors.push(error.message),
    });
    reporter.record({ user_agent: GPTBOT, path: '/late' });
    await expect.poll(() => errors, { timeout: 2000 }).toEqual(['Touchtrail answered 429']);
    // Backoff alone would try again after 1 s; the server asked for the rest of its minute.
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(errors).toEqual(['Touchtrail answered 429']);
    expect(reporter.stats.queued).toBe(1);
    await reporter.close();
  });

  it('counts hits recorded after close() as dropped', async () => {
    const { options } = await newSiteWithToken();
    const reporter = createCrawlerReporter(options);
    await reporter.close();
    reporter.record({ user_agent: GPTBOT, path: '/after' });
    expect(reporter.stats).toMatchObject({ dropped: 1, queued: 0, sent: 0 });
  });

  it('treats a batch size below 1 as 1 instead of sending empty batches', async () => {
    const { site, options } = await newSiteWithToken();
    let requests = 0;
    const reporter = createCrawlerReporter({
      ...options,
      maxBatch: 0,
      fetch: async (url, init) => {
        requests += 1;
        if (requests > 10) throw new Error('too many requests');
        return fetch(url, init);
      },
    });
    reporter.record({ user_agent: GPTBOT, path: '/one' });
    reporter.record({ user_agent: GPTBOT, path: '/two' });
    await reporter.close();
    expect(requests).toBe(2);
    expect(await pathsOf(site.id)).toEqual(['/one', '/two']);
  });
});
