/**
 * The crawler middleware in a real Express app, a real Fastify app and a fetch-style handler,
 * reporting to the real Touchtrail server (its test harness, on PGlite or PostgreSQL).
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRAWLERS } from '../../server/src/crawlers/crawlers.data.js';
import { createTestApp, type Owner, setUpOwner, type TestApp } from '../../server/src/test/app.js';
import { insertSite } from '../../server/src/test/factories.js';
import {
  crawlerMiddleware,
  createCrawlerReporter,
  fastifyCrawler,
  isAiCrawler,
  withCrawlerTracking,
} from '../src/crawler/index.js';

const GPTBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const PERPLEXITY_USER =
  'Mozilla/5.0 (compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)';
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

  it('knows every crawler the server knows', () => {
    for (const entry of CRAWLERS)
      expect(isAiCrawler(`Mozilla/5.0 (compatible; ${entry.token}/1.0)`), entry.token).toBe(true);
    expect(isAiCrawler(HUMAN)).toBe(false);
    expect(isAiCrawler(undefined)).toBe(false);
  });

  it('reports AI crawlers from a real Express app without touching the response', async () => {
    const { site, options } = await newSiteWithToken('express.example.com');
    const app = express();
    const middleware = crawlerMiddleware(options);
    app.use(middleware);
    app.get('/docs/:page', (req, res) => res.status(200).send(`page ${req.params.page}`));
    const server = app.listen(0, '127.0.0.1');
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
    } finally {
      server.close();
    }
  });

  it('reports AI crawlers from a real Fastify app', async () => {
    const { site, options } = await newSiteWithToken('fastify.example.com');
    const app = Fastify();
    await app.register(fastifyCrawler, options);
    app.get('/pricing', async () => ({ plans: 3 }));
    await app.inject({ method: 'GET', url: '/pricing', headers: { 'user-agent': GPTBOT } });
    await app.inject({ method: 'GET', url: '/pricing', headers: { 'user-agent': HUMAN } });
    await app.close();
    expect(await hitsOf(site.id)).toEqual([{ crawler: 'GPTBot', path: '/pricing', status: 200 }]);
  });

  it('wraps fetch-style handlers', async () => {
    const { site, options } = await newSiteWithToken('edge.example.com');
    const handler = withCrawlerTracking(async () => new Response('hello', { status: 201 }), options);
    const response = await handler(
      new Request('https://edge.example.com/a?b=1', { headers: { 'user-agent': GPTBOT } }),
    );
    expect(response.status).toBe(201);
    await handler.reporter.close();
    expect(await hitsOf(site.id)).toEqual([{ crawler: 'GPTBot', path: '/a?b=1', status: 201 }]);
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
      snippetKey: 'ttid_x',
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
