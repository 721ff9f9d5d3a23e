/**
 * One pass through every flow that handles a secret or personal data, logged at `trace`: no
 * log line may hold any of the values sent or minted, and no response body may hold a
 * credential other than the one it exists to return once.
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import pino, { type LoggerOptions } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROME_UA, newEventId, newVisitorId } from '../ingest/ingest.fixtures.js';
import { newTransactionId } from '../payments/payments.fixtures.js';
import { ALL_SCOPES } from '../sites/sites.fixtures.js';
import { bearer, SETUP_TOKEN, useTestApp } from '../test/app.js';
import * as receivers from '../webhooks/webhooks.fixtures.js';
import { buildLoggerOptions } from './logging.js';

const OWNER = { email: 'Priya.Owner@Example.ORG', password: 'owner passphrase 7f3k9q' };
const GPTBOT =
  'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)';

/** The values the test sends, by name. */
const SENT = {
  'owner email': OWNER.email,
  'owner password': OWNER.password,
  'wrong password': 'guessed passphrase 55x',
  'setup token': SETUP_TOKEN,
  'wrong setup token': 'not-the-setup-token-8c1d2e',
  'wrong API key': `tk_live_${'Wr0ngKey'.repeat(5)}`,
  'wrong bot token': `tt_bot_${'b4dB0tT0k3n'.repeat(4)}`,
  'client IPv4': '203.0.113.77',
  'client IPv6': '2001:db8::4242',
  'crawler IP': '198.51.100.23',
  'inject address': '127.0.0.1',
  'query-string email': 'Query.Visitor@Example.net',
  'identify email': 'Ident.Person@Example.net',
  'server event email': 'Server.Event@Example.net',
  'payment email': 'Buyer.Private@Example.com',
  'bad JSON email': 'Broken.Json@Example.com',
  'bad field email': 'Bad Field@Example.com',
  'webhook URL password': 'hook-pass-S3cr3t',
};
/** Every value that must stay out of the logs, by name; compared in any letter case. */
const secrets: Record<string, string> = { ...SENT };
/** Adds a minted credential and its secret part (the text after its public prefix). */
function remember(name: string, value: string, prefix: string) {
  expect(value.startsWith(prefix), name).toBe(true);
  secrets[name] = value;
  secrets[`${name} (secret part)`] = value.slice(prefix.length);
}

