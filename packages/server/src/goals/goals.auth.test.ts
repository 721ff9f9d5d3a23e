/**
 * Who may call the goals endpoints (interface §4.1, §5, §7.1, §8): credentials, permissions,
 * site coverage and a site scheduled for deletion. Rate limits: goals.rate-limits.test.ts.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../access/principal.js';
import { bearer, mintKey, type Owner, type TestContext, useTestApp } from '../test/app.js';
import { insertAccount, insertSite } from '../test/factories.js';
import { type Auth, type GoalsClient, goalsClient, siteWithKey } from './goals.fixtures.js';

interface RouteCase {
  label: string;
  scope: Scope;
  call: (api: GoalsClient, site_id: string, goalId: string) => Promise<LightMyRequestResponse>;
  /** Status when the caller may act. */
  ok: number;
}

const ROUTES: RouteCase[] = [
  { label: 'GET /v1/goals', scope: 'stats:read', ok: 200, call: (api, site_id) => api.list({ site_id }) },
  {
    label: 'POST /v1/goals',
    scope: 'config:write',
    ok: 201,
    call: (api, site_id) => api.create({ site_id, name: `g_${randomUUID().slice(0, 8)}` }),
  },
  {
    label: 'PATCH /v1/goals/:id',
    scope: 'config:write',
    ok: 200,
    call: (api, site_id, id) => api.update(id, { site_id, emoji: '🎯' }),
  },
  {
    label: 'PATCH /v1/goals/reorder',
    scope: 'config:write',
    ok: 200,
    call: (api, site_id, id) => api.reorder({ site_id, goal_ids: [id] }),
  },
  {
    label: 'DELETE /v1/goals/:id',
    scope: 'config:write',
    ok: 204,
    call: (api, site_id, id) => api.archive(id, { site_id }),
  },
  {
    label: 'POST /v1/goals/:id/unarchive',
    scope: 'config:write',
    ok: 200,
    call: (api, site_id, id) => api.unarchive(id, { site_id }),
  },
  {
    label: 'GET /v1/goals/timeseries',
    scope: 'stats:read',
    ok: 200,
    call: (api, site_id) => api.timeseries({ site_id }),
  },
  {
    label: 'GET /v1/goals/:name/properties',
    scope: 'stats:read',
    ok: 200,
    call: (api, site_id) => api.properties('signup', { site_id }),
  },
];

const ALL: Scope[] = ['stats:read', 'config:write', 'credentials:write', 'ingest:write'];

interface Group {
  t: TestContext;
  owner: Owner;
  site: { id: string; snippet_key: string };
  goalId: string;
  revokedKey: string;
}

/**
 * One app for the file. Each group of tests gets its own site, key and goal and every client
 * speaks from its own address, so the per-credential and per-address budgets of §8 a group
 * spends are its own; the owner's key and session are shared and stay well within theirs.
 */
const t = useTestApp();

/** A fresh site with a goal and a revoked key, made before the group's tests. */
function useGroup(): Group {
  const group = {
    t,
    get owner() {
      return t.owner;
    },
  } as Group;
  beforeAll(async () => {
    const fixture = await siteWithKey(t, t.owner);
    group.site = fixture.site;
    group.goalId = (
      await fixture.api.create({ site_id: fixture.site.snippet_key, name: 'signup' })
    ).json().goal.id;
    const revoked = await mintKey(t, t.owner.cookie, { scopes: ALL });
    await t.request({
      method: 'DELETE',
      url: `/v1/account/keys/${revoked.id}`,
      headers: { cookie: t.owner.cookie },
    });
    group.revokedKey = revoked.api_key;
  });
  return group;
}

describe.each(ROUTES)('goals auth: $label', (route) => {
  const env = useGroup();

  const as = (auth: Auth | Record<string, string>) => goalsClient(env.t, auth);
  const call = (auth: Auth | Record<string, string>, ref = env.site.snippet_key) =>
    route.call(as(auth), ref, env.goalId);

  it('answers 401 to a missing, malformed, unknown or revoked credential', async () => {
    const bad: Record<string, string>[] = [
      {},
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer ' },
      bearer(`tk_live_${'x'.repeat(40)}`),
      bearer(env.revokedKey),
      { cookie: `tt_session=${'A'.repeat(43)}` },
    ];
    for (const headers of bad) {
      const response = await call(headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: 'Unauthorized',
        statusCode: 401,
        message: expect.any(String),
      });
    }
  });

  it(`answers 403 insufficient_scope naming ${route.scope} to a key without it`, async () => {
    const { t, owner } = env;
    const { api_key } = await mintKey(t, owner.cookie, {
      scopes: ALL.filter((scope) => scope !== route.scope),
    });
    const response = await call(bearer(api_key));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: 'insufficient_scope',
      statusCode: 403,
      required_scope: route.scope,
    });
  });

  it(`lets a key holding only ${route.scope} through, and a dashboard session by site UUID`, async () => {
    const { api_key } = await mintKey(env.t, env.owner.cookie, { scopes: [route.scope] });
    expect((await call(bearer(api_key))).statusCode).toBe(route.ok);
    expect((await call({ cookie: env.owner.cookie }, env.site.id)).statusCode).toBe(route.ok);
  });

  it('answers 404 for a site the caller does not cover, never 403', async () => {
    const { t, owner, site } = env;
    const rival = await insertAccount(t);
    const rivalSite = await insertSite(t, rival.accountId);
    const otherSite = await insertSite(t, owner.accountId);
    const restricted = await mintKey(t, owner.cookie, { scopes: ALL, site_id: otherSite.snippet_key });
    for (const [auth, ref] of [
      [bearer(owner.apiKey), rivalSite.snippet_key],
      [{ cookie: owner.cookie }, rivalSite.id],
      [bearer(restricted.api_key), site.snippet_key],
      [bearer(owner.apiKey), site.id],
      [bearer(owner.apiKey), `ttid_${'Z'.repeat(22)}`],
    ] as const) {
      const response = await call(auth, ref);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Not found', statusCode: 404 });
    }
  });
});

describe('goals auth: a site scheduled for deletion', () => {
  it('keeps reads working; writes answer 404', async () => {
    const { owner } = t;
    const api = goalsClient(t, bearer(owner.apiKey));
    const scheduled = await insertSite(t, owner.accountId);
    const goal = (await api.create({ site_id: scheduled.snippet_key, name: 'signup' })).json().goal;
    await t.database.db
      .updateTable('sites')
      .set({ deleted_at: t.clock.now() })
      .where('id', '=', scheduled.id)
      .execute();
    for (const route of ROUTES) {
      const response = await route.call(api, scheduled.snippet_key, goal.id);
      if (route.scope === 'stats:read') expect(response.statusCode, route.label).toBe(200);
      else expect(response.json(), route.label).toEqual({ error: 'Not found', statusCode: 404 });
    }
  });
});
