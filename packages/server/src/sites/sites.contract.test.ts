/**
 * Contract rules of sites and bot tokens (interface §2.4a, §2.9, §3.1, §4.2, §4.6, §5, §8) that
 * the other suites of the area do not pin: when `verified_at` is set, collection stopping and
 * resuming around a scheduled deletion, reads that keep working meanwhile, and who may mint,
 * list and revoke bot tokens.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { MINUTE_MS } from '../lib/clock.js';
import { sha256Hex } from '../lib/secrets.js';
import { bearer, createTestApp, mintKey, type Owner, setUpOwner, type TestApp } from '../test/app.js';
import {
  ALL_SCOPES,
  type Auth,
  addOtherAccount,
  addPerson,
  addSite,
  asKey,
  asSession,
  type CreatedSite,
  type Person,
} from './sites.fixtures.js';

const GPTBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

/** Demotes an admin to member through the API, as the owner. */
async function demote(t: TestApp, owner: Owner, person: Person) {
  const response = await t.request({
    method: 'PATCH',
    url: `/v1/account/members/${person.userId}`,
    headers: asSession(owner.cookie),
    payload: { role: 'member' },
  });
  if (response.statusCode !== 200) throw new Error(`demotion failed: ${response.body}`);
}

const mintBotToken = (t: TestApp, auth: Auth, siteId: string) =>
  t.request({ method: 'POST', url: '/v1/account/bot-tokens', headers: auth, payload: { site_id: siteId } });
const revokeBotToken = (t: TestApp, auth: Auth, id: string) =>
  t.request({ method: 'DELETE', url: `/v1/account/bot-tokens/${id}`, headers: auth });
const listBotTokens = (t: TestApp, auth: Auth, query = '') =>
  t.request({ method: 'GET', url: `/v1/account/bot-tokens${query}`, headers: auth });
const reportHits = (t: TestApp, token: string, paths: string[]) =>
  t.request({
    method: 'POST',
    url: '/v1/crawler/hits',
    headers: bearer(token),
    payload: { hits: paths.map((path) => ({ user_agent: GPTBOT, path })) },
  });