describe('log privacy at trace level', () => {
  // The app's config names the CA file before the PKI is made in it (as useWebhookTestApp does).
  const pkiFolder = path.join(tmpdir(), `touchtrail-pki-${randomUUID()}`);
  let pki: receivers.TestPki;
  let receiver: receivers.TestReceiver;
  const exchanges: { label: string; response: LightMyRequestResponse; returns: string[] }[] = [];
  /** Sends a request, checks its status and keeps its response; `returns` names what it may carry. */
  async function call(
    status: number,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    init: { headers?: Record<string, string>; payload?: object | string; returns?: string[] } = {},
  ) {
    const { headers = {}, payload, returns = [] } = init;
    const response = await t.request({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    exchanges.push({ label: `${method} ${url} (${status})`, response, returns });
    return response;
  }

  beforeAll(async () => {
    pki = receivers.createTestPki(pkiFolder);
    receiver = await receivers.startReceiver(pki.leaf, (_request, response) =>
      response.writeHead(200).end('pong'),
    );
  });
  afterAll(async () => {
    await receiver.close();
    pki.remove();
  });
  const t = useTestApp(
    {
      LOG_LEVEL: 'trace',
      TRUST_PROXY: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      NODE_EXTRA_CA_CERTS: receivers.pkiCaFile(pkiFolder),
    },
    { owner: false },
  );

  it('drives setup, sign-in, keys, ingest, payments, webhooks, bot tokens and failures', async () => {
    const setup = { setup_token: SETUP_TOKEN, ...OWNER, account_name: 'Acme' };
    await call(401, 'POST', '/v1/setup', {
      payload: { ...setup, setup_token: SENT['wrong setup token'] },
    });
    const done = await call(201, 'POST', '/v1/setup', { payload: setup, returns: ['setup API key'] });
    remember('setup API key', done.json().api_key, 'tk_live_');
    await call(409, 'POST', '/v1/setup', { payload: setup });

    const email = OWNER.email.toUpperCase();
    await call(401, 'POST', '/v1/auth/login', { payload: { email, password: SENT['wrong password'] } });
    const signedIn = await call(200, 'POST', '/v1/auth/login', {
      payload: { email, password: OWNER.password },
    });
    const session = signedIn.cookies.find((c) => c.name === 'tt_session')?.value ?? '';
    secrets['session cookie'] = session;
    const cookie = { cookie: `tt_session=${session}` };
    await call(200, 'GET', '/v1/auth/me', { headers: cookie, returns: ['owner email'] });

    const mint = async (name: string) => {
      const init = { headers: cookie, payload: { name, scopes: ALL_SCOPES }, returns: [name] };
      const minted = await call(201, 'POST', '/v1/account/keys', init);
      remember(name, minted.json().api_key, 'tk_live_');
      return minted.json() as { id: string; api_key: string };
    };
    const key = await mint('minted API key');
    const revoked = await mint('revoked API key');
    await call(204, 'DELETE', `/v1/account/keys/${revoked.id}`, { headers: cookie });
    await call(200, 'GET', '/v1/account/keys', { headers: bearer(key.api_key) });
    await call(401, 'GET', '/v1/account/keys', { headers: bearer(SENT['wrong API key']) });
    await call(401, 'GET', '/v1/account/keys', { headers: bearer(revoked.api_key) });

    const auth = bearer(key.api_key);
    const siteInit = { headers: auth, payload: { domain: 'shop.example' }, returns: ['site API key'] };
    const site = (await call(201, 'POST', '/v1/sites', siteInit)).json() as {
      site_id: string;
      api_key: string;
    };
    remember('site API key', site.api_key, 'tk_live_');
    const server = bearer(site.api_key);

    const vid = newVisitorId();
    const url = `https://shop.example/thanks?email=${SENT['query-string email']}&utm_source=chatgpt.com`;
    const beacon = (ip: string, payload: object) =>
      call(202, 'POST', '/v1/collect', {
        headers: { 'user-agent': CHROME_UA, 'x-forwarded-for': ip },
        payload: { site: site.site_id, vid, eid: newEventId(), url, ...payload },
      });
    await beacon(SENT['client IPv4'], { type: 'pageview', ref: '' });
    await beacon(SENT['client IPv6'], { type: 'pageview', ref: '' });
    await beacon(SENT['client IPv4'], { type: 'identify', uid: SENT['identify email'] });
    const event = { site_id: site.site_id, name: 'signup', email: SENT['server event email'] };
    await call(202, 'POST', '/v1/server/events', { headers: server, payload: event });
    const payment = {
      site_id: site.site_id,
      transaction_id: newTransactionId(),
      amount: 49,
      currency: 'EUR',
      email: SENT['payment email'],
      customer_id: `cus_1 ${SENT['payment email']}`,
    };
    await call(202, 'POST', '/v1/server/payments', { headers: server, payload: payment });

    const hooks = `/v1/sites/${site.site_id}/webhooks`;
    const target = {
      headers: auth,
      payload: { url: receiver.urlWithHost('localhost') },
      returns: ['webhook secret'],
    };
    const hook = await call(201, 'POST', hooks, target);
    remember('webhook secret', hook.json().secret, 'whsec_');
    const ping = await call(200, 'POST', `${hooks}/${hook.json().id}/test`, { headers: auth });
    expect(ping.json()).toMatchObject({ ok: true });
    const rotate = `${hooks}/${hook.json().id}/rotate-secret`;
    const rotated = await call(200, 'POST', rotate, { headers: auth, returns: ['rotated webhook secret'] });
    remember('rotated webhook secret', rotated.json().secret, 'whsec_');

    const botInit = { headers: auth, payload: { site_id: site.site_id }, returns: ['bot token'] };
    const bot = await call(201, 'POST', '/v1/account/bot-tokens', botInit);
    const botToken: string = bot.json().plaintext_token;
    remember('bot token', botToken, 'tt_bot_');
    const hits = { hits: [{ user_agent: GPTBOT, path: '/pricing', ip: SENT['crawler IP'] }] };
    for (const [status, token] of [
      [202, botToken],
      [401, SENT['wrong bot token']],
    ] as const) {
      await call(status, 'POST', '/v1/crawler/hits', { headers: bearer(token), payload: hits });
    }

    const broken = `{"site_id": "${site.site_id}", "email": "${SENT['bad JSON email']}",`;
    const json = { ...server, 'content-type': 'application/json' };
    await call(400, 'POST', '/v1/server/events', { headers: json, payload: broken });
    await call(400, 'POST', '/v1/collect', { headers: { 'content-type': 'text/plain' }, payload: broken });
    await call(401, 'GET', '/v1/sites');
    await call(404, 'GET', '/v1/sites/ttid_0000000000000000000000', { headers: auth });
    const badEmail = { ...event, email: SENT['bad field email'] };
    await call(422, 'POST', '/v1/server/events', { headers: server, payload: badEmail });
    const emailAsId = { ...payment, transaction_id: SENT['payment email'] };
    await call(422, 'POST', '/v1/server/payments', { headers: server, payload: emailAsId });
    const userinfo = { url: `https://ops:${SENT['webhook URL password']}@hooks.example.com/` };
    await call(422, 'POST', hooks, { headers: auth, payload: userinfo });
    const loginBad = { email: SENT['bad field email'], password: OWNER.password };
    await call(422, 'POST', '/v1/auth/login', { payload: loginBad });
    await call(204, 'POST', '/v1/auth/logout', { headers: cookie });
    await call(401, 'GET', '/v1/auth/me', { headers: cookie });
    await t.close();
  });

  it('writes none of those values to the log', () => {
    const lines = t.logs().split('\n');
    expect(lines.length).toBeGreaterThan(50);
    const leaks = Object.entries(secrets).flatMap(([name, value]) =>
      lines
        .filter((line) => line.toLowerCase().includes(value.toLowerCase()))
        .map((line) => `${name}: ${line.slice(0, 300)}`),
    );
    expect(leaks).toEqual([]);
  });

  it('returns a credential only in the one response that mints it', () => {
    const leaks = exchanges.flatMap(({ label, response, returns }) =>
      Object.entries(secrets)
        .filter(
          ([name]) => !returns.some((allowed) => name === allowed || name === `${allowed} (secret part)`),
        )
        .filter(([, value]) => response.body.toLowerCase().includes(value.toLowerCase()))
        .map(([name]) => `${label} (${response.statusCode}) carries ${name}`),
    );
    expect(leaks).toEqual([]);
  });
});

describe('the logger’s redaction', () => {
  it('hides secrets and personal values logged by hand, one level down', async () => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk) => {
      text += chunk.toString();
    });
    const log = pino(buildLoggerOptions('info', stream) as LoggerOptions, stream);
    const values = { cookie: 'tt_session=abc123secret', ip: '192.0.2.55', email: 'a.person@example.net' };
    log.info(
      { headers: { cookie: values.cookie }, client: { ip: values.ip, email: values.email } },
      'by hand',
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(text).toContain('by hand');
    expect(Object.values(values).filter((value) => text.includes(value))).toEqual([]);
  });
});

