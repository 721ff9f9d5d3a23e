/**
 * Bad input on every goals route: wrong types, unknown fields, empty and huge values, malformed
 * ids and dates. A bad body on a write is 400, a bad query string or path parameter 422, both
 * `{error: "validation_failed", message, field}` naming the offending field (interface §7.1).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Owner, type TestContext, useTestApp } from '../test/app.js';
import { type GoalsClient, siteWithKey } from './goals.fixtures.js';

const expectInvalid = (
  response: { statusCode: number; json(): unknown },
  status: 400 | 422,
  field: string,
) => {
  expect({ status: response.statusCode, body: response.json() }).toEqual({
    status,
    body: { error: 'validation_failed', message: expect.any(String), field },
  });
};

const t = useTestApp();

/**
 * A site of its own with a fresh key and one goal, per describe block: refused requests count
 * against the key's write budget of §8 (60 a minute) like any other.
 */
function useGoalSite() {
  const env = {
    t,
    get owner() {
      return t.owner;
    },
  } as { t: TestContext; owner: Owner; api: GoalsClient; site_id: string; goalId: string };
  beforeAll(async () => {
    const fixture = await siteWithKey(t, t.owner);
    env.api = fixture.api;
    env.site_id = fixture.site.snippet_key;
    env.goalId = (await env.api.create({ site_id: env.site_id, name: 'existing' })).json().goal.id;
  });
  return env;
}

