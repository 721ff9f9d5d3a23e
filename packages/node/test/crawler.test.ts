/**
 * The crawler middleware in a real Express app, a real Fastify app and a fetch-style handler,
 * reporting to the real Touchtrail server (its test harness, on PGlite or PostgreSQL).
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../client/test/scripted-server.js';
import { CRAWLERS } from '../../server/src/crawlers/crawlers.data.js';
import { createTestApp, type Owner, setUpOwner, type TestApp } from '../../server/src/test/app.js';
import { insertSite } from '../../server/src/test/factories.js';
import {
  type CrawlerOptions,
  crawlerMiddleware,
  createCrawlerReporter,
  fastifyCrawler,
  isAiCrawler,
  TouchtrailError,
  withCrawlerTracking,
} from '../src/crawler/index.js';

const GPTBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const PERPLEXITY_USER =
  'Mozilla/5.0 (compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)';
/** Well formed, but no site has it. */
const SNIPPET_KEY = 'ttid_0000000000000000000000';
const HUMAN =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

describe('crawler middleware', () => {
  let t: TestApp;
  let owner: Owner;
  let endpoint: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await setUpOwner(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    endpoint = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  async function newSiteWithToken(domain: string) {
    const site = await insertSite(t, owner.accountId, { domain });
    const minted = await t.request({
      method: 'POST',
      url: '/v1/account/bot-tokens',
      headers: { authorization: `Bearer ${owner.apiKey}` },
      payload: { site_id: site.snippet_key },
    });
    const { plaintext_token: token, snippet_key: snippetKey } = minted.json();
    return { site, options: { snippetKey, token, endpoint, flushIntervalMs: 60_000 } };
  }

  const hitsOf = (siteId: string) =>
    t.database.db
      .selectFrom('crawler_hits')
      .select(['crawler', 'path', 'status'])
      .where('site_id', '=', siteId)
      .orderBy('path')
      .execute();

  /** A fetch that keeps the address of each hit it sends (null for none), then sends it on. */
  function recordingIps(ips: (string | null)[]): typeof fetch {
    return async (url, init) => {
      for (const hit of JSON.parse(String(init?.body)).hits) ips.push(hit.ip ?? null);
      return fetch(url, init);
    };
  }

  it('knows every crawler the server knows', () => {
    for (const entry of CRAWLERS)
      expect(isAiCrawler(`Mozilla/5.0 (compatible; ${entry.token}/1.0)`), entry.token).toBe(true);
    expect(isAiCrawler(HUMAN)).toBe(false);
    expect(isAiCrawler(undefined)).toBe(false);
  });

  it('reports AI crawlers from a real Express app without touching the response', async () => {
    const { site, options } = await newSiteWithToken('express.example.com');
    const ips: (string | null)[] = [];
    const app = express();
    const middleware = crawlerMiddleware({ ...options, fetch: recordingIps(ips) });
    app.use(middleware);
    app.get('/docs/:page', (req, res) => res.status(200).send(`page ${req.params.page}`));
    // On a dual-stack socket an IPv4 client shows as ::ffff:127.0.0.1; the hit says 127.0.0.1.
    const server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const crawled = await fetch(`${base}/docs/intro?lang=en`, { headers: { 'user-agent': GPTBOT } });
      expect(await crawled.text()).toBe('page intro');
      await fetch(`${base}/docs/human`, { headers: { 'user-agent': HUMAN } });
      await fetch(`${base}/missing`, { headers: { 'user-agent': PERPLEXITY_USER } });
      await middleware.reporter.close();
      expect(await hitsOf(site.id)).toEqual([
        { crawler: 'GPTBot', path: '/docs/intro?lang=en', status: 200 },
        { crawler: 'Perplexity-User', path: '/missing', status: 404 },
      ]);
      expect(ips).toEqual(['127.0.0.1', '127.0.0.1']);
    } finally {
      server.close();
    }
  });

  it('reports AI crawlers from a real Fastify app', async () => {
    const { site, options } = await newSiteWithToken('fastify.example.com');
    const ips: (string | null)[] = [];
    const app = Fastify();
    await app.register(fastifyCrawler, { ...options, fetch: recordingIps(ips) });
    app.get('/pricing', async () => ({ plans: 3 }));
    await app.inject({ method: 'GET', url: '/pricing', headers: { 'user-agent': GPTBOT } });
    await app.inject({ method: 'GET', url: '/pricing', headers: { 'user-agent': HUMAN } });
    await app.inject({
      method: 'GET',
      url: '/pricing?v6',
      headers: { 'user-agent': GPTBOT },
      remoteAddress: '::ffff:192.0.2.10',
    });
    await app.close();
    expect(await hitsOf(site.id)).toEqual([
      { crawler: 'GPTBot', path: '/pricing', status: 200 },
      { crawler: 'GPTBot', path: '/pricing?v6', status: 200 },
    ]);
    expect(ips).toEqual(['127.0.0.1', '192.0.2.10']);
  });

  it('wraps fetch-style handlers, sending the address ipOf finds when it is one', async () => {
    const { site, options } = await newSiteWithToken('edge.example.com');
    const ips: (string | null)[] = [];
    const respond = async () => new Response('hello', { status: 201 });
    const handler = withCrawlerTracking(respond, {
      ...options,
      fetch: recordingIps(ips),
      ipOf: (request) => request.headers.get('cf-connecting-ip'),
    });
    const crawl = (path: string, address?: string) =>
      new Request(`https://edge.example.com${path}`, {
        headers: { 'user-agent': GPTBOT, ...(address && { 'cf-connecting-ip': address }) },
      });
    expect((await handler(crawl('/a?b=1', '2001:db8::7'))).status).toBe(201);
    await handler(crawl('/b', '::ffff:203.0.113.9'));
    await handler(crawl('/c', 'not an ip'));
    await handler(crawl('/d'));
    await handler.reporter.close();
    expect(ips).toEqual(['2001:db8::7', '203.0.113.9', null, null]);
    expect((await hitsOf(site.id)).map((hit) => hit.path)).toEqual(['/a?b=1', '/b', '/c', '/d']);

    const withoutIpOf = withCrawlerTracking(respond, { ...options, fetch: recordingIps(ips) });
    await withoutIpOf(crawl('/e', '2001:db8::8'));
    await withoutIpOf.reporter.close();
    expect(ips.slice(4)).toEqual([null]);
  });

  it('sends no address from any adapter, nor a hand-recorded one, with sendIp: false', async () => {
    const { site, options } = await newSiteWithToken('no-ip.example.com');
    const ips: (string | null)[] = [];
    const quiet = { ...options, sendIp: false, fetch: recordingIps(ips) };

    const expressApp = express();
    const middleware = crawlerMiddleware(quiet);
    expressApp.use(middleware);
    expressApp.get('/', (_req, res) => res.send('ok'));
    const server = expressApp.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/express`, {
        headers: { 'user-agent': GPTBOT },
      });
      await middleware.reporter.close();
    } finally {
      server.close();
    }

    const fastify = Fastify();
    await fastify.register(fastifyCrawler, quiet);
    fastify.get('/fastify', async () => 'ok');
    await fastify.inject({ method: 'GET', url: '/fastify', headers: { 'user-agent': GPTBOT } });
    await fastify.close();

    const handler = withCrawlerTracking(async () => new Response('ok'), {
      ...quiet,
      ipOf: () => '203.0.113.9',
    });
    await handler(new Request('https://no-ip.example.com/fetch', { headers: { 'user-agent': GPTBOT } }));
    await handler.reporter.close();

    const reporter = createCrawlerReporter(quiet);
    reporter.record({ user_agent: GPTBOT, path: '/hand', ip: '203.0.113.9' });
    await reporter.close();

    expect(ips).toEqual([null, null, null, null]);
    expect((await hitsOf(site.id)).map((hit) => hit.path)).toEqual([
      '/express',
      '/fastify',
      '/fetch',
      '/hand',
    ]);
  });

  it('keeps a path prefix of its endpoint, as the SDK does, and refuses an endpoint that is not http(s)', async () => {
    const receiver = await startScriptedServer([{ status: 202, body: { accepted: 1 } }]);
    try {
      const reporter = createCrawlerReporter({
        snippetKey: SNIPPET_KEY,
        token: 'tt_bot_x',
        endpoint: `${receiver.endpoint}/touchtrail/`,
      });
      reporter.record({ user_agent: GPTBOT, path: '/docs' });
      await reporter.close();
      expect(receiver.seen.map((request) => request.path)).toEqual(['/touchtrail/v1/crawler/hits']);
    } finally {
      await receiver.close();
    }
    expect(() =>
      createCrawlerReporter({
        snippetKey: SNIPPET_KEY,
        token: 'tt_bot_x',
        endpoint: 'ftp://stats.example.com',
      }),
    ).toThrow('endpoint must be an http or https address');
  });

  it('refuses a missing or malformed token or site key when it is created, in every shape', async () => {
    const token = `tt_bot_${'s'.repeat(43)}`;
    const good = { snippetKey: SNIPPET_KEY, token, endpoint: 'https://stats.example.com' };
    const wrong: [object, RegExp][] = [
      [{ ...good, token: undefined }, /^Touchtrail: token must be the bot token/],
      [{ ...good, token: '' }, /^Touchtrail: token must be the bot token/],
      [{ ...good, token: `tk_live_${'k'.repeat(40)}` }, /^Touchtrail: token must be the bot token/],
      [{ ...good, token: `${token}\n` }, /^Touchtrail: token must be the bot token/],
      [{ ...good, snippetKey: undefined }, /^Touchtrail: snippetKey must be the site's ttid_ snippet key/],
      [{ ...good, snippetKey: crypto.randomUUID() }, /^Touchtrail: snippetKey must be the site's ttid_/],
    ];
    for (const [options, message] of wrong) {
      const attempts = [
        () => createCrawlerReporter(options as CrawlerOptions),
        () => crawlerMiddleware(options as CrawlerOptions),
        () => withCrawlerTracking(async () => new Response('ok'), options as CrawlerOptions),
      ];
      for (const attempt of attempts) {
        let error: unknown;
        try {
          attempt();
        } catch (thrown) {
          error = thrown;
        }
        expect(error, JSON.stringify(options)).toBeInstanceOf(TouchtrailError);
        expect(error).toMatchObject({ code: 'invalid_options', message: expect.stringMatching(message) });
        expect(String(error)).not.toContain('s'.repeat(43));
      }
      const fastify = Fastify();
      await expect(fastify.register(fastifyCrawler, options as CrawlerOptions)).rejects.toMatchObject({
        code: 'invalid_options',
      });
      await fastify.close();
    }
    const fine = crawlerMiddleware(good);
    await fine.reporter.close();
  });

  it('bounds its memory, retries after a 5xx and sends batches the server accepts', async () => {
    const { site, options } = await newSiteWithToken('bounded.example.com');
    let failures = 1;
    const batches: number[] = [];
    const reporter = createCrawlerReporter({
      ...options,
      maxQueue: 800,
      maxBatch: 1000,
      fetch: async (url, init) => {
        if (failures-- > 0) return new Response('down', { status: 503 });
        batches.push(JSON.parse(String(init?.body)).hits.length);
        return fetch(url, init);
      },
    });
    for (let i = 0; i < 1500; i++) reporter.record({ user_agent: GPTBOT, path: `/p${i}` });
    expect(reporter.stats.dropped).toBe(700);
    await reporter.close();
    expect(batches.every((size) => size <= 1000)).toBe(true);
    expect(reporter.stats.sent).toBe(800);
    expect((await hitsOf(site.id)).length).toBe(800);
  });

  it('drops a batch the server refuses (revoked token) instead of retrying forever', async () => {
    const errors: Error[] = [];
    const reporter = createCrawlerReporter({
      snippetKey: SNIPPET_KEY,
      token: `tt_bot_${'x'.repeat(43)}`,
      endpoint,
      onError: (e) => errors.push(e),
    });
    reporter.record({ user_agent: GPTBOT, path: '/' });
    await reporter.close();
    expect(reporter.stats.failed).toBe(1);
    expect(errors[0]?.message).toMatch(/401/);
  });
});
