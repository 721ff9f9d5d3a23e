/**
 * Malformed input on every operation of the app's own OpenAPI document: odd JSON bodies, each
 * required field missing, each field of the wrong type, out of range or 100,000 characters long,
 * malformed and foreign path ids, bad query values. Each must be a 4xx in its area's error shape
 * (interface §7) with no stack trace, SQL or secret, and nothing may be written. /v1/collect and
 * /v1/server/events have their own bad-input suites (ingest/collect.test.ts, server-events.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../db/types.js';
import { nextAddress } from '../goals/goals.fixtures.js';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { ALL_SCOPES, addOtherAccount, addSite, asKey, siteUuid } from '../sites/sites.fixtures.js';
import { ADMIN, bearer, mintKey, SETUP_TOKEN } from '../test/app.js';
import { useWebhookTestApp, webhookApi } from '../webhooks/webhooks.test-app.js';
import {
  type Case,
  edit,
  fieldsOf,
  type JsonSchema,
  jsonType,
  type Operation,
  objectPart,
  outOfRange,
  type Parameter,
  type Query,
  type Source,
  typesOf,
} from './bad-input.fixtures.js';
import { OPENAPI_FILE } from './openapi-document.js';

const DOCUMENT = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};
// The processors' receiving endpoint takes no credential and any body; its refusals (unsigned,
// forged, unreadable) are tested per processor in src/integrations/*.http.test.ts.
const SKIPPED_PATHS = ['/v1/collect', '/v1/server/events', '/v1/integrations/{provider}/{connectionId}'];
/** Operations not called with a fresh all-scope key of their own (budgets are per credential). */
const CALLED_WITH: Record<string, 'nothing' | 'session' | 'bot token'> = {
  'POST /v1/setup': 'nothing',
  'POST /v1/auth/login': 'nothing',
  'POST /v1/auth/invitations/accept': 'nothing',
  'POST /v1/auth/password-reset': 'nothing',
  'POST /v1/auth/password-reset/confirm': 'nothing',
  'POST /v1/auth/login/second-factor': 'nothing',
  'POST /v1/shared-links/open': 'nothing',
  'POST /v1/auth/totp/confirm': 'session',
  'DELETE /v1/auth/totp': 'session',
  'DELETE /v1/auth/sessions/{id}': 'session',
  'POST /v1/auth/password': 'session',
  'GET /v1/conversions': 'session',
  'POST /v1/crawler/hits': 'bot token',
};
const LEAK =
  /\s{4}at |\bselect\b.*\bfrom\b|\binsert into\b|syntax error|violates|sqlstate|node_modules|\.[jt]s:\d/i;

const w = useWebhookTestApp();
const t = w.t;
let f: {
  site: { key: string; uuid: string; domain: string };
  rival: { key: string; uuid: string };
  /** Path parameter values by kind (see kindOf): our own objects, and another account's. */
  ours: Record<string, string>;
  theirs: Record<string, string>;
  headers: Record<string, Record<string, string>>;
  secrets: string[];
  now: string;
  /** A shared link of our site (with the password `open sesame`). */
  sharedLinkToken: string;
};

