/**
 * Set-up: two accounts and something of every kind in each, the credentials the requests carry,
 * and the secrets no answer or log line may contain.
 */

import { createObjects } from './accounts.mjs';
import { call, login } from './api.mjs';

export async function setUp(server, fx, owner) {
  const { baseUrl } = server;
  const ownerKey = fx.ownerKey;
  const as = { key: ownerKey };
  const post = (target, body, auth = as) =>
    call(baseUrl, 'POST', target, { ...auth, body }).then((r) => r.json);
  const secret = (label, value) => fx.secrets.push({ label, value });

  const ownerCookie = await login(baseUrl, owner.email, owner.password);
  const secondCookie = await login(baseUrl, owner.email, owner.password);
  secret('owner session cookie', ownerCookie.split('=')[1]);
  secret('owner session cookie', secondCookie.split('=')[1]);
  fx.throwawayCookies = [];
  for (let i = 0; i < 3; i++) {
    const cookie = await login(baseUrl, owner.email, owner.password);
    fx.throwawayCookies.push(cookie);
    secret('throwaway session cookie', cookie.split('=')[1]);
  }
  const main = await createObjects(baseUrl, as, fx, 'fuzz');
  fx.siteA = main.site;
  fx.webhookId = main.webhookId;
  fx.siteB = await post('/v1/sites', { domain: 'fuzz-b.example' });
  fx.siteD = await post('/v1/sites', { domain: 'fuzz-d.example' });
  const old = (await post('/v1/goals', { site_id: fx.siteA.snippet_key, name: 'old_goal' })).goal;
  await call(baseUrl, 'DELETE', `/v1/goals/${old.id}?site_id=${fx.siteA.snippet_key}`, as);
  fx.goalIds = [main.goalId, old.id];

  const credentials = [
    { label: 'owner key, all scopes', key: ownerKey },
    { label: 'owner key, all scopes (minted)', key: main.key.api_key },
    { label: 'site key from POST /v1/sites', key: fx.siteA.api_key },
    { label: 'bot token', key: main.botToken.plaintext_token },
    { label: 'setup token', key: fx.setupToken },
  ];
  for (const scope of ['stats:read', 'config:write', 'credentials:write', 'ingest:write']) {
    credentials.push({
      label: `owner key, ${scope} only`,
      key: (await post('/v1/account/keys', { name: scope, scopes: [scope] })).api_key,
    });
  }
  const scoped = await post('/v1/account/keys', {
    name: 'site A only',
    scopes: ['stats:read', 'config:write', 'credentials:write', 'ingest:write'],
    site_id: fx.siteA.snippet_key,
  });
  credentials.push({ label: 'owner key scoped to site A', key: scoped.api_key });
  const revoked = await post('/v1/account/keys', { name: 'revoked', scopes: ['stats:read'] });
  await call(baseUrl, 'DELETE', `/v1/account/keys/${revoked.id}`, as);
  credentials.push({ label: 'revoked key', key: revoked.api_key });

  const member = { email: 'member@fuzz.example', password: 'a member password 1' };
  fx.member = member;
  await post('/v1/account/members', { ...member, role: 'member' });
  fx.disposable = { keys: [], members: [], webhooks: [], botTokens: [] };
  for (let i = 0; i < 3; i++) {
    fx.disposable.keys.push(
      (await post('/v1/account/keys', { name: `disposable ${i}`, scopes: ['stats:read'] })).id,
    );
    const disposableMember = {
      email: `disposable${i}@fuzz.example`,
      password: 'a disposable password',
      role: 'member',
    };
    fx.disposable.members.push((await post('/v1/account/members', disposableMember)).member.user_id);
    fx.disposable.webhooks.push(
      (await post(`/v1/sites/${fx.siteA.snippet_key}/webhooks`, { url: fx.receiverUrl })).id,
    );
    fx.disposable.botTokens.push(
      (await post('/v1/account/bot-tokens', { site_id: fx.siteB.snippet_key })).id,
    );
  }
  const memberCookie = await login(baseUrl, member.email, member.password);

  // Some data, so that reports and visitor handles have rows.
  for (let i = 0; i < 5; i++) {
    const vid = `fuzzvisitor${i}`;
    await call(baseUrl, 'POST', '/v1/collect', {
      body: {
        type: 'pageview',
        site: fx.siteA.snippet_key,
        vid,
        eid: `fuzzevent${i}`,
        url: `https://${fx.siteA.domain}/`,
        ref: 'https://chatgpt.com/',
      },
    });
    await post(
      '/v1/server/events',
      { site_id: fx.siteA.snippet_key, name: 'signup', visitor_id: vid },
      { key: fx.siteA.api_key },
    );
  }
  await post(
    '/v1/server/payments',
    {
      site_id: fx.siteA.snippet_key,
      transaction_id: 'fuzz_tx',
      amount: 10,
      currency: 'EUR',
      visitor_id: 'fuzzvisitor0',
    },
    { key: fx.siteA.api_key },
  );
  // The internal UUIDs, which only a dashboard session is shown.
  const uuids = await call(baseUrl, 'GET', '/v1/dashboard/sites', { cookie: ownerCookie });
  for (const site of [fx.siteA, fx.siteB, fx.siteD]) {
    site.uuid = uuids.json.sites.find((row) => row.snippet_key === site.snippet_key)?.uuid;
  }
  const visitors = await call(
    baseUrl,
    'GET',
    `/v1/goals/signup/visitors?site_id=${fx.siteA.snippet_key}`,
    as,
  );
  fx.handles = (visitors.json.visitors ?? []).map((row) => row.handle).filter(Boolean);
  if (fx.handles.length === 0) fx.handles = ['vh_nothing'];
  process.stderr.write(`set up: 2 accounts, ${fx.handles.length} visitor handles\n`);

  const rivalCookie = await login(baseUrl, fx.rival.email, fx.rival.password);
  const rival = await createObjects(baseUrl, { cookie: rivalCookie }, fx, 'rival');
  const rivalSites = await call(baseUrl, 'GET', '/v1/dashboard/sites', { cookie: rivalCookie });
  rival.site.uuid = rivalSites.json.sites[0]?.uuid;
  Object.assign(fx.rival, {
    site: rival.site,
    goalId: rival.goalId,
    webhookId: rival.webhookId,
    botTokenId: rival.botToken.id,
    keyId: rival.key.id,
  });

  const ids = [
    fx.siteA.uuid,
    fx.siteB.uuid,
    fx.webhookId,
    ...fx.goalIds,
    ...Object.values(fx.disposable).flat(),
  ];
  const rivalIds = [
    fx.rival.site.uuid,
    fx.rival.goalId,
    fx.rival.webhookId,
    fx.rival.botTokenId,
    fx.rival.keyId,
  ];
  if ([...ids, ...rivalIds].some((id) => typeof id !== 'string')) throw new Error('set-up: an id is missing');
  // Session writes name the server's own origin, as a browser's do; the fuzzer may still change it.
  const origin = new URL(baseUrl).origin;
  fx.credentials = [
    ...credentials.map(({ label, key }) => ({
      label,
      account: 'owner',
      headers: { authorization: `Bearer ${key}` },
    })),
    { label: 'owner session', account: 'owner', headers: { cookie: ownerCookie, origin } },
    { label: 'owner session (second)', account: 'owner', headers: { cookie: secondCookie, origin } },
    { label: 'member session', account: 'owner', headers: { cookie: memberCookie, origin } },
    { label: 'rival session', account: 'rival', headers: { cookie: rivalCookie, origin } },
    { label: 'rival key', account: 'rival', headers: { authorization: `Bearer ${rival.key.api_key}` } },
    {
      label: 'owner key + rival session',
      account: 'owner',
      headers: { authorization: `Bearer ${ownerKey}`, cookie: rivalCookie },
    },
  ];
  // Per-credential budgets (60 writes a minute on goals) would refuse most well-formed requests
  // made with one credential; these spread them.
  fx.botTokenCredential = fx.credentials.find((c) => c.label === 'bot token');
  fx.capableCredentials = [
    ...fx.credentials.filter(
      (c) => c.label.startsWith('owner key, all scopes') || c.label.startsWith('owner session'),
    ),
  ];
  for (const { label, key } of credentials) secret(label, key);
  secret('rival key', rival.key.api_key);
  secret('rival bot token', rival.botToken.plaintext_token);
  secret('member session cookie', memberCookie.split('=')[1]);
  secret('rival session cookie', rivalCookie.split('=')[1]);
  secret('owner password', owner.password);
}