describe('site lifecycle', () => {
  let t: TestApp;
  let owner: Owner;
  let site: CreatedSite;
  beforeEach(async () => {
    t = await createTestApp();
    owner = await setUpOwner(t);
    site = await addSite(t, asKey(owner.apiKey), 'shop.example.com');
  });
  afterEach(() => t.close());

  const read = (target = site) =>
    t.request({ method: 'GET', url: `/v1/sites/${target.site_id}`, headers: asKey(owner.apiKey) });
  const schedule = async (target = site) => {
    const response = await t.request({
      method: 'DELETE',
      url: `/v1/sites/${target.site_id}`,
      headers: asKey(owner.apiKey),
      payload: { confirm_domain: target.domain },
    });
    expect(response.statusCode).toBe(200);
  };
  const restore = (auth: Auth = asKey(owner.apiKey), target = site) =>
    t.request({ method: 'POST', url: `/v1/sites/${target.site_id}/restore`, headers: auth });
  const visit = () => collect(t, pageview(site.snippet_key, newVisitorId(), 'https://shop.example.com/'));

  it('sets verified_at when the first event is received, and later events leave it alone', async () => {
    expect((await read()).json().verified_at).toBeNull();
    const firstAt = t.clock.now().toISOString();
    expect((await visit()).statusCode).toBe(202);
    expect((await read()).json().verified_at).toBe(firstAt);
    t.clock.advance(5 * MINUTE_MS);
    expect((await visit()).statusCode).toBe(202);
    expect((await read()).json().verified_at).toBe(firstAt);
  });

  it('stops browser collection while deletion is scheduled and resumes it after restore', async () => {
    await schedule();
    const stopped = await visit();
    expect(stopped.statusCode).toBe(429);
    expect(stopped.json()).toMatchObject({ error: 'quota_exceeded' });
    expect((await restore()).statusCode).toBe(200);
    expect((await visit()).statusCode).toBe(202);
  });

  it('stops crawler-hit collection while deletion is scheduled and resumes it after restore', async () => {
    const { plaintext_token: token } = (await mintBotToken(t, asKey(owner.apiKey), site.site_id)).json();
    const hitsStored = async () =>
      (await t.database.db.selectFrom('crawler_hits').select('id').execute()).length;
    await schedule();
    const stopped = await reportHits(t, token, ['/a']);
    expect(stopped.statusCode).toBe(429);
    expect(stopped.json()).toMatchObject({ error: 'quota_exceeded' });
    expect(await hitsStored()).toBe(0);
    expect((await restore()).statusCode).toBe(200);
    expect((await reportHits(t, token, ['/b'])).statusCode).toBe(202);
    expect(await hitsStored()).toBe(1);
  });

  it('keeps the crawler report of a site readable while its deletion is scheduled', async () => {
    const { plaintext_token: token } = (await mintBotToken(t, asKey(owner.apiKey), site.site_id)).json();
    expect((await reportHits(t, token, ['/docs/a', '/docs/b'])).statusCode).toBe(202);
    await schedule();
    const report = await t.request({
      method: 'GET',
      url: `/v1/crawlers?site_id=${site.site_id}`,
      headers: asKey(owner.apiKey),
    });
    expect(report.statusCode).toBe(200);
    expect(report.json().crawlers).toEqual([expect.objectContaining({ crawler: 'GPTBot', hits: 2 })]);
  });

  it('refuses restore with 403 forbidden to a key whose creator is no longer an admin', async () => {
    const former = await addPerson(t, owner, 'admin', 'former-admin@example.com');
    await schedule();
    await demote(t, owner, former);
    const refused = await restore(asKey(former.apiKey));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'forbidden' });
    expect((await read()).statusCode).toBe(404);
  });

  it('restores a site whose domain another account now tracks: that is no conflict', async () => {
    await schedule();
    const rival = await addOtherAccount(t);
    await addSite(t, asKey(rival.apiKey), 'shop.example.com');
    const restored = await restore();
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toEqual({ status: 'active', site_id: site.site_id, domain: 'shop.example.com' });
  });
});