/** A body every field of which is valid, per operation; each case breaks one thing in it. */
const VALID_BODIES: Record<string, () => Record<string, unknown>> = {
  'POST /v1/setup': () => ({ setup_token: SETUP_TOKEN, email: 'a@example.com', password: 'long password' }),
  'POST /v1/auth/login': () => ({ ...ADMIN }),
  'POST /v1/account/members': () => ({ email: 'b@example.com', password: 'long password', role: 'member' }),
  'PATCH /v1/account/members/{userId}': () => ({ role: 'admin' }),
  'POST /v1/account/invitations': () => ({ email: 'invitee@example.com', role: 'member' }),
  'POST /v1/auth/invitations/accept': () => ({ token: 'x'.repeat(43), password: 'long password' }),
  'POST /v1/auth/password-reset': () => ({ email: ADMIN.email }),
  'POST /v1/auth/password-reset/confirm': () => ({ token: 'x'.repeat(43), password: 'long password' }),
  'POST /v1/auth/login/second-factor': () => ({ code: '123456' }),
  'POST /v1/auth/totp/confirm': () => ({ code: '123456' }),
  'DELETE /v1/auth/totp': () => ({ code: '123456' }),
  'POST /v1/auth/password': () => ({ current_password: ADMIN.password, new_password: 'long password' }),
  'POST /v1/account/keys': () => ({
    name: 'k',
    scopes: ['stats:read'],
    site_id: f.site.key,
    expires_at: null,
  }),
  'POST /v1/sites': () => ({ domain: 'new.example', name: 'New', region: 'eu' }),
  'PATCH /v1/sites/{siteId}': () => ({ name: 'Shop', attribution_model: 'linear', currency: 'EUR' }),
  'DELETE /v1/sites/{siteId}': () => ({ confirm_domain: f.site.domain }),
  'POST /v1/sites/{siteId}/restore': () => ({}),
  'POST /v1/goals': () => ({ site_id: f.site.key, name: 'plan_chosen', display_name: 'Plan', emoji: '🧪' }),
  'PATCH /v1/goals/{id}': () => ({ site_id: f.site.key, display_name: 'Plan', emoji: '🧪', sort_order: 1 }),
  'POST /v1/goals/{id}/unarchive': () => ({ site_id: f.site.key }),
  'POST /v1/server/payments': () => ({
    ...{ site_id: f.site.key, transaction_id: 'order-1', amount: 12.5, currency: 'EUR', provider: 'stripe' },
    ...{ visitor_id: 'visitor-0001', email: 'buyer@example.com', customer_id: 'cus_1', timestamp: f.now },
    ...{ renewal: false, refunded: false, refunded_amount: 1, is_free_trial: false },
  }),
  'POST /v1/sites/{siteId}/webhooks': () => ({
    url: 'https://hooks.example.com/',
    event_types: ['conversion.attributed'],
  }),
  'PATCH /v1/sites/{siteId}/webhooks/{webhookId}': () => ({
    url: 'https://hooks.example.com/',
    enabled: false,
  }),
  'POST /v1/sites/{siteId}/webhooks/{webhookId}/test': () => ({}),
  'POST /v1/sites/{siteId}/webhooks/{webhookId}/rotate-secret': () => ({}),
  'POST /v1/account/bot-tokens': () => ({ site_id: f.site.key, name: 'crawler' }),
  'POST /v1/sites/{siteId}/integrations': () => ({
    provider: 'polar',
    signing_secret: 'whsec_bad_input_secret',
    name: 'Polar',
    default_currency: 'EUR',
  }),
  'POST /v1/sites/{siteId}/shared-links': () => ({ label: 'Investors', password: 'open sesame' }),
  'POST /v1/privacy/requests': () => ({
    site_id: f.site.key,
    type: 'access',
    subject: { kind: 'email', value: 'someone@example.com' },
  }),
  'POST /v1/shared-links/open': () => ({ token: f.sharedLinkToken, password: 'open sesame' }),
  'POST /v1/crawler/hits': () => ({
    hits: [{ user_agent: 'GPTBot/1.2', path: '/', status: 200, timestamp: f.now, ip: '203.0.113.9' }],
  }),
  'POST /v1/stats/query': () => ({ site_id: f.site.key, metrics: ['visits'], date_range: '7d' }),
  'POST /v1/funnels': () => ({
    site_id: f.site.key,
    name: 'Checkout',
    steps: FUNNEL_STEPS,
    window_hours: 24,
  }),
  'PATCH /v1/funnels/{id}': () => ({
    site_id: f.site.key,
    name: 'Checkout',
    steps: FUNNEL_STEPS,
    window_hours: 24,
  }),
  'POST /v1/funnels/query': () => ({ site_id: f.site.key, steps: FUNNEL_STEPS, date_range: '30d' }),
};
/** Operations whose fields are all optional: `{}` is a whole, valid body there. */
const EMPTY_BODY_ACCEPTED = new Set(['POST /v1/sites/{siteId}/shared-links']);
const FUNNEL_STEPS = [
  { type: 'page', match: 'is', value: '/' },
  { type: 'event', name: 'signup' },
];

/** The fixture a path parameter stands for (`id` is a goal's, a funnel's, a session's or a key's). */
const ID_KINDS: [string, string][] = [
  ['/v1/goals', 'goalId'],
  ['/v1/funnels', 'funnelId'],
  ['/v1/sessions', 'sessionId'],
  ['/v1/auth/sessions', 'dashboardSessionId'],
];
const dashboardSessionOf = async (userId: string) =>
  (
    await t.database.db
      .selectFrom('dashboard_sessions')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow()
  ).id;
