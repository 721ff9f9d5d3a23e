/**
 * Spoofed crawlers: operators' published address lists downloaded from a real local HTTP server,
 * stored, and used to verify or flag reported hits; the report counts spoofed hits apart.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { DAY_MS, MINUTE_MS } from '../lib/clock.js';
import { bearer, useTestApp } from '../test/app.js';
import { insertSite } from '../test/factories.js';
import { CRAWLER_RANGE_SOURCES } from './crawler-ranges.data.js';
import { createCrawlerRanges, parseRangeList } from './crawler-ranges.js';
import { CRAWLERS } from './crawlers.data.js';

const GPTBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDEBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';

// The layout OpenAI and Perplexity publish (Google's), with documentation-range addresses.
const OPENAI_STYLE = JSON.stringify({
  creationTime: '2026-11-20T00:00:00.000000',
  prefixes: [
    { ipv4Prefix: '192.0.2.0/28' },
    { ipv4Prefix: '198.51.100.7/32' },
    { ipv6Prefix: '2001:db8:1::/48' },
  ],
});

describe('parseRangeList', () => {
  it('reads Google-style lists, plain arrays and other layouts', () => {
    expect(parseRangeList(OPENAI_STYLE)).toEqual(['192.0.2.0/28', '198.51.100.7/32', '2001:db8:1::/48']);
    expect(parseRangeList('["203.0.113.0/24", "203.0.113.9"]')).toEqual(['203.0.113.0/24', '203.0.113.9/32']);
    expect(parseRangeList('{"ips": {"v6": ["2001:DB8::1"]}, "updated": "2026-11-01", "count": 1}')).toEqual([
      '2001:db8::1/128',
    ]);
  });

  it('refuses a file that is not JSON or holds no ranges', () => {
    expect(() => parseRangeList('<html>')).toThrow('not JSON');
    expect(() => parseRangeList('{"prefixes": [], "note": "10.0.0.0/33"}')).toThrow('no address ranges');
  });

  it('names only crawlers of the crawler table, with https sources', () => {
    const names = new Set(CRAWLERS.map((entry) => entry.name));
    for (const [crawler, url] of Object.entries(CRAWLER_RANGE_SOURCES)) {
      expect(names.has(crawler), crawler).toBe(true);
      expect(url).toMatch(/^https:\/\//);
    }
  });
});

describe('CRAWLER_RANGES', () => {
  it('is on by default and can be turned off', () => {
    expect(loadConfig({}).crawlerRanges).toBe(true);
    expect(loadConfig({ CRAWLER_RANGES: 'off' }).crawlerRanges).toBe(false);
    expect(() => loadConfig({ CRAWLER_RANGES: 'maybe' })).toThrow(
      new ConfigError('CRAWLER_RANGES: must be on or off (see the configuration table in README.md)'),
    );
  });
});

describe('crawler address ranges', () => {
  const t = useTestApp();
  let server: Server;
  let base: string;
  const files = new Map<string, { status: number; body: string }>();

  beforeAll(async () => {
    server = createServer((request, response) => {
      const file = files.get((request.url ?? '').split('?')[0] ?? '') ?? { status: 404, body: 'not found' };
      response.writeHead(file.status, { 'content-type': 'application/json' }).end(file.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const rangesFor = (sources: Record<string, string>) =>
    createCrawlerRanges({ db: t.database.db, clock: t.clock, sources });

  it('stores the lists that download and parse, and keeps the stored copy of one that fails', async () => {
    files.set('/gptbot.json', { status: 200, body: OPENAI_STYLE });
    files.set('/perplexitybot.json', { status: 503, body: 'down' });
    files.set('/mistral.json', { status: 200, body: '<html>moved</html>' });
    const ranges = rangesFor({
      GPTBot: `${base}/gptbot.json`,
      PerplexityBot: `${base}/perplexitybot.json?key=secret-value`,
      'MistralAI-User': `${base}/mistral.json`,
    });
    const first = await ranges.refresh();
    expect(first.refreshed).toEqual([{ crawler: 'GPTBot', prefixes: 3 }]);
    expect(first.failed).toEqual([
      { crawler: 'PerplexityBot', error: `GET ${base}/perplexitybot.json answered 503` },
      { crawler: 'MistralAI-User', error: `GET ${base}/mistral.json: the file is not JSON` },
    ]);
    expect(JSON.stringify(first)).not.toContain('secret-value');

    files.set('/gptbot.json', { status: 500, body: 'broken' });
    const second = await ranges.refresh();
    expect(second.failed.map((failure) => failure.crawler)).toContain('GPTBot');
    const stored = await t.database.db.selectFrom('crawler_ip_ranges').selectAll().execute();
    expect(stored).toEqual([
      expect.objectContaining({
        crawler: 'GPTBot',
        source_url: `${base}/gptbot.json`,
        prefixes: ['192.0.2.0/28', '198.51.100.7/32', '2001:db8:1::/48'],
      }),
    ]);
  });

  it('verifies hits inside the ranges, flags those outside, and never stores the address', async () => {
    files.set('/gptbot.json', { status: 200, body: OPENAI_STYLE });
    await rangesFor({ GPTBot: `${base}/gptbot.json` }).refresh();
    const site = await insertSite(t, t.owner.accountId, { domain: 'spoof.example.com' });
    const minted = await t.request({
      method: 'POST',
      url: '/v1/account/bot-tokens',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key },
    });
    const token = minted.json().plaintext_token as string;
    const hits = [
      { user_agent: GPTBOT, path: '/real', ip: '192.0.2.5' },
      { user_agent: GPTBOT, path: '/real', ip: '::ffff:198.51.100.7' },
      { user_agent: GPTBOT, path: '/real-v6', ip: '2001:db8:1::99' },
      { user_agent: GPTBOT, path: '/fake', ip: '203.0.113.50' },
      { user_agent: GPTBOT, path: '/fake', ip: '2001:db8:2::1' },
      { user_agent: GPTBOT, path: '/unchecked' },
      { user_agent: CLAUDEBOT, path: '/claude', ip: '203.0.113.50' },
    ];
    const accepted = await t.request({
      method: 'POST',
      url: '/v1/crawler/hits',
      headers: bearer(token),
      payload: { hits },
    });
    expect(accepted.statusCode).toBe(202);
    expect(accepted.json()).toEqual({ accepted: 7 });

    const rows = await t.database.db
      .selectFrom('crawler_hits')
      .selectAll()
      .where('site_id', '=', site.id)
      .orderBy('path')
      .execute();
    expect(rows.map((row) => [row.path, row.crawler, row.verified])).toEqual([
      ['/claude', 'ClaudeBot', null],
      ['/fake', 'GPTBot', false],
      ['/fake', 'GPTBot', false],
      ['/real', 'GPTBot', true],
      ['/real', 'GPTBot', true],
      ['/real-v6', 'GPTBot', true],
      ['/unchecked', 'GPTBot', null],
    ]);
    const stored = JSON.stringify(rows);
    for (const ip of ['192.0.2.5', '198.51.100.7', '203.0.113.50', '2001:db8'])
      expect(stored).not.toContain(ip);

    const report = await t.request({
      method: 'GET',
      url: `/v1/crawlers?site_id=${site.snippet_key}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(report.statusCode).toBe(200);
    const body = report.json();
    expect(body.crawlers).toEqual([
      expect.objectContaining({ crawler: 'GPTBot', hits: 4, verified_hits: 3, spoofed_hits: 2 }),
      expect.objectContaining({ crawler: 'ClaudeBot', hits: 1, verified_hits: 0, spoofed_hits: 0 }),
    ]);
    expect(body.crawlers[0].days).toEqual([{ date: expect.any(String), hits: 4 }]);
    expect(body.top_paths.map((row: { path: string }) => row.path)).not.toContain('/fake');
    expect(body.operators.find((row: { operator: string }) => row.operator === 'OpenAI')).toMatchObject({
      hits: 4,
      pages_fetched: 3,
    });
    expect(body.purposes).toEqual([{ purpose: 'training', hits: 5 }]);
    expect(body.address_checks).toHaveLength(Object.keys(CRAWLER_RANGE_SOURCES).length);
    expect(body.address_checks).toContainEqual({
      crawler: 'GPTBot',
      ranges: 3,
      fetched_at: t.clock.now().toISOString(),
      in_use: true,
    });
    expect(body.address_checks).toContainEqual({
      crawler: 'DuckAssistBot',
      ranges: 0,
      fetched_at: null,
      in_use: false,
    });
  });

  it('stops checking against a list not refreshed for more than 7 days', async () => {
    files.set('/gptbot.json', { status: 200, body: OPENAI_STYLE });
    const ranges = rangesFor({ GPTBot: `${base}/gptbot.json` });
    await ranges.refresh();
    const fresh = await ranges.current();
    expect(fresh('GPTBot', '192.0.2.1')).toBe(true);
    expect(fresh('GPTBot', '192.0.2.200')).toBe(false);
    expect(fresh('GPTBot', undefined)).toBeNull();
    expect(fresh('ClaudeBot', '192.0.2.1')).toBeNull();
    t.clock.advance(7 * DAY_MS + MINUTE_MS);
    const stale = await ranges.current();
    expect(stale('GPTBot', '192.0.2.200')).toBeNull();
    const site = await insertSite(t, t.owner.accountId, { domain: 'stale.example.com' });
    const report = await t.request({
      method: 'GET',
      url: `/v1/crawlers?site_id=${site.snippet_key}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(report.json().address_checks).toContainEqual(
      expect.objectContaining({ crawler: 'GPTBot', ranges: 3, in_use: false }),
    );
  });
});