describe('bot tokens', () => {
  let t: TestApp;
  let owner: Owner;
  let site: CreatedSite;
  let other: CreatedSite;
  beforeEach(async () => {
    t = await createTestApp();
    owner = await setUpOwner(t);
    site = await addSite(t, asKey(owner.apiKey), 'docs.example.com');
    other = await addSite(t, asKey(owner.apiKey), 'blog.example.com');
  });
  afterEach(() => t.close());

  const mintAsOwner = async (target = site) => {
    const response = await mintBotToken(t, asKey(owner.apiKey), target.site_id);
    expect(response.statusCode).toBe(201);
    return response.json() as { id: string; plaintext_token: string; snippet_key: string };
  };
  const revokedAt = async (id: string) =>
    (
      await t.database.db
        .selectFrom('bot_tokens')
        .select('revoked_at')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).revoked_at;

  it.each([
    ['POST', 'credentials:write'],
    ['GET', 'config:write'],
    ['DELETE', 'config:write'],
  ])('%s answers 403 insufficient_scope naming %s when the key lacks it', async (method, scope) => {
    const token = await mintAsOwner();
    const { api_key } = await mintKey(t, owner.cookie, { scopes: ALL_SCOPES.filter((s) => s !== scope) });
    const response =
      method === 'POST'
        ? await mintBotToken(t, asKey(api_key), site.site_id)
        : method === 'GET'
          ? await listBotTokens(t, asKey(api_key))
          : await revokeBotToken(t, asKey(api_key), token.id);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'insufficient_scope', required_scope: scope });
    expect(await revokedAt(token.id)).toBeNull();
  });

  it("lets a member's key with config:write list tokens: only a session must be an admin", async () => {
    const token = await mintAsOwner();
    const member = await addPerson(t, owner, 'member', 'member@example.com');
    const response = await listBotTokens(t, asKey(member.apiKey));
    expect(response.statusCode).toBe(200);
    expect(response.json().bot_tokens.map((row: { id: string }) => row.id)).toEqual([token.id]);
  });

  it('refuses minting with 403 forbidden to a member session and to a key whose creator was demoted', async () => {
    const member = await addPerson(t, owner, 'member', 'member@example.com');
    const former = await addPerson(t, owner, 'admin', 'former@example.com');
    await demote(t, owner, former);
    for (const auth of [asSession(member.cookie), asKey(former.apiKey)]) {
      const response = await mintBotToken(t, auth, site.site_id);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ error: 'forbidden' });
    }
    expect(await t.database.db.selectFrom('bot_tokens').select('id').execute()).toEqual([]);
  });

  it('refuses revoking with 403 forbidden to a member and to a demoted creator; the token keeps working', async () => {
    const token = await mintAsOwner();
    const member = await addPerson(t, owner, 'member', 'member@example.com');
    const former = await addPerson(t, owner, 'admin', 'former@example.com');
    await demote(t, owner, former);
    for (const auth of [asSession(member.cookie), asKey(member.apiKey), asKey(former.apiKey)]) {
      const response = await revokeBotToken(t, auth, token.id);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ error: 'forbidden' });
    }
    expect(await revokedAt(token.id)).toBeNull();
    expect((await reportHits(t, token.plaintext_token, ['/'])).statusCode).toBe(202);
  });

  it("answers 404 to minting for another account's site or a site outside a single-site key", async () => {
    const rival = await addOtherAccount(t);
    const theirs = await addSite(t, asKey(rival.apiKey), 'docs.example.com');
    const { api_key: narrow } = await mintKey(t, owner.cookie, { scopes: ALL_SCOPES, site_id: site.site_id });
    for (const [auth, target] of [
      [asKey(owner.apiKey), theirs.site_id],
      [asSession(owner.cookie), theirs.site_id],
      [asKey(narrow), other.site_id],
    ] as const) {
      const response = await mintBotToken(t, auth, target);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found' });
    }
    expect((await mintBotToken(t, asKey(narrow), site.site_id)).statusCode).toBe(201);
  });

  it("answers 404 to revoking another account's token, an unknown id, or one outside a single-site key", async () => {
    const rival = await addOtherAccount(t);
    const theirSite = await addSite(t, asKey(rival.apiKey), 'rival.example.com');
    const theirs = (await mintBotToken(t, asKey(rival.apiKey), theirSite.site_id)).json();
    const onOther = await mintAsOwner(other);
    const { api_key: narrow } = await mintKey(t, owner.cookie, { scopes: ALL_SCOPES, site_id: site.site_id });
    for (const [auth, id] of [
      [asKey(owner.apiKey), theirs.id],
      [asSession(owner.cookie), theirs.id],
      [asKey(owner.apiKey), '00000000-0000-4000-8000-000000000000'],
      [asKey(narrow), onOther.id],
    ] as const) {
      const response = await revokeBotToken(t, auth, id);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: 'not_found' });
    }
    expect(await revokedAt(theirs.id)).toBeNull();
    expect(await revokedAt(onOther.id)).toBeNull();
  });

  it("shows a single-site key only its site's tokens, and an empty list for another site", async () => {
    const mine = await mintAsOwner(site);
    await mintAsOwner(other);
    const { api_key: narrow } = await mintKey(t, owner.cookie, { scopes: ALL_SCOPES, site_id: site.site_id });
    const ids = async (query = '') =>
      (await listBotTokens(t, asKey(narrow), query)).json().bot_tokens.map((row: { id: string }) => row.id);
    expect(await ids()).toEqual([mine.id]);
    expect(await ids(`?site_id=${site.site_id}`)).toEqual([mine.id]);
    expect(await ids(`?site_id=${other.site_id}`)).toEqual([]);
    expect(
      (await listBotTokens(t, asKey(owner.apiKey))).json().bot_tokens.map((row: { id: string }) => row.id),
    ).toHaveLength(2);
  });

  it('takes the internal site UUID from a dashboard session, and answers 404 to a key that sends it', async () => {
    const { id: uuid } = await t.database.db
      .selectFrom('sites')
      .select('id')
      .where('snippet_key', '=', site.site_id)
      .executeTakeFirstOrThrow();
    const minted = await mintBotToken(t, asSession(owner.cookie), uuid);
    expect(minted.statusCode).toBe(201);
    expect(minted.json().snippet_key).toBe(site.site_id);
    const listed = await listBotTokens(t, asSession(owner.cookie), `?site_id=${uuid}`);
    expect(listed.json().bot_tokens.map((row: { id: string }) => row.id)).toEqual([minted.json().id]);
    const report = (auth: Auth) =>
      t.request({ method: 'GET', url: `/v1/crawlers?site_id=${uuid}`, headers: auth });
    expect((await report(asSession(owner.cookie))).statusCode).toBe(200);

    const byKey = await mintBotToken(t, asKey(owner.apiKey), uuid);
    expect(byKey.statusCode).toBe(404);
    expect(byKey.json()).toMatchObject({ error: 'not_found' });
    expect((await listBotTokens(t, asKey(owner.apiKey), `?site_id=${uuid}`)).json().bot_tokens).toEqual([]);
    expect((await report(asKey(owner.apiKey))).statusCode).toBe(404);
  });

  it('still lists the tokens of a site scheduled for deletion when asked for that site', async () => {
    const token = await mintAsOwner();
    const scheduled = await t.request({
      method: 'DELETE',
      url: `/v1/sites/${site.site_id}`,
      headers: asKey(owner.apiKey),
      payload: { confirm_domain: site.domain },
    });
    expect(scheduled.statusCode).toBe(200);
    const ids = async (query: string) =>
      (await listBotTokens(t, asKey(owner.apiKey), query))
        .json()
        .bot_tokens.map((row: { id: string }) => row.id);
    expect(await ids('')).toEqual([token.id]);
    expect(await ids(`?site_id=${site.site_id}`)).toEqual([token.id]);
  });

  it('stores only the SHA-256 hash of the token and never returns the hash', async () => {
    const token = await mintAsOwner();
    const row = await t.database.db
      .selectFrom('bot_tokens')
      .select('token_hash')
      .where('id', '=', token.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256Hex(token.plaintext_token));
    const list = await listBotTokens(t, asKey(owner.apiKey));
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(row.token_hash);
    expect(list.body).not.toContain(token.plaintext_token);
  });

  it('counts active tokens only: revoking one of the 5 on a site makes room for another', async () => {
    const tokens = [];
    for (let i = 0; i < 5; i++) tokens.push(await mintAsOwner());
    const sixth = await mintBotToken(t, asKey(owner.apiKey), site.site_id);
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json()).toMatchObject({ error: 'bot_token_limit_reached' });
    expect((await revokeBotToken(t, asKey(owner.apiKey), tokens[0]?.id as string)).statusCode).toBe(200);
    expect((await mintBotToken(t, asKey(owner.apiKey), site.site_id)).statusCode).toBe(201);
  });

  it('answers 401 to a bot token on routes that read analytics or change configuration', async () => {
    const { plaintext_token: token } = await mintAsOwner();
    const requests = [
      { method: 'GET', url: '/v1/sites' },
      { method: 'GET', url: `/v1/sites/${site.site_id}` },
      { method: 'PATCH', url: `/v1/sites/${site.site_id}`, payload: { name: 'Taken over' } },
      { method: 'POST', url: '/v1/sites', payload: { domain: 'new.example.com' } },
      { method: 'GET', url: `/v1/crawlers?site_id=${site.site_id}` },
      { method: 'GET', url: '/v1/account/bot-tokens' },
      { method: 'POST', url: '/v1/account/bot-tokens', payload: { site_id: site.site_id } },
    ] as const;
    for (const request of requests) {
      const response = await t.request({ ...request, headers: bearer(token) });
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(401);
      expect(response.json()).toMatchObject({ error: 'unauthorized' });
    }
    expect((await t.database.db.selectFrom('bot_tokens').select('id').execute()).length).toBe(1);
  });
});