const kindOf = (path: string, name: string) =>
  name === 'id' ? (ID_KINDS.find(([prefix]) => path.startsWith(prefix))?.[1] ?? 'keyId') : name;
function bodyCases(id: string, schema: JsonSchema): Case[] {
  const valid = VALID_BODIES[id];
  if (!valid) throw new Error(`No valid body for ${id}: add one to VALID_BODIES`);
  const bodies: [string, string | undefined, () => unknown][] = [
    ['an array body', 'body', () => [valid()]],
    ['a string body', 'body', () => 'text'],
    ['a number body', 'body', () => 42],
  ];
  // A body that takes no fields may be null or {}; for the others those are missing fields,
  // unless every field is optional (EMPTY_BODY_ACCEPTED).
  if (Object.keys(objectPart(schema).properties ?? {}).length > 0 && !EMPTY_BODY_ACCEPTED.has(id)) {
    bodies.push(['a null body', undefined, () => null], ['an empty object', undefined, () => ({})]);
  }
  if (objectPart(schema).additionalProperties === false) {
    bodies.push(['an unknown field', 'unknown_field', () => ({ ...valid(), unknown_field: 1 })]);
  }
  for (const [path, field, required] of fieldsOf(schema)) {
    const name = path.join('.');
    const wrong = [42, 'text', true, ['x'], { x: 1 }].find((v) => !typesOf(field).includes(jsonType(v)));
    const values = outOfRange(field);
    if (required) values.push(['missing', undefined]);
    if (typesOf(field).length > 0) values.push([`as ${jsonType(wrong)}`, wrong]);
    if (typesOf(field).includes('string')) values.push(['of 100,000 characters', 'x'.repeat(100_000)]);
    for (const [label, value] of values)
      bodies.push([`${name} ${label}`, name, () => edit(valid(), path, value)]);
  }
  return bodies.map(([name, field, body]) => ({ name, source: 'body', field, body }));
}

function queryCases(params: Parameter[], base: () => Query): Case[] {
  const queries: [string, string | undefined, () => Query][] = params.length
    ? [['an unknown query parameter', 'unknown_param', () => ({ ...base(), unknown_param: '1' })]]
    : [];
  for (const { name, schema, required } of params) {
    const numeric = typesOf(schema).includes('number');
    const values: [string, string | string[]][] = [['repeated', ['1', '2']]];
    if (numeric) values.push(['not a number', 'ten'], ['a fraction', '1.5']);
    if (schema.enum) values.push(['not an option', 'bogus']);
    if ((schema.pattern || schema.format) && !numeric) values.push(['malformed', '!!']);
    if (name === 'from' || name === 'to') values.push(['an impossible day', '2026-02-30']);
    for (const [label, value] of outOfRange(schema)) values.push([label, String(value)]);
    if (schema.minLength) values.push(['empty', '']);
    if (schema.maxLength) values.push(['too long', 'x'.repeat(schema.maxLength + 1)]);
    for (const [label, value] of values)
      queries.push([`${name} ${label}`, name, () => ({ ...base(), [name]: value })]);
    if (name === 'site_id' && required) {
      const theirs = () => (schema.format === 'uuid' ? f.rival.uuid : f.rival.key);
      queries.push(['site_id of another account', undefined, () => ({ ...base(), site_id: theirs() })]);
    }
  }
  return queries.map(([name, field, query]) => ({ name: `query ${name}`, source: 'query', field, query }));
}

function pathCases(path: string, params: Parameter[]): Case[] {
  return params.flatMap(({ name }): Case[] => {
    const cases: Case[] = [
      { name: `path ${name} malformed`, source: 'path', field: name, path: () => ({ [name]: 'not-an-id' }) },
      { name: `path ${name} with a NUL`, source: 'path', field: name, path: () => ({ [name]: 'a%00b' }) },
    ];
    // Goal names and visitor handles belong to no account; the site_id query covers those routes.
    if (name === 'name' || name === 'handle') return cases;
    const theirs = () => ({ [name]: f.theirs[kindOf(path, name)] as string });
    return [...cases, { name: `path ${name} of another account`, source: 'path', path: theirs }];
  });
}