describe('goals: bad input on create', () => {
  const env = useGoalSite();

  const CREATE_CASES: [string, unknown, string][] = [
    ['a missing site_id', { name: 'x' }, 'site_id'],
    ['a numeric site_id', { site_id: 42, name: 'x' }, 'site_id'],
    ['a malformed site_id', { site_id: 'ttid_short', name: 'x' }, 'site_id'],
    ['an empty site_id', { site_id: '', name: 'x' }, 'site_id'],
    ['a missing name', {}, 'name'],
    ['a numeric name', { name: 7 }, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['an upper-case name', { name: 'Signup' }, 'name'],
    ['a name starting with a digit', { name: '1st' }, 'name'],
    ['a name with a dash', { name: 'sign-up' }, 'name'],
    ['a name with a space', { name: 'sign up' }, 'name'],
    ['a 65-character name', { name: 'a'.repeat(65) }, 'name'],
    ['a huge name', { name: 'a'.repeat(100_000) }, 'name'],
    ['a reserved name', { name: 'pageview' }, 'name'],
    ['another reserved name', { name: 'payment' }, 'name'],
    ['a reserved prefix', { name: 'touchtrail_internal' }, 'name'],
    ['an empty display_name', { name: 'x', display_name: '' }, 'display_name'],
    ['a blank display_name', { name: 'x', display_name: '   ' }, 'display_name'],
    ['a 121-character display_name', { name: 'x', display_name: 'é'.repeat(121) }, 'display_name'],
    ['a huge display_name', { name: 'x', display_name: 'x'.repeat(200_000) }, 'display_name'],
    ['a numeric display_name', { name: 'x', display_name: 5 }, 'display_name'],
    ['a display_name with a control character', { name: 'x', display_name: 'a\u0000b' }, 'display_name'],
    ['text as emoji', { name: 'x', emoji: 'ok' }, 'emoji'],
    ['two emoji', { name: 'x', emoji: '🎉🎉' }, 'emoji'],
    ['an empty emoji', { name: 'x', emoji: '' }, 'emoji'],
    ['a numeric emoji', { name: 'x', emoji: 1 }, 'emoji'],
    ['an array as emoji', { name: 'x', emoji: ['🎉'] }, 'emoji'],
    ['a negative sort_order', { name: 'x', sort_order: -1 }, 'sort_order'],
    ['a sort_order over 10000', { name: 'x', sort_order: 10_001 }, 'sort_order'],
    ['a fractional sort_order', { name: 'x', sort_order: 1.5 }, 'sort_order'],
    ['a string sort_order', { name: 'x', sort_order: '3' }, 'sort_order'],
    ['a null sort_order', { name: 'x', sort_order: null }, 'sort_order'],
    ['an unknown field', { name: 'x', colour: 'red' }, 'colour'],
    ['an archived_at', { name: 'x', archived_at: null }, 'archived_at'],
  ];

  it.each(CREATE_CASES)('POST /v1/goals refuses %s with 400', async (_label, body, field) => {
    const { api, site_id } = env;
    const payload = field === 'site_id' ? body : { site_id, ...(body as object) };
    expectInvalid(await api.create(payload), 400, field);
  });

  it('POST /v1/goals refuses a missing body, a non-object and broken JSON with 400', async () => {
    const { t, owner, api, site_id } = env;
    expectInvalid(await api.create(undefined), 400, 'body');
    expectInvalid(await api.create([{ site_id, name: 'x' }]), 400, 'body');
    const broken = await t.request({
      method: 'POST',
      url: '/v1/goals',
      headers: { authorization: `Bearer ${owner.apiKey}`, 'content-type': 'application/json' },
      payload: '{"site_id": ',
    });
    expectInvalid(broken, 400, 'body');
  });

  it('accepts the limits themselves', async () => {
    const { api, site_id } = env;
    const response = await api.create({
      site_id,
      name: `b${'_'.repeat(63)}`,
      display_name: '🎉'.repeat(120),
      emoji: '👨‍👩‍👧‍👦',
      sort_order: 0,
    });
    expect(response.statusCode).toBe(201);
  });
});

describe('goals: bad input on the other routes', () => {
  const env = useGoalSite();

  it('PATCH /v1/goals/:id: 422 for a malformed id, 400 for a bad body', async () => {
    const { api, site_id, goalId } = env;
    expectInvalid(await api.update('not-a-uuid', { site_id, emoji: '🎯' }), 422, 'id');
    expectInvalid(await api.update(goalId, { emoji: '🎯' }), 400, 'site_id');
    expectInvalid(await api.update(goalId, { site_id, name: 'renamed' }), 400, 'name');
    expectInvalid(await api.update(goalId, { site_id, sort_order: '1' }), 400, 'sort_order');
    expectInvalid(await api.update(goalId, { site_id, display_name: '' }), 400, 'display_name');
    expectInvalid(await api.update(goalId, { site_id, emoji: '🇫' }), 400, 'emoji');
    expectInvalid(await api.update(goalId, { site_id, id: goalId }), 400, 'id');
  });

  it('PATCH /v1/goals/reorder: 400 for empty, too long, malformed or repeated ids', async () => {
    const { api, site_id, goalId } = env;
    expectInvalid(await api.reorder({ site_id, goal_ids: [] }), 400, 'goal_ids');
    const many = Array.from({ length: 501 }, () => randomUUID());
    expectInvalid(await api.reorder({ site_id, goal_ids: many }), 400, 'goal_ids');
    expectInvalid(await api.reorder({ site_id, goal_ids: [goalId, 'x'] }), 400, 'goal_ids.1');
    expectInvalid(await api.reorder({ site_id, goal_ids: goalId }), 400, 'goal_ids');
    expectInvalid(await api.reorder({ site_id }), 400, 'goal_ids');
    expectInvalid(await api.reorder({ site_id, goal_ids: [goalId, goalId.toUpperCase()] }), 400, 'goal_ids');
    const fine = await api.reorder({ site_id, goal_ids: Array.from({ length: 500 }, () => randomUUID()) });
    expect(fine.statusCode).toBe(200);
  });

  it('DELETE /v1/goals/:id takes site_id in the query: 422 when it is missing or malformed', async () => {
    const { api, site_id, goalId } = env;
    expectInvalid(await api.archive(goalId, {}), 422, 'site_id');
    expectInvalid(await api.archive(goalId, { site_id: 'nope' }), 422, 'site_id');
    expectInvalid(await api.archive('123', { site_id }), 422, 'id');
    expectInvalid(await api.archive(goalId, { site_id, force: 'true' }), 422, 'force');
  });

  it('POST /v1/goals/:id/unarchive takes site_id in the body, not the query', async () => {
    const { api, site_id, goalId } = env;
    const inQuery = await api.send('POST', `/v1/goals/${goalId}/unarchive`, { site_id });
    expectInvalid(inQuery, 400, 'body');
    expectInvalid(await api.unarchive(goalId, {}), 400, 'site_id');
    expectInvalid(await api.unarchive('x', { site_id }), 422, 'id');
  });

  it('GET /v1/goals: include_archived takes "true" or "false" only', async () => {
    const { api, site_id } = env;
    for (const value of ['yes', '1', 'TRUE', '']) {
      expectInvalid(await api.list({ site_id, include_archived: value }), 422, 'include_archived');
    }
    expectInvalid(await api.list({}), 422, 'site_id');
    expectInvalid(await api.list({ site_id, page: '2' }), 422, 'page');
  });

  it('reports: 422 for malformed days, from after to, windows over 365 days and bad goal names', async () => {
    const { api, site_id } = env;
    for (const [query, field] of [
      [{ from: '2026-02-30' }, 'from'],
      [{ to: 'today' }, 'to'],
      [{ from: '2026-1-1' }, 'from'],
      [{ from: '2026-03-10', to: '2026-03-09' }, 'from'],
      [{ from: '2024-01-01', to: '2025-01-01' }, 'from'],
      [{ limit: '5' }, 'limit'],
    ] as const) {
      expectInvalid(await api.timeseries({ site_id, ...query }), 422, field);
      expectInvalid(await api.properties('existing', { site_id, ...query }), 422, field);
    }
    for (const name of ['Bad', 'pageview', 'a'.repeat(65), '1x', '%F0%9F%98%80']) {
      expectInvalid(await api.properties(name, { site_id }), 422, 'name');
    }
  });
});
