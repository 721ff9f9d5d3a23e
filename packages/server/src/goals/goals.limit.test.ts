/**
 * The limit of 200 active goals per site (interface §3.2, §8): unarchive answers 409
 * `goal_limit_reached` at the limit, and so does creating a goal. The 200 goals are registered
 * through the real ingest path (200 distinct event names).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';
import { GOALS_PER_SITE } from './goal-names.js';
import { type GoalsClient, postServerEvents, siteWithKey } from './goals.fixtures.js';

describe('goals: 200 active goals per site', () => {
  const t = useTestApp();
  let api: GoalsClient;
  let site_id: string;
  beforeAll(async () => {
    const fixture = await siteWithKey(t, t.owner);
    api = fixture.api;
    site_id = fixture.site.snippet_key;
    const names = Array.from({ length: GOALS_PER_SITE }, (_, i) => `goal_${String(i).padStart(3, '0')}`);
    await postServerEvents(
      t,
      fixture.key,
      names.map((name) => ({ site_id, name })),
    );
  }, 120_000);

  const goalNamed = async (name: string) =>
    (await api.list({ site_id, include_archived: 'true' }))
      .json()
      .goals.find((goal: { name: string }) => goal.name === name);

  it('refuses unarchiving at the limit with 409 goal_limit_reached and no field', async () => {
    expect((await api.list({ site_id })).json().goals).toHaveLength(200);
    const first = await goalNamed('goal_000');
    expect((await api.archive(first.id, { site_id })).statusCode).toBe(204);
    expect((await api.list({ site_id })).json().goals).toHaveLength(199);

    // Creating takes the freed place (the registry may hold more than 200 names in all).
    expect((await api.create({ site_id, name: 'declared_later' })).statusCode).toBe(201);

    const refused = await api.unarchive(first.id, { site_id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'conflict',
      code: 'goal_limit_reached',
      message: expect.any(String),
    });
    expect((await goalNamed('goal_000')).archived_at).not.toBeNull();
  });

  it('refuses creating a goal at the limit with the same 409', async () => {
    const refused = await api.create({ site_id, name: 'one_too_many' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'conflict', code: 'goal_limit_reached' });
  });

  it('unarchives once a place is free', async () => {
    const later = await goalNamed('declared_later');
    expect((await api.archive(later.id, { site_id })).statusCode).toBe(204);
    const first = await goalNamed('goal_000');
    const back = await api.unarchive(first.id, { site_id });
    expect(back.statusCode).toBe(200);
    expect(back.json().goal).toMatchObject({ name: 'goal_000', archived_at: null });
    expect((await api.list({ site_id })).json().goals).toHaveLength(200);
  });
});