const OPERATIONS = Object.entries(DOCUMENT.paths)
  .filter(([path]) => !SKIPPED_PATHS.includes(path))
  .flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const id = `${method.toUpperCase()} ${path}`;
      const params = (where: Parameter['in']) => (operation.parameters ?? []).filter((p) => p.in === where);
      const required = params('query').filter((p) => p.required);
      // A required choice (an import's `source`) takes its first value.
      if (required.some((p) => p.name !== 'site_id' && !p.schema.enum))
        throw new Error(`No valid query for ${id}`);
      const baseQuery = (): Query =>
        Object.fromEntries(
          required.map((p) => [
            p.name,
            p.schema.enum ? String(p.schema.enum[0]) : p.schema.format === 'uuid' ? f.site.uuid : f.site.key,
          ]),
        );
      const body = operation.requestBody?.content['application/json'].schema;
      const cases = [
        ...(body ? bodyCases(id, body) : []),
        ...pathCases(path, params('path')),
        ...queryCases(params('query'), baseQuery),
      ];
      return {
        id,
        method,
        path,
        area: operation.tags[0] as string,
        hasBody: body !== undefined,
        baseQuery,
        cases,
      };
    }),
  )
  .filter((operation) => operation.cases.length > 0);
type Op = (typeof OPERATIONS)[number];

function send(op: Op, kase: Case): Promise<LightMyRequestResponse> {
  const overrides = kase.path?.() ?? {};
  const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = overrides[name] ?? f.ours[kindOf(op.path, name)];
    if (value === undefined) throw new Error(`No fixture for ${op.id} path ${name}`);
    return value;
  });
  return t.request({
    method: op.method.toUpperCase() as 'GET',
    url,
    query: kase.query?.() ?? op.baseQuery(),
    remoteAddress: nextAddress(),
    headers: { ...f.headers[op.id], ...(op.hasBody ? { 'content-type': 'application/json' } : {}) },
    ...(op.hasBody ? { payload: JSON.stringify(kase.body ? kase.body() : VALID_BODIES[op.id]?.()) } : {}),
  });
}

type Body = Record<string, unknown>;
const text = expect.any(String);
const validationFailed = { error: 'validation_failed', message: text, field: text };
const coded = (status: number, body: Body) =>
  expect(body).toMatchObject({
    error: status === 422 ? 'validation_failed' : expect.stringMatching(/^[a-z_]+$/),
    message: text,
  });

/** Error bodies of interface §7 by area (the operation's tag); our own areas answer `{error: code, message}`. */
const SHAPES: Record<string, (status: number, body: Body, source: Source) => void> = {
  account: coded,
  sites: coded,
  revenue: coded,
  stats: coded,
  funnels: coded,
  imports: coded,
  crawlers: coded,
  integrations: coded,
  privacy: coded,
  goals: (status, body, source) => {
    if (status === 400 || status === 422)
      expect({ status, body }).toEqual({ status: source === 'body' ? 400 : 422, body: validationFailed });
    else if (status === 404) expect(body).toEqual({ error: 'Not found', statusCode: 404 });
    else expect(body).toEqual({ error: text, statusCode: status, message: text });
  },
  webhooks: (status, body) => {
    if (status === 404) expect(body).toEqual({ statusCode: 404, message: text });
    else if (status === 403) expect(body).toEqual({ error: 'Forbidden' });
    else
      expect({ status, body }).toMatchObject({
        status: 422,
        body: { error: 'validation_failed', message: text },
      });
  },
  payments: (status, body) => {
    const expected: Record<number, unknown> = {
      400: { error: 'invalid JSON' },
      401: { error: 'unauthorized' },
      // Not in §7.4: a body over the 64 KiB ingest limit, in the shape the OpenAPI document gives.
      413: { error: 'payload_too_large', message: text },
      422: { error: 'validation_failed', issues: expect.arrayContaining([{ field: text, message: text }]) },
    };
    expect({ status, body }).toEqual({ status, body: expected[status] ?? `a status of §7.4` });
  },
  conversions: (status, body) =>
    expect(body).toEqual(
      status === 422 ? validationFailed : { error: status === 403 ? 'Forbidden' : text, statusCode: status },
    ),
};

