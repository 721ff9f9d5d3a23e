import { readFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { SECOND_MS } from '../lib/clock.js';
import { bearer, login, mintKey, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';

const GPTBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';
const CHATGPT_USER =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';
const CLAUDEBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';

describe('bot tokens and crawler hits', () => {
  const t = useTestApp();

  const mint = (key: string, body: object) =>
    t.request({ method: 'POST', url: '/v1/account/bot-tokens', headers: bearer(key), payload: body });
  const report = (token: string, hits: object[]) =>
    t.request({ method: 'POST', url: '/v1/crawler/hits', headers: bearer(token), payload: { hits } });

  it('mints a token shown once, stores only its hash, and lists metadata', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'docs.example.com' });
    const response = await mint(t.owner.apiKey, { site_id: site.snippet_key, name: 'edge' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ snippet_key: site.snippet_key, name: 'edge' });
    expect(body.plaintext_token).toMatch(/^tt_bot_[A-Za-z0-9_-]{43}$/);
    const rows = await t.database.db.selectFrom('bot_tokens').selectAll().where('id', '=', body.id).execute();
    expect(JSON.stringify(rows)).not.toContain(body.plaintext_token);

    const list = await t.request({
      method: 'GET',
      url: `/v1/account/bot-tokens?site_id=${site.snippet_key}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(body.plaintext_token);
    expect(list.json().bot_tokens).toEqual([
      expect.objectContaining({ id: body.id, snippet_key: site.snippet_key, revoked_at: null }),
    ]);
    const rival = await insertSite(t, (await insertAccount(t)).accountId, { domain: 'docs.example.com' });
    const foreign = await t.request({
      method: 'GET',
      url: `/v1/account/bot-tokens?site_id=${rival.snippet_key}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(foreign.json()).toEqual({ bot_tokens: [] });
  });

  it('needs credentials:write and ingest:write, and an admin behind the key', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'perm.example.com' });
    const noIngest = await mintKey(t, t.owner.cookie, { scopes: ['credentials:write'] });
    const refused = await mint(noIngest.api_key, { site_id: site.snippet_key });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'insufficient_scope', required_scope: 'ingest:write' });

    const member = { email: 'crawler-member@example.com', password: 'member password 1' };
    await t.request({
      method: 'POST',
      url: '/v1/account/members',
      headers: { cookie: t.owner.cookie },
      payload: { ...member, role: 'member' },
    });
    const memberKey = await mintKey(t, await login(t, member), {
      scopes: ['credentials:write', 'ingest:write', 'config:write'],
    });
    expect((await mint(memberKey.api_key, { site_id: site.snippet_key })).statusCode).toBe(403);
    const list = await t.request({
      method: 'GET',
      url: '/v1/account/bot-tokens',
      headers: { cookie: await login(t, member) },
    });
    expect(list.statusCode).toBe(403);
  });

  it('allows 5 active tokens per site', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'limit.example.com' });
    for (let i = 0; i < 5; i++)
      expect((await mint(t.owner.apiKey, { site_id: site.snippet_key })).statusCode).toBe(201);
    const sixth = await mint(t.owner.apiKey, { site_id: site.snippet_key });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json()).toMatchObject({ error: 'bot_token_limit_reached', limit: 5 });
  });

  it('accepts hits with a bot token only, and a revoked token stops within 60 seconds', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'hits.example.com' });
    const { id, plaintext_token: token } = (await mint(t.owner.apiKey, { site_id: site.snippet_key })).json();
    const accepted = await report(token, [{ user_agent: GPTBOT, path: '/docs/a', status: 200 }]);
    expect(accepted.statusCode).toBe(202);
    expect(accepted.json()).toEqual({ accepted: 1 });
    expect(
      (await t.request({ method: 'GET', url: '/v1/account/keys', headers: bearer(token) })).statusCode,
    ).toBe(401);
    expect((await report(t.owner.apiKey, [{ user_agent: GPTBOT, path: '/' }])).statusCode).toBe(401);

    const revoked = await t.request({
      method: 'DELETE',
      url: `/v1/account/bot-tokens/${id}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ id, revoked_at: expect.any(String) });
    t.clock.advance(30 * SECOND_MS);
    expect((await report(token, [{ user_agent: GPTBOT, path: '/docs/b' }])).statusCode).toBe(202);
    t.clock.advance(31 * SECOND_MS);
    expect((await report(token, [{ user_agent: GPTBOT, path: '/docs/c' }])).statusCode).toBe(401);
  });

  it.each([
    [{ hits: [] }, 'hits'],
    [{ hits: [{ path: '/' }] }, 'hits.0.user_agent'],
    [{ hits: [{ user_agent: GPTBOT, path: '/', status: 42 }] }, 'hits.0.status'],
    [{ hits: [{ user_agent: GPTBOT, path: '/', ip: 'not-an-ip' }] }, 'hits.0.ip'],
    [{ hits: [{ user_agent: GPTBOT, path: '/', extra: 1 }] }, 'hits.0.extra'],
    [{ hits: Array.from({ length: 1001 }, () => ({ user_agent: GPTBOT, path: '/' })) }, 'hits'],
  ])('answers 422 naming the field (%#)', async (payload, field) => {
    const site = await insertSite(t, t.owner.accountId, {
      domain: `v${Math.random().toString(36).slice(2)}.example.com`,
    });
    const { plaintext_token: token } = (await mint(t.owner.apiKey, { site_id: site.snippet_key })).json();
    const response = await t.request({
      method: 'POST',
      url: '/v1/crawler/hits',
      headers: bearer(token),
      payload,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field });
  });

  it('reports crawling, assistant visits and purposes against an independent count', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'loop.example.com' });
    const { plaintext_token: token } = (await mint(t.owner.apiKey, { site_id: site.snippet_key })).json();
    const hits: { user_agent: string; path: string }[] = [];
    const agents = [GPTBOT, CHATGPT_USER, CLAUDEBOT, 'curl/8.0'];
    for (let i = 0; i < 300; i++) hits.push({ user_agent: agents[i % 4] as string, path: `/docs/${i % 17}` });
    expect((await report(token, hits)).statusCode).toBe(202);
    for (let i = 0; i < 7; i++) {
      await collect(
        t,
        pageview(site.snippet_key, newVisitorId(), 'https://loop.example.com/docs/1', 'https://chatgpt.com/'),
      );
    }
    const response = await t.request({
      method: 'GET',
      url: `/v1/crawlers?site_id=${site.snippet_key}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const count = (agent: string) => hits.filter((hit) => hit.user_agent === agent).length;
    expect(body.crawlers.find((c: { crawler: string }) => c.crawler === 'GPTBot').hits).toBe(count(GPTBOT));
    expect(body.crawlers.find((c: { crawler: string }) => c.crawler === 'other').hits).toBe(
      count('curl/8.0'),
    );
    expect(body.purposes).toEqual(
      expect.arrayContaining([
        { purpose: 'training', hits: count(GPTBOT) + count(CLAUDEBOT) },
        { purpose: 'user', hits: count(CHATGPT_USER) },
      ]),
    );
    const openai = body.operators.find((o: { operator: string }) => o.operator === 'OpenAI');
    const openaiPaths = new Set(
      hits.filter((h) => h.user_agent === GPTBOT || h.user_agent === CHATGPT_USER).map((h) => h.path),
    );
    expect(openai).toMatchObject({
      hits: count(GPTBOT) + count(CHATGPT_USER),
      pages_fetched: openaiPaths.size,
      assistant_visits: 7,
    });
    expect(body.top_paths[0].hits).toBeGreaterThanOrEqual(body.top_paths[1].hits);
  });

  it('counts as pages fetched only paths answered 2xx, and the other answers apart', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'status.example.com' });
    const { plaintext_token: token } = (await mint(t.owner.apiKey, { site_id: site.snippet_key })).json();
    const hits = [
      { user_agent: GPTBOT, path: '/docs', status: 200 },
      { user_agent: GPTBOT, path: '/docs', status: 200 },
      { user_agent: CHATGPT_USER, path: '/pricing', status: 204 },
      // No status reported: counted as fetched, as before statuses were told apart.
      { user_agent: GPTBOT, path: '/blog' },
      { user_agent: GPTBOT, path: '/wp-login.php', status: 404 },
      { user_agent: GPTBOT, path: '/wp-login.php', status: 404 },
      { user_agent: GPTBOT, path: '/.env', status: 404 },
      { user_agent: GPTBOT, path: '/old', status: 301 },
      { user_agent: CHATGPT_USER, path: '/broken', status: 500 },
      // Answered 2xx once and 404 once: fetched, and its 404 counted apart.
      { user_agent: GPTBOT, path: '/flaky', status: 200 },
      { user_agent: GPTBOT, path: '/flaky', status: 404 },
      { user_agent: CLAUDEBOT, path: '/missing', status: 404 },
    ];
    expect((await report(token, hits)).statusCode).toBe(202);
    const response = await t.request({
      method: 'GET',
      url: `/v1/crawlers?site_id=${site.snippet_key}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const operator = (name: string) => body.operators.find((o: { operator: string }) => o.operator === name);
    expect(operator('OpenAI')).toMatchObject({
      hits: 11,
      pages_fetched: 4, // /docs, /pricing, /blog, /flaky
      non_2xx_hits: 6,
      non_2xx_paths: 5, // /wp-login.php, /.env, /old, /broken, /flaky
    });
    expect(operator('Anthropic')).toMatchObject({
      hits: 1,
      pages_fetched: 0,
      non_2xx_hits: 1,
      non_2xx_paths: 1,
    });
    const paths = Object.fromEntries(
      body.top_paths.map((row: { path: string; hits: number; non_2xx_hits: number }) => [
        row.path,
        [row.hits, row.non_2xx_hits],
      ]),
    );
    expect(paths).toEqual({
      '/docs': [2, 0],
      '/pricing': [1, 0],
      '/blog': [1, 0],
      '/wp-login.php': [2, 2],
      '/.env': [1, 1],
      '/old': [1, 1],
      '/broken': [1, 1],
      '/flaky': [2, 1],
      '/missing': [1, 1],
    });
  });

  it('fills in the answers apart for days counted before they were (migration 015), from the raw hits', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'backfill.example.com' });
    const { plaintext_token: token } = (await mint(t.owner.apiKey, { site_id: site.snippet_key })).json();
    const hits = [
      { user_agent: GPTBOT, path: '/kept', status: 200 },
      { user_agent: GPTBOT, path: '/gone', status: 404 },
      { user_agent: GPTBOT, path: '/gone', status: 410 },
      { user_agent: GPTBOT, path: '/moved', status: 308 },
    ];
    expect((await report(token, hits)).statusCode).toBe(202);
    const read = async () =>
      (
        await t.request({
          method: 'GET',
          url: `/v1/crawlers?site_id=${site.snippet_key}`,
          headers: bearer(t.owner.apiKey),
        })
      )
        .json()
        .operators.find((o: { operator: string }) => o.operator === 'OpenAI');
    const before = await read();
    expect(before).toMatchObject({ hits: 4, pages_fetched: 1, non_2xx_hits: 3, non_2xx_paths: 2 });

    const { db } = t.database;
    await db
      .updateTable('daily_crawler_paths')
      .set({ non_2xx_hits: 0 })
      .where('site_id', '=', site.id)
      .execute();
    expect(await read()).toMatchObject({ pages_fetched: 3, non_2xx_hits: 0 });
    const migration = await readFile(
      new URL('../../migrations/015_crawler_path_statuses.sql', import.meta.url),
      'utf8',
    );
    await sql.raw(migration.slice(migration.indexOf('update daily_crawler_paths'))).execute(db);
    expect(await read()).toEqual(before);
  });

  it('closes the loop: credited payments and net revenue per AI operator', async () => {
    const site = await insertSite(t, t.owner.accountId, { domain: 'money.example.com' });
    const { plaintext_token: token } = (await mint(t.owner.apiKey, { site_id: site.snippet_key })).json();
    expect((await report(token, [{ user_agent: GPTBOT, path: '/pricing' }])).statusCode).toBe(202);
    const buyer = newVisitorId();
    await collect(
      t,
      pageview(site.snippet_key, buyer, 'https://money.example.com/pricing', 'https://chatgpt.com/'),
    );
    const pay = (body: object) =>
      t.request({
        method: 'POST',
        url: '/v1/server/payments',
        headers: bearer(t.owner.apiKey),
        payload: { site_id: site.snippet_key, ...body },
      });
    expect(
      (await pay({ transaction_id: 'ch_1', amount: 120, currency: 'USD', visitor_id: buyer })).statusCode,
    ).toBe(202);
    expect(
      (await pay({ transaction_id: 'ch_2', amount: 30, currency: 'USD', visitor_id: buyer })).statusCode,
    ).toBe(202);
    await t.app.services.attribution.runUntilIdle();
    expect(
      (await pay({ transaction_id: 'ch_2', amount: 30, currency: 'USD', refunded_amount: 10 })).json().status,
    ).toBe('refunded');

    const response = await t.request({
      method: 'GET',
      url: `/v1/crawlers?site_id=${site.snippet_key}`,
      headers: bearer(t.owner.apiKey),
    });
    const openai = response.json().operators.find((o: { operator: string }) => o.operator === 'OpenAI');
    expect(openai).toMatchObject({
      hits: 1,
      pages_fetched: 1,
      assistant_visits: 1,
      payments: 2,
      gross: 150,
      refunded: 10,
      net: 140,
    });
  });
});
