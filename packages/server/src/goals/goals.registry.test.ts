import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';
import { goalsClient, postServerEvents, siteWithKey } from './goals.fixtures.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('goal registry', () => {
  const t = useTestApp();

  it('creates a goal (201) with every field and lists it', async () => {
    const { site, api } = await siteWithKey(t, t.owner);
    const created = await api.create({
      site_id: site.snippet_key,
      name: 'trial_started',
      display_name: '  Trial started 🚀  ',
      emoji: '🇯🇵',
      sort_order: 10_000,
    });
    expect(created.statusCode).toBe(201);
    const goal = created.json().goal;
    expect(goal).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      site_id: site.snippet_key,
      name: 'trial_started',
      display_name: 'Trial started 🚀',
      emoji: '🇯🇵',
      sort_order: 10_000,
      created_at: expect.stringMatching(TIMESTAMP),
      archived_at: null,
    });
    const minimal = await api.create({ site_id: site.snippet_key, name: 'a' });
    expect(minimal.json().goal).toMatchObject({ name: 'a', display_name: null, emoji: null, sort_order: 0 });
    const listed = await api.list({ site_id: site.snippet_key });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ goals: [minimal.json().goal, goal] });
  });

  it('orders by sort_order, then name bytewise', async () => {
    const { site, api } = await siteWithKey(t, t.owner);
    for (const [name, sort_order] of [
      ['ab', 1],
      ['a_z', 1],
      ['a1', 1],
      ['zeta', 0],
      ['b', 2],
    ] as const) {
      expect((await api.create({ site_id: site.snippet_key, name, sort_order })).statusCode).toBe(201);
    }
    const names = (await api.list({ site_id: site.snippet_key }))
      .json()
      .goals.map((g: { name: string }) => g.name);
    expect(names).toEqual(['zeta', 'a1', 'a_z', 'ab', 'b']);
  });

  it('answers 409 goal_exists for a name on the site, archived or not; other sites may reuse it', async () => {
    const { site, api } = await siteWithKey(t, t.owner);
    const first = (await api.create({ site_id: site.snippet_key, name: 'signup' })).json().goal;
    const again = await api.create({ site_id: site.snippet_key, name: 'signup', emoji: '✅' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'conflict',
      code: 'goal_exists',
      message: expect.any(String),
      field: 'name',
    });
    expect((await api.archive(first.id, { site_id: site.snippet_key })).statusCode).toBe(204);
    expect((await api.create({ site_id: site.snippet_key, name: 'signup' })).json()).toMatchObject({
      code: 'goal_exists',
    });
    const other = await siteWithKey(t, t.owner);
    expect((await other.api.create({ site_id: other.site.snippet_key, name: 'signup' })).statusCode).toBe(
      201,
    );
  });

  it('refuses a goal that ingest registered already', async () => {
    const { site, key, api } = await siteWithKey(t, t.owner);
    await postServerEvents(t, key, [{ site_id: site.snippet_key, name: 'lead' }]);
    expect((await api.create({ site_id: site.snippet_key, name: 'lead' })).statusCode).toBe(409);
    expect(
      (await api.list({ site_id: site.snippet_key })).json().goals.map((g: { name: string }) => g.name),
    ).toEqual(['lead']);
  });

  it('updates only the fields sent; null clears display_name and emoji; name is immutable', async () => {
    const { site, api } = await siteWithKey(t, t.owner);
    const goal = (
      await api.create({
        site_id: site.snippet_key,
        name: 'buy',
        display_name: 'Buy',
        emoji: '🛒',
        sort_order: 3,
      })
    ).json().goal;
    const sortOnly = await api.update(goal.id, { site_id: site.snippet_key, sort_order: 7 });
    expect(sortOnly.statusCode).toBe(200);
    expect(sortOnly.json().goal).toEqual({ ...goal, sort_order: 7 });
    const cleared = await api.update(goal.id, { site_id: site.snippet_key, display_name: null, emoji: null });
    expect(cleared.json().goal).toEqual({ ...goal, sort_order: 7, display_name: null, emoji: null });
    const nothing = await api.update(goal.id, { site_id: site.snippet_key });
    expect(nothing.statusCode).toBe(200);
    expect(nothing.json().goal).toEqual(cleared.json().goal);
    const renamed = await api.update(goal.id, { site_id: site.snippet_key, name: 'sell' });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json()).toMatchObject({ error: 'validation_failed', field: 'name' });
  });

  it('answers 404 {error, statusCode} for a goal of another site, of another account, or unknown', async () => {
    const mine = await siteWithKey(t, t.owner);
    const other = await siteWithKey(t, t.owner);
    const theirs = (await other.api.create({ site_id: other.site.snippet_key, name: 'x' })).json().goal;
    const site_id = mine.site.snippet_key;
    const notFound = { error: 'Not found', statusCode: 404 };
    for (const response of [
      await mine.api.update(theirs.id, { site_id, emoji: '🎯' }),
      await mine.api.archive(theirs.id, { site_id }),
      await mine.api.unarchive(theirs.id, { site_id }),
      await mine.api.update('00000000-0000-4000-8000-000000000000', { site_id }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    // Untouched.
    const listed = (await other.api.list({ site_id: other.site.snippet_key })).json().goals;
    expect(listed).toEqual([theirs]);
  });

  it('archives with 204 and no body, hides archived goals unless include_archived=true', async () => {
    const { site, key, api } = await siteWithKey(t, t.owner);
    const site_id = site.snippet_key;
    const keep = (await api.create({ site_id, name: 'keep' })).json().goal;
    const gone = (await api.create({ site_id, name: 'gone' })).json().goal;
    const archived = await api.archive(gone.id, { site_id });
    expect(archived.statusCode).toBe(204);
    expect(archived.body).toBe('');
    expect((await api.archive(gone.id, { site_id })).statusCode).toBe(204);
    expect((await api.list({ site_id })).json().goals).toEqual([keep]);
    expect((await api.list({ site_id, include_archived: 'false' })).json().goals).toEqual([keep]);
    const all = (await api.list({ site_id, include_archived: 'true' })).json().goals;
    expect(all).toEqual([{ ...gone, archived_at: expect.stringMatching(TIMESTAMP) }, keep]);

    // Events with the name keep being recorded and counted.
    await postServerEvents(t, key, [{ site_id, name: 'gone' }]);
    const series = (await api.timeseries({ site_id })).json().series;
    expect(series).toEqual([expect.objectContaining({ goal_name: 'gone', total: 1 })]);
    expect((await api.list({ site_id })).json().goals).toEqual([keep]);

    const back = await api.unarchive(gone.id, { site_id });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toEqual({ goal: gone });
    expect((await api.unarchive(gone.id, { site_id })).json()).toEqual({ goal: gone });
  });

  it('reorders: listed goals get 0, 1, 2 …; other sites’ ids are ignored; answers the full list', async () => {
    const { site, api } = await siteWithKey(t, t.owner);
    const site_id = site.snippet_key;
    const made: Record<string, { id: string }> = {};
    for (const name of ['a', 'b', 'c', 'd'])
      made[name] = (await api.create({ site_id, name, sort_order: 50 })).json().goal;
    const other = await siteWithKey(t, t.owner);
    const foreign = (
      await other.api.create({ site_id: other.site.snippet_key, name: 'z', sort_order: 9 })
    ).json().goal;
    const response = await api.reorder({
      site_id,
      goal_ids: [made.c?.id, foreign.id, made.a?.id.toUpperCase(), made.b?.id],
    });
    expect(response.statusCode).toBe(200);
    expect(
      response.json().goals.map((g: { name: string; sort_order: number }) => [g.name, g.sort_order]),
    ).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 2],
      ['d', 50],
    ]);
    expect((await other.api.list({ site_id: other.site.snippet_key })).json().goals).toEqual([foreign]);
  });

  it('keeps the reorder route out of the OpenAPI document but callable with a key', async () => {
    const document = (await t.request({ method: 'GET', url: '/v1/openapi.json' })).json();
    expect(Object.keys(document.paths['/v1/goals/{id}'] ?? {})).toEqual(['patch', 'delete']);
    expect(document.paths['/v1/goals/reorder']).toBeUndefined();
    expect(document.paths['/v1/goals'].get.parameters).toContainEqual(
      expect.objectContaining({ name: 'include_archived', in: 'query' }),
    );
  });

  it('lets a dashboard session address the site by internal UUID and still answers the snippet key', async () => {
    const { site } = await siteWithKey(t, t.owner);
    const session = goalsClient(t, { cookie: t.owner.cookie });
    const created = await session.create({ site_id: site.id, name: 'via_session' });
    expect(created.statusCode).toBe(201);
    expect(created.json().goal.site_id).toBe(site.snippet_key);
    expect((await session.list({ site_id: site.id.toUpperCase() })).json().goals).toHaveLength(1);
  });
});