function expectRefused(op: Op, kase: Case, response: LightMyRequestResponse) {
  const { statusCode: status, body: raw } = response;
  expect(status, raw).toBeGreaterThanOrEqual(400);
  expect(status, raw).toBeLessThan(500);
  // The credential is good: only payments answers a bad site_id with 401 (§7.4).
  if (op.area !== 'payments') expect(status, raw).not.toBe(401);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json() as Body;
  const shape = SHAPES[op.area];
  if (!shape) throw new Error(`No error shape for area ${op.area}`);
  shape(status, body, kase.source);
  const named = body.field ?? (body.issues as { field?: string }[] | undefined)?.[0]?.field;
  if (kase.field && body.error === 'validation_failed' && named !== undefined) expect(named).toBe(kase.field);
  expect(raw.length, 'an error body echoing the input').toBeLessThan(2048);
  expect(raw).not.toMatch(LEAK);
  for (const secret of f.secrets) expect(raw).not.toContain(secret);
}

const COUNTED =
  'accounts users memberships dashboard_sessions sites api_keys goals funnels webhooks webhook_deliveries bot_tokens payments refunds events crawler_hits outbox_events';
const COMPARED = ['sites', 'goals', 'funnels', 'webhooks', 'memberships'] as const;

/** Row counts of the tables a request could write, and the rows of those it could change. */
async function snapshot() {
  const db = t.database.db;
  const count = (table: keyof DB) =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
  return {
    counts: await Promise.all(
      COUNTED.split(' ').map(async (table) => [table, (await count(table as keyof DB)).n]),
    ),
    rows: await Promise.all(
      COMPARED.map(async (table) =>
        (await db.selectFrom(table).selectAll().execute()).map((row) => JSON.stringify(row)).sort(),
      ),
    ),
  };
}

