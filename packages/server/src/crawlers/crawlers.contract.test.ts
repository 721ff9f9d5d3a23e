/**
 * Contract of AI-crawler tracking not pinned elsewhere: who may report hits for which site,
 * what is stored of a hit (no personal data), the limits of a batch, and the crawler report's
 * window, authorisation and figures, which must add up.
 */
import { describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../lib/clock.js';
import { bearer, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';

const GPTBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CLAUDEBOT = 'Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const PERPLEXITY_USER =
  'Mozilla/5.0 (compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)';
const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

interface Hit {
  user_agent: string;
  path: string;
  status?: number;
  timestamp?: string;
}
interface Report {
  crawlers: {
    crawler: string;
    operator: string;
    purpose: string;
    hits: number;
    days: { date: string; hits: number }[];
  }[];
  purposes: { purpose: string; hits: number }[];
  top_paths: { path: string; hits: number; non_2xx_hits: number }[];
  operators: { operator: string; hits: number; pages_fetched: number; conversions: number }[];
  from: string;
  to: string;
}

describe('crawler hits and the crawler report (contract)', () => {
  const t = useTestApp();

  const dayOf = (offsetDays: number) => new Date(t.clock.now().getTime() + offsetDays * DAY_MS).toISOString();
  let domains = 0;
  async function siteWithToken() {
    const site = await insertSite(t, t.owner.accountId, { domain: `crawl${++domains}.example.com` });
    const minted = await t.request({
      method: 'POST',
      url: '/v1/account/bot-tokens',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.snippet_key },
    });
    expect(minted.statusCode).toBe(201);
    return { site, token: minted.json().plaintext_token as string };
  }
  const send = (token: string, body: object, headers: Record<string, string> = {}) =>
    t.request({
      method: 'POST',
      url: '/v1/crawler/hits',
      headers: { ...bearer(token), ...headers },
      payload: body,
    });
  const readReport = async (siteKey: string, query = '', key = t.owner.apiKey) => {
    const response = await t.request({
      method: 'GET',
      url: `/v1/crawlers?site_id=${siteKey}${query}`,
      headers: bearer(key),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Report;
  };
  const storedPaths = async (siteId: string) =>
    (
      await t.database.db
        .selectFrom('crawler_hits')
        .select('path')
        .where('site_id', '=', siteId)
        .orderBy('path')
        .execute()
    ).map((row) => row.path);

  describe('POST /v1/crawler/hits', () => {
    it.each([
      ['no Authorization header', {}],
      ['a bearer that is not a bot token', bearer('not-a-token')],
      ['a well-formed bot token nobody minted', bearer(`tt_bot_${'A'.repeat(43)}`)],
    ])('answers 401 unauthorized to %s and stores nothing', async (_label, headers) => {
      const before = await t.database.db.selectFrom('crawler_hits').select('id').execute();
      const response = await t.request({
        method: 'POST',
        url: '/v1/crawler/hits',
        headers,
        payload: { hits: [{ user_agent: GPTBOT, path: '/' }] },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: 'unauthorized', message: expect.any(String) });
      expect(await t.database.db.selectFrom('crawler_hits').select('id').execute()).toHaveLength(
        before.length,
      );
    });

    it('records a token’s hits for its own site only, never another site of the account', async () => {
      const a = await siteWithToken();
      const b = await siteWithToken();
      expect((await send(a.token, { hits: [{ user_agent: GPTBOT, path: '/only-a' }] })).statusCode).toBe(202);
      expect(await storedPaths(a.site.id)).toEqual(['/only-a']);
      expect(await storedPaths(b.site.id)).toEqual([]);
      expect((await readReport(b.site.snippet_key)).crawlers).toEqual([]);
    });

    it('accepts the site’s snippet key as site_id, and answers 401 when it names another site', async () => {
      const a = await siteWithToken();
      const b = await siteWithToken();
      const ok = await send(a.token, {
        site_id: a.site.snippet_key,
        hits: [{ user_agent: GPTBOT, path: '/a' }],
      });
      expect(ok.statusCode).toBe(202);
      const wrong = await send(a.token, {
        site_id: b.site.snippet_key,
        hits: [{ user_agent: GPTBOT, path: '/b' }],
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toMatchObject({ error: 'unauthorized' });
      const malformed = await send(a.token, {
        site_id: 'site-a',
        hits: [{ user_agent: GPTBOT, path: '/c' }],
      });
      expect(malformed.statusCode).toBe(422);
      expect(malformed.json()).toMatchObject({ error: 'validation_failed', field: 'site_id' });
      expect(await storedPaths(a.site.id)).toEqual(['/a']);
      expect(await storedPaths(b.site.id)).toEqual([]);
    });

    it('accepts exactly 1,000 hits in one batch and answers with the count', async () => {
      const { site, token } = await siteWithToken();
      const hits = Array.from({ length: 1000 }, (_, i) => ({ user_agent: GPTBOT, path: `/p/${i}` }));
      const response = await send(token, { hits });
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ accepted: 1000 });
      expect(await storedPaths(site.id)).toHaveLength(1000);
    });

    it('refuses a body over 1 MiB with 413 payload_too_large and stores nothing', async () => {
      const { site, token } = await siteWithToken();
      const hits = Array.from({ length: 300 }, (_, i) => ({
        user_agent: GPTBOT,
        path: `/${i}/${'x'.repeat(4000)}`,
      }));
      const response = await send(token, { hits });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({ error: 'payload_too_large', message: expect.any(String) });
      expect(await storedPaths(site.id)).toEqual([]);
    });

    it('answers 400 invalid_json to a body that does not parse', async () => {
      const { token } = await siteWithToken();
      const response = await send(token, '{"hits": [' as unknown as object, {
        'content-type': 'application/json',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_json' });
    });

    it('replaces email addresses and phone numbers in query strings with [REDACTED] before storing', async () => {
      const { site, token } = await siteWithToken();
      const hits = [
        { user_agent: GPTBOT, path: '/reset?email=jane.doe%40example.com&step=2' },
        { user_agent: GPTBOT, path: 'https://shop.example.com/call?phone=%2B44%2020%207946%200958' },
      ];
      expect((await send(token, { hits })).statusCode).toBe(202);
      const paths = await storedPaths(site.id);
      expect(paths).toEqual(['/call?phone=%5BREDACTED%5D', '/reset?email=%5BREDACTED%5D&step=2']);
      const report = await readReport(site.snippet_key);
      expect(JSON.stringify(report)).not.toMatch(/jane|7946/);
    });

    it('never stores the IP address sent with a hit', async () => {
      const { site, token } = await siteWithToken();
      const hits = [{ user_agent: GPTBOT, path: '/ip', ip: '198.51.100.77' }];
      expect((await send(token, { hits })).statusCode).toBe(202);
      const rows = await t.database.db
        .selectFrom('crawler_hits')
        .selectAll()
        .where('site_id', '=', site.id)
        .execute();
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain('198.51.100.77');
    });

    it('refuses a hit dated more than 24 hours ahead with 422 naming it, and accepts one just inside', async () => {
      const { site, token } = await siteWithToken();
      const ahead = (ms: number) => new Date(t.clock.now().getTime() + ms).toISOString();
      const refused = await send(token, {
        hits: [
          { user_agent: GPTBOT, path: '/fine' },
          { user_agent: GPTBOT, path: '/later', timestamp: ahead(25 * HOUR_MS) },
        ],
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({ error: 'validation_failed', field: 'hits.1.timestamp' });
      expect(await storedPaths(site.id)).toEqual([]);
      const accepted = await send(token, {
        hits: [{ user_agent: GPTBOT, path: '/soon', timestamp: ahead(23 * HOUR_MS) }],
      });
      expect(accepted.statusCode).toBe(202);
    });

    it('stores browsers and non-AI crawlers as other, without an operator', async () => {
      const { site, token } = await siteWithToken();
      const hits = [
        { user_agent: BROWSER, path: '/human' },
        {
          user_agent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
          path: '/search',
        },
      ];
      expect((await send(token, { hits })).statusCode).toBe(202);
      const report = await readReport(site.snippet_key);
      expect(report.crawlers).toEqual([
        {
          crawler: 'other',
          operator: '',
          purpose: 'other',
          hits: 2,
          verified_hits: 0,
          spoofed_hits: 0,
          days: [{ date: dayOf(0).slice(0, 10), hits: 2 }],
        },
      ]);
      expect(report.purposes).toEqual([{ purpose: 'other', hits: 2 }]);
      expect(report.operators.filter((o) => o.hits > 0)).toEqual([]);
    });
  });

  describe('GET /v1/crawlers', () => {
    it('counts each hit on the UTC day it happened, inside the window only, and the figures add up', async () => {
      const { site, token } = await siteWithToken();
      const hits: Hit[] = [];
      const agents = [GPTBOT, GPTBOT, CLAUDEBOT, PERPLEXITY_USER, BROWSER];
      for (let i = 0; i < 60; i++) {
        hits.push({
          user_agent: agents[i % agents.length] as string,
          path: `/docs/${i % 25}`,
          timestamp: dayOf(-(i % 9)),
        });
      }
      expect((await send(token, { hits })).statusCode).toBe(202);
      const report = await readReport(site.snippet_key);
      // The default window is the last 7 days, today included.
      expect(report.to).toBe(dayOf(0).slice(0, 10));
      expect(report.from).toBe(dayOf(-6).slice(0, 10));
      const inWindow = hits.filter((hit) => (hit.timestamp as string).slice(0, 10) >= report.from);
      const total = (rows: { hits: number }[]) => rows.reduce((sum, row) => sum + row.hits, 0);

      expect(total(report.crawlers)).toBe(inWindow.length);
      expect(total(report.purposes)).toBe(inWindow.length);
      for (const crawler of report.crawlers) {
        expect(total(crawler.days)).toBe(crawler.hits);
        const dates = crawler.days.map((day) => day.date);
        expect(dates).toEqual([...dates].sort());
        for (const day of crawler.days) {
          const expected = inWindow.filter(
            (hit) =>
              (hit.timestamp as string).slice(0, 10) === day.date &&
              (crawler.crawler === 'other'
                ? hit.user_agent === BROWSER
                : hit.user_agent.includes(crawler.crawler)),
          ).length;
          expect(day.hits, `${crawler.crawler} ${day.date}`).toBe(expected);
        }
      }
      const other = report.crawlers.find((c) => c.crawler === 'other')?.hits ?? 0;
      expect(total(report.operators)).toBe(inWindow.length - other);
      const anthropic = report.operators.find((o) => o.operator === 'Anthropic');
      const claudeHits = inWindow.filter((hit) => hit.user_agent === CLAUDEBOT);
      expect(anthropic).toMatchObject({
        hits: claudeHits.length,
        pages_fetched: new Set(claudeHits.map((hit) => hit.path)).size,
      });

      // top_paths: at most 20, most fetched first, ties by path; counts match the hits sent.
      expect(report.top_paths.length).toBe(20);
      const counts = new Map<string, number>();
      for (const hit of inWindow) counts.set(hit.path, (counts.get(hit.path) ?? 0) + 1);
      const expected = [...counts]
        .map(([path, hits]) => ({ path, hits, non_2xx_hits: 0 }))
        .sort((a, b) => b.hits - a.hits || (a.path < b.path ? -1 : 1))
        .slice(0, 20);
      expect(report.top_paths).toEqual(expected);

      const lastDay = await readReport(
        site.snippet_key,
        `&from=${dayOf(-8).slice(0, 10)}&to=${dayOf(-8).slice(0, 10)}`,
      );
      expect(total(lastDay.crawlers)).toBe(
        hits.filter((hit) => hit.timestamp?.slice(0, 10) === dayOf(-8).slice(0, 10)).length,
      );
    });

    it('credits conversions to operators under the chosen attribution model', async () => {
      const { site, token } = await siteWithToken();
      expect(
        (
          await send(token, {
            hits: [
              { user_agent: GPTBOT, path: '/' },
              { user_agent: PERPLEXITY_USER, path: '/' },
            ],
          })
        ).statusCode,
      ).toBe(202);
      const buyer = newVisitorId();
      await collect(t, pageview(site.snippet_key, buyer, `https://${site.domain}/`, 'https://chatgpt.com/'));
      t.clock.advance(40 * MINUTE_MS);
      await collect(
        t,
        pageview(site.snippet_key, buyer, `https://${site.domain}/`, 'https://www.perplexity.ai/'),
      );
      const event = await t.request({
        method: 'POST',
        url: '/v1/server/events',
        headers: bearer(t.owner.apiKey),
        payload: { site_id: site.snippet_key, name: 'signup', visitor_id: buyer },
      });
      expect(event.statusCode).toBe(202);
      await t.app.services.attribution.runUntilIdle();
      const conversionsOf = (report: Report, operator: string) =>
        report.operators.find((o) => o.operator === operator)?.conversions;

      const lastTouch = await readReport(site.snippet_key);
      expect(conversionsOf(lastTouch, 'OpenAI')).toBe(0);
      expect(conversionsOf(lastTouch, 'Perplexity')).toBe(1);
      const linear = await readReport(site.snippet_key, '&attribution_model=linear');
      // Halves tie: the conversion counts once, for the first source by name (chatgpt).
      expect(conversionsOf(linear, 'OpenAI')).toBe(1);
      expect(conversionsOf(linear, 'Perplexity')).toBe(0);
      const firstTouch = await readReport(site.snippet_key, '&attribution_model=first_touch');
      expect(conversionsOf(firstTouch, 'OpenAI')).toBe(1);
    });

    it('answers 401 without a key and 403 insufficient_scope naming stats:read to a key without it', async () => {
      const site = await insertSite(t, t.owner.accountId);
      const none = await t.request({ method: 'GET', url: `/v1/crawlers?site_id=${site.snippet_key}` });
      expect(none.statusCode).toBe(401);
      expect(none.json()).toMatchObject({ error: 'unauthorized' });
      const writer = await mintKey(t, t.owner.cookie, { scopes: ['config:write', 'ingest:write'] });
      const refused = await t.request({
        method: 'GET',
        url: `/v1/crawlers?site_id=${site.snippet_key}`,
        headers: bearer(writer.api_key),
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'insufficient_scope', required_scope: 'stats:read' });
    });

    it('answers 404 for a site of another account and for a site outside a one-site key', async () => {
      const rival = await insertSite(t, (await insertAccount(t)).accountId);
      const foreign = await t.request({
        method: 'GET',
        url: `/v1/crawlers?site_id=${rival.snippet_key}`,
        headers: bearer(t.owner.apiKey),
      });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toMatchObject({ error: 'not_found' });
      const mine = await insertSite(t, t.owner.accountId);
      const other = await insertSite(t, t.owner.accountId);
      const scoped = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'], site_id: mine.snippet_key });
      expect((await readReport(mine.snippet_key, '', scoped.api_key)).crawlers).toEqual([]);
      const outside = await t.request({
        method: 'GET',
        url: `/v1/crawlers?site_id=${other.snippet_key}`,
        headers: bearer(scoped.api_key),
      });
      expect(outside.statusCode).toBe(404);
    });

    it.each([
      ['a window of 366 days', 'from=2024-01-01&to=2024-12-31', 'from'],
      ['from after to', 'from=2024-02-02&to=2024-02-01', 'from'],
      ['a date that does not exist', 'from=2024-02-30', 'from'],
      ['an unknown attribution model', 'attribution_model=position_based', 'attribution_model'],
      ['an unknown parameter', 'page=2', undefined],
    ])('answers 422 validation_failed for %s', async (_label, query, field) => {
      const site = await insertSite(t, t.owner.accountId);
      const response = await t.request({
        method: 'GET',
        url: `/v1/crawlers?site_id=${site.snippet_key}&${query}`,
        headers: bearer(t.owner.apiKey),
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ error: 'validation_failed', ...(field ? { field } : {}) });
    });

    it('accepts a window of exactly 365 days', async () => {
      const site = await insertSite(t, t.owner.accountId);
      const report = await readReport(site.snippet_key, '&from=2023-01-01&to=2023-12-31');
      expect(report).toMatchObject({ from: '2023-01-01', to: '2023-12-31' });
    });
  });
});
