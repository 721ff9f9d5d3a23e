/**
 * Contract rules of the account area not pinned elsewhere: dashboard sessions, setup, members,
 * API keys (interface §5), and the revenue report. Each describe block boots its own app.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { arrive, recordPayment } from '../attribution/attribution.fixtures.js';
import { readSetting } from '../db/settings.js';
import { newVisitorId } from '../ingest/ingest.fixtures.js';
import { prepareSetupToken } from '../instance.js';
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { sha256Hex } from '../lib/secrets.js';
import {
  ADMIN,
  bearer,
  login,
  mintKey,
  type Owner,
  SETUP_TOKEN,
  type TestApp,
  useTestApp,
} from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { SETUP_NONCE_SETTING, SETUP_TOKEN_SETTING } from './accounts.service.js';

const ALL_SCOPES = ['stats:read', 'config:write', 'credentials:write', 'ingest:write'];

async function addMember(t: TestApp, owner: Owner, email: string, role: 'admin' | 'member') {
  const who = { email, password: 'member password 1' };
  const added = await t.request({
    method: 'POST',
    url: '/v1/account/members',
    headers: { cookie: owner.cookie },
    payload: { ...who, role },
  });
  if (added.statusCode !== 201) throw new Error(`member not added: ${added.body}`);
  return { userId: added.json().member.user_id as string, cookie: await login(t, who) };
}

describe('dashboard sessions', () => {
  const t = useTestApp();

  const me = (headers: Record<string, string>) => t.request({ method: 'GET', url: '/v1/auth/me', headers });

  it('sets the session cookie for 30 days', async () => {
    const response = await t.request({ method: 'POST', url: '/v1/auth/login', payload: ADMIN });
    const cookie = response.cookies.find((c) => c.name === 'tt_session');
    expect(cookie?.maxAge).toBe(30 * 24 * 60 * 60);
  });

  it('signs in with the email written in any case', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { ...ADMIN, email: ADMIN.email.toUpperCase() },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ user_id: t.owner.userId });
  });

  it('deletes the stored session on logout and clears the cookie', async () => {
    const cookie = await login(t, ADMIN);
    const count = async () =>
      (await t.database.db.selectFrom('dashboard_sessions').select('token_hash').execute()).length;
    const before = await count();
    const logout = await t.request({ method: 'POST', url: '/v1/auth/logout', headers: { cookie } });
    expect(logout.statusCode).toBe(204);
    expect(await count()).toBe(before - 1);
    const cleared = logout.cookies.find((c) => c.name === 'tt_session');
    expect(cleared?.value).toBe('');
    expect(cleared?.expires?.getTime() ?? 0).toBeLessThanOrEqual(Date.now());
    expect(cleared).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // The old cookie reaches nothing, not even the key routes that take a session.
    const keys = await t.request({ method: 'GET', url: '/v1/account/keys', headers: { cookie } });
    expect(keys.statusCode).toBe(401);
  });

  it('answers logout without a session with 204', async () => {
    const response = await t.request({ method: 'POST', url: '/v1/auth/logout' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
  });

  it('lets a bad Authorization header win over a valid session cookie', async () => {
    const response = await me({ cookie: t.owner.cookie, authorization: 'Bearer not-a-key' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('ends a session 30 days after sign-in even when it is used every few days', async () => {
    const cookie = await login(t, ADMIN);
    for (let i = 0; i < 4; i++) {
      t.clock.advance(6 * DAY_MS);
      expect((await me({ cookie })).statusCode).toBe(200);
    }
    t.clock.advance(6 * DAY_MS);
    expect((await me({ cookie })).statusCode).toBe(401);
  });
});

describe('setup', () => {
  const t = useTestApp({}, { owner: false });

  it('allows 10 setup attempts a minute per address, then answers 429 with Retry-After', async () => {
    const attempt = () =>
      t.request({
        method: 'POST',
        url: '/v1/setup',
        payload: { setup_token: 'wrong-token-wrong-token', ...ADMIN },
      });
    for (let i = 0; i < 10; i++) expect((await attempt()).statusCode).toBe(401);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ error: 'rate_limited' });
    const right = await t.request({
      method: 'POST',
      url: '/v1/setup',
      payload: { setup_token: SETUP_TOKEN, ...ADMIN },
    });
    expect(right.statusCode).toBe(429);
    expect(await t.app.services.accounts.isSetUp()).toBe(false);
  });
});

describe('setup with a generated token', () => {
  const t = useTestApp({}, { owner: false });
  beforeAll(async () => {
    // As when SETUP_TOKEN is not configured: the server makes a token and prints it once.
    t.config.setupToken = undefined;
  });

  it('gives every process and restart the same token, and stores only its hash', async () => {
    // Several processes start on one database at once: each prints a token, and all must work.
    const tokens = await Promise.all([1, 2, 3].map(() => prepareSetupToken(t.database.db, t.config)));
    const token = tokens[0];
    if (!token) throw new Error('no setup token was generated');
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect(tokens).toEqual([token, token, token]);
    expect(await prepareSetupToken(t.database.db, t.config)).toBe(token);
    const stored = await readSetting(t.database.db, SETUP_TOKEN_SETTING);
    expect(stored).toBe(sha256Hex(token));
    // Another server secret (SECRET_KEY changed between starts) gives another token, and the
    // latest start's is the one that works.
    const other = await prepareSetupToken(t.database.db, {
      ...t.config,
      secretKey: 'another secret'.repeat(3),
    });
    expect(other).not.toBe(token);
    expect(await readSetting(t.database.db, SETUP_TOKEN_SETTING)).toBe(sha256Hex(other as string));
    expect(await prepareSetupToken(t.database.db, t.config)).toBe(token);
  });

  it('forgets the token and what it came from once setup succeeds', async () => {
    const token = await prepareSetupToken(t.database.db, t.config);
    if (!token) throw new Error('no setup token was generated');
    const wrong = await t.request({
      method: 'POST',
      url: '/v1/setup',
      payload: { setup_token: SETUP_TOKEN, ...ADMIN },
    });
    expect(wrong.statusCode).toBe(401);
    const done = await t.request({
      method: 'POST',
      url: '/v1/setup',
      payload: { setup_token: token, ...ADMIN },
    });
    expect(done.statusCode).toBe(201);
    expect(await readSetting(t.database.db, SETUP_TOKEN_SETTING)).toBeUndefined();
    expect(await readSetting(t.database.db, SETUP_NONCE_SETTING)).toBeUndefined();
    expect(await prepareSetupToken(t.database.db, t.config)).toBeNull();
  });
});

describe('account members', () => {
  const t = useTestApp();

  const removeMember = (userId: string) =>
    t.request({
      method: 'DELETE',
      url: `/v1/account/members/${userId}`,
      headers: { cookie: t.owner.cookie },
    });

  it('lists members with user_id, email, role and created_at only, oldest first', async () => {
    // Added later than the owner, and sorting before the owner's email: age decides.
    t.clock.advance(1000);
    await addMember(t, t.owner, 'a-listed@example.com', 'member');
    const response = await t.request({
      method: 'GET',
      url: '/v1/account/members',
      headers: { cookie: t.owner.cookie },
    });
    expect(response.statusCode).toBe(200);
    const { members } = response.json();
    expect(members[0]).toEqual({
      user_id: t.owner.userId,
      email: ADMIN.email,
      role: 'admin',
      created_at: expect.any(String),
    });
    expect(members[1]).toMatchObject({ email: 'a-listed@example.com', role: 'member' });
    expect(response.body).not.toContain('password');
  });

  it("ends a removed member's open sessions at once", async () => {
    const member = await addMember(t, t.owner, 'removed@example.com', 'admin');
    const me = () => t.request({ method: 'GET', url: '/v1/auth/me', headers: { cookie: member.cookie } });
    expect((await me()).statusCode).toBe(200);
    expect((await removeMember(member.userId)).statusCode).toBe(204);
    expect((await me()).statusCode).toBe(401);
  });

  it('takes admin powers from a key whose creator was removed', async () => {
    const member = await addMember(t, t.owner, 'former-admin@example.com', 'admin');
    const key = await mintKey(t, member.cookie, { scopes: ['config:write'] });
    const list = () => t.request({ method: 'GET', url: '/v1/account/members', headers: bearer(key.api_key) });
    expect((await list()).statusCode).toBe(200);
    await removeMember(member.userId);
    const refused = await list();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'forbidden' });
  });

  it('lets an admin demote themself while another admin remains, and the session loses admin at once', async () => {
    const second = await addMember(t, t.owner, 'second-admin@example.com', 'admin');
    const demote = await t.request({
      method: 'PATCH',
      url: `/v1/account/members/${second.userId}`,
      headers: { cookie: second.cookie },
      payload: { role: 'member' },
    });
    expect(demote.statusCode).toBe(200);
    expect(demote.json().member.role).toBe('member');
    const after = await t.request({
      method: 'GET',
      url: '/v1/account/members',
      headers: { cookie: second.cookie },
    });
    expect(after.statusCode).toBe(403);
    const me = await t.request({ method: 'GET', url: '/v1/auth/me', headers: { cookie: second.cookie } });
    expect(me.json().role).toBe('member');
  });
});

describe('API keys', () => {
  const t = useTestApp();

  const create = (headers: Record<string, string>, payload: object) =>
    t.request({ method: 'POST', url: '/v1/account/keys', headers, payload });
  const revoke = (headers: Record<string, string>, id: string) =>
    t.request({ method: 'DELETE', url: `/v1/account/keys/${id}`, headers });
  const listed = async () =>
    (await t.request({ method: 'GET', url: '/v1/account/keys', headers: bearer(t.owner.apiKey) })).json()
      .keys as { id: string; revoked_at: string | null; scopes: string[]; expires_at: string | null }[];

  it('credits a key minted by a key to the person behind the minting key', async () => {
    const response = await create(bearer(t.owner.apiKey), { name: 'by key', scopes: ['stats:read'] });
    expect(response.statusCode).toBe(201);
    expect(response.json().created_by).toBe(t.owner.userId);
  });

  it('stores repeated scopes once', async () => {
    const response = await create(bearer(t.owner.apiKey), {
      name: 'twice',
      scopes: ['stats:read', 'stats:read'],
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().scopes).toEqual(['stats:read']);
  });

  it('lists keys newest first, revoked ones with revoked_at', async () => {
    const older = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'], name: 'older' });
    t.clock.advance(1000);
    const newer = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'], name: 'newer' });
    await revoke(bearer(t.owner.apiKey), older.id);
    const keys = await listed();
    const ids = keys.map((k) => k.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(keys.find((k) => k.id === older.id)?.revoked_at).toEqual(expect.any(String));
    expect(keys.find((k) => k.id === newer.id)?.revoked_at).toBeNull();
  });

  it('keeps the first revoked_at when a key is revoked twice', async () => {
    const key = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] });
    expect((await revoke(bearer(t.owner.apiKey), key.id)).statusCode).toBe(204);
    const first = (await listed()).find((k) => k.id === key.id)?.revoked_at;
    t.clock.advance(HOUR_MS);
    expect((await revoke(bearer(t.owner.apiKey), key.id)).statusCode).toBe(204);
    expect((await listed()).find((k) => k.id === key.id)?.revoked_at).toBe(first);
  });

  it('lets a key restricted to one site revoke only keys of that site', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const scoped = await mintKey(t, t.owner.cookie, {
      scopes: ['credentials:write', 'stats:read'],
      site_id: site.snippet_key,
    });
    const everywhere = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] });
    const sameSite = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'], site_id: site.snippet_key });
    const refused = await revoke(bearer(scoped.api_key), everywhere.id);
    expect(refused.statusCode).toBe(404);
    expect((await revoke(bearer(scoped.api_key), sameSite.id)).statusCode).toBe(204);
    expect((await listed()).find((k) => k.id === everywhere.id)?.revoked_at).toBeNull();
  });

  it('restricts a key to a site named by its UUID from a dashboard session, not from a key', async () => {
    const site = await insertSite(t, t.owner.accountId);
    const bySession = await create(
      { cookie: t.owner.cookie },
      { name: 'uuid', scopes: ['stats:read'], site_id: site.id },
    );
    expect(bySession.statusCode).toBe(201);
    expect(bySession.json().site_id).toBe(site.snippet_key);
    const byKey = await create(bearer(t.owner.apiKey), {
      name: 'uuid',
      scopes: ['stats:read'],
      site_id: site.id,
    });
    expect(byKey.statusCode).toBe(404);
  });

  it('never mints a key that outlives the key minting it', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + DAY_MS).toISOString();
    const short = await mintKey(t, t.owner.cookie, {
      scopes: ['credentials:write', 'stats:read'],
      expires_at: expiresAt,
    });

    const later = await create(bearer(short.api_key), {
      name: 'later',
      scopes: ['stats:read'],
      expires_at: new Date(t.clock.now().getTime() + 2 * DAY_MS).toISOString(),
    });
    expect(later.statusCode).toBe(422);
    expect(later.json()).toMatchObject({ error: 'validation_failed', field: 'expires_at' });

    const unbounded = await create(bearer(short.api_key), { name: 'unbounded', scopes: ['stats:read'] });
    expect(unbounded.statusCode).toBe(201);
    expect(Date.parse(unbounded.json().expires_at)).toBe(Date.parse(expiresAt));

    const sooner = await create(bearer(short.api_key), {
      name: 'sooner',
      scopes: ['stats:read'],
      expires_at: new Date(t.clock.now().getTime() + HOUR_MS).toISOString(),
    });
    expect(sooner.statusCode).toBe(201);

    t.clock.advance(DAY_MS + 1);
    const child = await t.request({
      method: 'GET',
      url: `/v1/revenue?site_id=${(await insertSite(t, t.owner.accountId)).snippet_key}`,
      headers: bearer(unbounded.json().api_key),
    });
    expect(child.statusCode).toBe(401);
  });

  it("does not let a member's key revoke a key someone else made", async () => {
    const member = await addMember(t, t.owner, 'key-member@example.com', 'member');
    const memberKey = await mintKey(t, member.cookie, { scopes: ['credentials:write'] });
    const ownersKey = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'] });
    const refused = await revoke(bearer(memberKey.api_key), ownersKey.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'forbidden' });
    expect((await listed()).find((k) => k.id === ownersKey.id)?.revoked_at).toBeNull();

    const ownOther = await mintKey(t, member.cookie, { scopes: ['stats:read'] });
    expect((await revoke(bearer(memberKey.api_key), ownOther.id)).statusCode).toBe(204);
    // A key may always revoke itself.
    expect((await revoke(bearer(memberKey.api_key), memberKey.id)).statusCode).toBe(204);
  });

  it("lets an admin's key revoke any key of the account", async () => {
    const member = await addMember(t, t.owner, 'revoked-by-admin@example.com', 'member');
    const membersKey = await mintKey(t, member.cookie, { scopes: ['stats:read'] });
    expect((await revoke(bearer(t.owner.apiKey), membersKey.id)).statusCode).toBe(204);
  });
});

describe('GET /v1/revenue', () => {
  const t = useTestApp();
  let site: Awaited<ReturnType<typeof insertSite>>;
  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'yen.example.com' });
    await t.database.db.updateTable('sites').set({ currency: 'JPY' }).where('id', '=', site.id).execute();
    t.clock.set(new Date('2026-04-01T10:00:00Z'));
    const buyer = newVisitorId();
    await arrive(t, site, buyer, 'chatgpt');
    await recordPayment(t, site, { amountMinor: 1234, currency: 'JPY', visitorId: buyer });
    await t.app.services.attribution.runUntilIdle();
  });

  const get = (query: string, headers: Record<string, string> = bearer(t.owner.apiKey)) =>
    t.request({ method: 'GET', url: `/v1/revenue?${query}`, headers });

  it('reports a currency without a minor unit in whole units', async () => {
    const response = await get(`site_id=${site.snippet_key}&from=2026-04-01&to=2026-04-01`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.currency).toBe('JPY');
    expect(body.totals).toEqual({ gross: 1234, refunded: 0, net: 1234, conversions: 1, trials: 0 });
    expect(body.sources).toEqual([
      { source: 'chatgpt', gross: 1234, refunded: 0, net: 1234, conversions: 1, trials: 0, unconverted: [] },
    ]);
  });

  it('rounds each figure to the minor unit but sums totals before rounding', async () => {
    const split = await insertSite(t, t.owner.accountId, { domain: 'split.example.com' });
    const vid = newVisitorId();
    t.clock.set(new Date('2026-04-03T08:00:00Z'));
    for (const from of ['chatgpt', 'perplexity', 'search'] as const) {
      await arrive(t, split, vid, from);
      t.clock.advance(HOUR_MS);
    }
    // One cent shared by three sources under linear: a third of a cent each.
    await recordPayment(t, split, { amountMinor: 1, currency: 'USD', visitorId: vid });
    await t.app.services.attribution.runUntilIdle();
    const response = await get(
      `site_id=${split.snippet_key}&from=2026-04-03&to=2026-04-03&attribution_model=linear`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.totals).toEqual({ gross: 0.01, refunded: 0, net: 0.01, conversions: 1, trials: 0 });
    expect(body.sources).toHaveLength(3);
    for (const source of body.sources) expect(source).toMatchObject({ gross: 0, refunded: 0, net: 0 });
    // The conversion itself counts once, whole, for one of the three equal shares.
    expect(body.sources.map((source: { conversions: number }) => source.conversions).sort()).toEqual([
      0, 0, 1,
    ]);
  });

  it('answers 422 naming from when from is after to', async () => {
    const response = await get(`site_id=${site.snippet_key}&from=2026-04-02&to=2026-04-01`);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field: 'from' });
  });

  it('answers 422 naming site_id when it is missing', async () => {
    const response = await get('from=2026-04-01');
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: 'validation_failed', field: 'site_id' });
  });

  it('accepts a window of exactly 366 days', async () => {
    const response = await get(`site_id=${site.snippet_key}&from=2025-04-01&to=2026-04-01`);
    expect(response.statusCode).toBe(200);
    expect(response.json().totals.gross).toBe(1234);
  });

  it('answers 404 to a key restricted to another site, 200 to one restricted to this site', async () => {
    const other = await insertSite(t, t.owner.accountId);
    const elsewhere = await mintKey(t, t.owner.cookie, {
      scopes: ['stats:read'],
      site_id: other.snippet_key,
    });
    const refused = await get(`site_id=${site.snippet_key}`, bearer(elsewhere.api_key));
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ error: 'not_found' });
    const here = await mintKey(t, t.owner.cookie, { scopes: ['stats:read'], site_id: site.snippet_key });
    expect((await get(`site_id=${site.snippet_key}`, bearer(here.api_key))).statusCode).toBe(200);
  });

  it("answers 404 to a session naming another account's site by UUID", async () => {
    const rival = await insertAccount(t);
    const rivalCookie = await login(t, { email: rival.email, password: rival.password });
    const response = await get(`site_id=${site.id}`, { cookie: rivalCookie });
    expect(response.statusCode).toBe(404);
  });

  it('keeps reporting while the site is scheduled for deletion', async () => {
    const doomed = await insertSite(t, t.owner.accountId, { deleted: true });
    const response = await get(`site_id=${doomed.snippet_key}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ site_id: doomed.snippet_key, days: [] });
  });

  it('answers 401 unauthorized to a revoked key, whatever its scopes', async () => {
    const key = await mintKey(t, t.owner.cookie, { scopes: ALL_SCOPES });
    await t.request({ method: 'DELETE', url: `/v1/account/keys/${key.id}`, headers: bearer(t.owner.apiKey) });
    const response = await get(`site_id=${site.snippet_key}`, bearer(key.api_key));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'unauthorized' });
  });
});