/** A visit on the site, through the tracker's endpoint: its id. */
async function visitOf(siteKey: string, domain: string): Promise<string> {
  const response = await collect(t, pageview(siteKey, newVisitorId(), `https://${domain}/`));
  if (response.statusCode !== 202) throw new Error(`collect: ${response.body}`);
  const row = await t.database.db
    .selectFrom('visits')
    .innerJoin('sites', 'sites.id', 'visits.site_id')
    .select('visits.id')
    .where('sites.snippet_key', '=', siteKey)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('malformed input on every operation', () => {
  let before: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    const receiver = await w.startReceiver();
    const { owner, site } = w;
    const rival = await addOtherAccount(t);
    const rivalSite = await addSite(t, asKey(rival.apiKey), 'rival.example');
    const create = async (key: string, url: string, payload: object) => {
      const response = await t.request({ method: 'POST', url, headers: bearer(key), payload });
      if (response.statusCode !== 201) throw new Error(`${url}: ${response.body}`);
      return response.json();
    };
    const { goal } = await create(owner.apiKey, '/v1/goals', { site_id: site.site_id, name: 'signup' });
    const { goal: rivalGoal } = await create(rival.apiKey, '/v1/goals', {
      site_id: rivalSite.site_id,
      name: 'signup',
    });
    const webhook = await w.api.add(receiver.url);
    const rivalWebhook = await webhookApi(t, asKey(rival.apiKey), rivalSite.site_id).add(receiver.url);
    const bot = await create(owner.apiKey, '/v1/account/bot-tokens', { site_id: site.site_id });
    const rivalBot = await create(rival.apiKey, '/v1/account/bot-tokens', { site_id: rivalSite.site_id });
    const rivalKey = await mintKey(t, rival.cookie, { scopes: ['stats:read'] });
    const invitee = { email: 'pending@example.com', role: 'member' };
    const invitation = await create(owner.apiKey, '/v1/account/invitations', invitee);
    const rivalInvitation = await create(rival.apiKey, '/v1/account/invitations', invitee);
    const funnel = { name: 'Checkout', steps: FUNNEL_STEPS };
    const { funnel: ourFunnel } = await create(owner.apiKey, '/v1/funnels', {
      site_id: site.site_id,
      ...funnel,
    });
    const { funnel: rivalFunnel } = await create(rival.apiKey, '/v1/funnels', {
      site_id: rivalSite.site_id,
      ...funnel,
    });
    const rivalSession = await visitOf(rivalSite.site_id, rivalSite.domain);
    const sharedLink = await create(owner.apiKey, `/v1/sites/${site.site_id}/shared-links`, {
      password: 'open sesame',
    });
    const rivalLink = await create(rival.apiKey, `/v1/sites/${rivalSite.site_id}/shared-links`, {});
    const connection = { provider: 'stripe', signing_secret: 'whsec_bad_input' };
    const ourConnection = await create(owner.apiKey, `/v1/sites/${site.site_id}/integrations`, connection);
    const rivalConnection = await create(
      rival.apiKey,
      `/v1/sites/${rivalSite.site_id}/integrations`,
      connection,
    );
    const importFor = async (key: string, siteKey: string) => {
      const response = await t.request({
        method: 'POST',
        url: `/v1/sites/${siteKey}/imports?source=umami`,
        headers: { ...bearer(key), 'content-type': 'text/csv' },
        payload: 'session_id,created_at,url_path,event_type\n',
      });
      if (response.statusCode !== 202) throw new Error(`import: ${response.body}`);
      return response.json().import.id as string;
    };
    const ourImport = await importFor(owner.apiKey, site.site_id);
    const rivalImport = await importFor(rival.apiKey, rivalSite.site_id);
    const headers: Record<string, Record<string, string>> = {};
    const tokens: string[] = [];
    for (const { id } of OPERATIONS) {
      if (CALLED_WITH[id] === 'session') headers[id] = { cookie: owner.cookie };
      if (CALLED_WITH[id] === 'bot token') headers[id] = bearer(bot.plaintext_token);
      if (CALLED_WITH[id] !== undefined) continue;
      // Minted by the session and the owner's key in turn: each may mint 60 a minute.
      const minted =
        tokens.length % 2 === 0
          ? await mintKey(t, owner.cookie, { scopes: ALL_SCOPES })
          : await create(owner.apiKey, '/v1/account/keys', { name: `walk ${id}`, scopes: ALL_SCOPES });
      tokens.push(minted.api_key);
      headers[id] = bearer(tokens.at(-1) as string);
    }
    f = {
      site: { key: site.site_id, uuid: w.siteId, domain: site.domain },
      rival: { key: rivalSite.site_id, uuid: await siteUuid(t, rivalSite.site_id) },
      ours: {
        siteId: site.site_id,
        webhookId: webhook.id,
        goalId: goal.id,
        userId: owner.userId,
        name: goal.name,
        handle: 'vh_x',
        funnelId: ourFunnel.id,
        sessionId: randomUUID(),
        invitationId: invitation.id,
        dashboardSessionId: randomUUID(),
        linkId: sharedLink.id,
        connectionId: ourConnection.id,
        importId: ourImport,
      },
      theirs: {
        ...{ siteId: rivalSite.site_id, webhookId: rivalWebhook.id, goalId: rivalGoal.id },
        ...{ userId: rival.userId, keyId: rivalKey.id, tokenId: rivalBot.id },
        ...{ funnelId: rivalFunnel.id, sessionId: rivalSession },
        invitationId: rivalInvitation.id,
        dashboardSessionId: await dashboardSessionOf(rival.userId),
        linkId: rivalLink.id,
        connectionId: rivalConnection.id,
        importId: rivalImport,
      },
      headers,
      secrets: [
        ...[owner, rival].flatMap((who) => [who.apiKey, who.cookie.replace('tt_session=', '')]),
        ...[
          webhook.secret,
          rivalWebhook.secret,
          bot.plaintext_token,
          rivalBot.plaintext_token,
          rivalKey.api_key,
          sharedLink.url.split('#')[1],
          rivalLink.url.split('#')[1],
        ],
        ...[...tokens, SETUP_TOKEN, ADMIN.password, t.config.secretKey as string],
      ],
      now: t.clock.now().toISOString(),
      sharedLinkToken: sharedLink.url.split('#')[1],
    };
    before = await snapshot();
  });

  it('walks the document the app serves', async () => {
    expect((await t.request({ method: 'GET', url: '/v1/openapi.json' })).json()).toEqual(DOCUMENT);
  });

  for (const op of OPERATIONS) {
    describe(op.id, () => {
      for (const kase of op.cases) {
        it(`refuses ${kase.name}`, async () => expectRefused(op, kase, await send(op, kase)));
      }
    });
  }

  it('wrote nothing, not even in part', async () => {
    expect(await snapshot()).toEqual(before);
  });
});