describe('the log line of a refused body', () => {
  const EMAIL_KEY = 'leak.probe@example.com';
  const LONG_KEY = `Long-Key-${'k'.repeat(20_000)}`;
  const t = useTestApp({ LOG_LEVEL: 'trace' }, { owner: false });

  it('names the problem and where, never the field names the client chose', async () => {
    const setup = { setup_token: SETUP_TOKEN, ...OWNER, account_name: 'Acme' };
    const { api_key: key } = (await t.request({ method: 'POST', url: '/v1/setup', payload: setup })).json();
    const { site_id: site } = (
      await t.request({
        method: 'POST',
        url: '/v1/sites',
        headers: bearer(key),
        payload: { domain: 'a.example' },
      })
    ).json();
    const bot = await t.request({
      method: 'POST',
      url: '/v1/account/bot-tokens',
      headers: bearer(key),
      payload: { site_id: site },
    });
    const refused: [string, object, Record<string, string>?][] = [
      ['/v1/sites', { domain: 'b.example', [EMAIL_KEY]: 1 }],
      ['/v1/sites', { domain: 'b.example', [LONG_KEY]: 1 }],
      ['/v1/goals', { site_id: site, name: 'signup', [EMAIL_KEY]: 1 }],
      [
        '/v1/crawler/hits',
        { hits: [{ user_agent: 'GPTBot/1.2', path: '/', [EMAIL_KEY]: 1 }] },
        bearer(bot.json().plaintext_token),
      ],
      ['/v1/account/bot-tokens', { site_id: site, [LONG_KEY]: 1 }],
    ];
    for (const [url, payload, headers = bearer(key)] of refused) {
      const response = await t.request({ method: 'POST', url, headers, payload });
      expect(response.statusCode, `${url}: ${response.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
    // The response may name the field (interface §7); the log may not.
    const named = await t.request({
      method: 'POST',
      url: '/v1/sites',
      headers: bearer(key),
      payload: refused[0]?.[1],
    });
    expect(named.json()).toMatchObject({ field: EMAIL_KEY });

    const lines = t.logs().split('\n');
    const leaks = lines
      .filter((line) => /leak\.probe|kkkkkkkkkk/i.test(line))
      .map((line) => line.slice(0, 200));
    expect(leaks).toEqual([]);
    const refusals = lines.filter((line) => line.includes('"problem":"unrecognized_keys"'));
    expect(refusals.length).toBeGreaterThanOrEqual(refused.length);
    for (const line of refusals) {
      expect(JSON.parse(line)).toMatchObject({
        code: 'validation_failed',
        field: expect.stringMatching(/^(hits\.0\.)?\[unknown key\]$/),
        source: 'body',
      });
    }
  });
});
