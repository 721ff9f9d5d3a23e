/**
 * Rate limits of the goals endpoints (interface §8): per credential 120 reads and 60 writes a
 * minute, per client address 600 a minute across every goals endpoint; 429 with Retry-After.
 * Each test spends the budgets of its own fresh keys and client addresses, so they start empty.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../test/app.js';
import { goalsClient, nextAddress, siteWithKey } from './goals.fixtures.js';

describe('goals: rate limits', () => {
  const t = useTestApp();

  const expectLimited = (response: LightMyRequestResponse) => {
    expect(response.statusCode).toBe(429);
    expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(response.json()).toEqual({
      error: 'Too Many Requests',
      statusCode: 429,
      message: expect.any(String),
    });
  };

  it('allows 60 writes a minute per credential, separately from reads', async () => {
    const { site, api } = await siteWithKey(t, t.owner);
    const site_id = site.snippet_key;
    const id = (await api.create({ site_id, name: 'w' })).json().goal.id;
    for (let i = 1; i < 60; i++)
      expect((await api.update(id, { site_id, sort_order: i })).statusCode).toBe(200);
    expectLimited(await api.archive(id, { site_id }));
    expect((await api.list({ site_id })).statusCode).toBe(200);
  });

  it('allows 120 reads a minute per credential across the read endpoints, from any address', async () => {
    const { site, key, api } = await siteWithKey(t, t.owner);
    const site_id = site.snippet_key;
    for (let i = 0; i < 40; i++) {
      expect((await api.list({ site_id })).statusCode).toBe(200);
      expect((await api.timeseries({ site_id })).statusCode).toBe(200);
      expect((await api.properties('signup', { site_id })).statusCode).toBe(200);
    }
    expectLimited(await api.list({ site_id }));
    expectLimited(await goalsClient(t, bearer(key)).timeseries({ site_id }));
  });

  it('counts each credential separately', async () => {
    const first = await siteWithKey(t, t.owner);
    const second = await siteWithKey(t, t.owner);
    for (let i = 0; i < 120; i++) await first.api.list({ site_id: first.site.snippet_key });
    expectLimited(await first.api.list({ site_id: first.site.snippet_key }));
    const sameAddress = goalsClient(t, bearer(second.key), first.api.address);
    expect((await sameAddress.list({ site_id: second.site.snippet_key })).statusCode).toBe(200);
  });

  it('allows 600 requests a minute per client address across every goals endpoint', async () => {
    const address = nextAddress();
    const anonymous = goalsClient(t, {}, address);
    const paths = ['/v1/goals', '/v1/goals/timeseries', '/v1/goals/signup/properties'];
    for (let i = 0; i < 600; i++) {
      const response =
        i % 2 ? await anonymous.send('GET', paths[i % 3] as string) : await anonymous.create({});
      expect(response.statusCode).toBe(401);
    }
    const { site, key } = await siteWithKey(t, t.owner);
    expectLimited(await goalsClient(t, bearer(key), address).list({ site_id: site.snippet_key }));
    expect((await goalsClient(t, bearer(key)).list({ site_id: site.snippet_key })).statusCode).toBe(200);
  });
});
