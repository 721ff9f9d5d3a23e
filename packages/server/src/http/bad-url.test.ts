/**
 * Path parameters the router itself refuses, on every route that has one: an undecodable
 * `%ff` and a value over the router's 500 characters. Each answers 422 `validation_failed`
 * naming the parameter in its area's shape (interface §7.1, §7.2), never Fastify's own body with
 * an `FST_` code, and never echoes the URL or its query string.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { addSite, asKey } from '../sites/sites.fixtures.js';
import { bearer, useTestApp } from '../test/app.js';
import { MAX_PARAM_LENGTH } from './bad-url.js';

const BAD_VALUES: [string, string][] = [
  ['an undecodable %ff', 'bad%ffvalue'],
  [`over ${MAX_PARAM_LENGTH} characters`, 'p'.repeat(MAX_PARAM_LENGTH + 1)],
];

describe('path parameters the router refuses', () => {
  const t = useTestApp();
  let siteKey: string;
  beforeAll(async () => {
    siteKey = (await addSite(t, asKey(t.owner.apiKey), 'bad-url.example')).site_id;
  });

  const withParams = () => t.app.registeredRoutes.filter((route) => route.url.includes('/:'));

  it('finds the routes to walk', () => {
    const areas = new Set(withParams().map((route) => route.area));
    expect(withParams().length).toBeGreaterThan(10);
    expect([...areas].sort()).toEqual(['account', 'goals', 'ingest', 'sites', 'webhooks']);
  });

  it.each(BAD_VALUES)('answers %s in each route’s area, naming the parameter', async (_label, bad) => {
    const failures: string[] = [];
    for (const route of withParams()) {
      const params = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
      for (const param of params) {
        const path = route.url.replace(/:(\w+)/g, (_, name: string) => (name === param ? bad : siteKey));
        const response = await t.request({
          method: route.method as 'GET',
          url: `${path}?site_id=${siteKey}&probe=query-echo-check`,
          headers: bearer(t.owner.apiKey),
        });
        const label = `${route.method} ${route.url} (${param})`;
        const body = response.body;
        if (response.statusCode !== 422)
          failures.push(`${label}: ${response.statusCode} ${body.slice(0, 120)}`);
        else if (/FST_|query-echo-check|bad%ff|ppppp/i.test(body)) failures.push(`${label} echoes: ${body}`);
        else if (!/^application\/json/.test(String(response.headers['content-type'])))
          failures.push(`${label}: ${response.headers['content-type']}`);
        else {
          const expected = { error: 'validation_failed', message: expect.any(String), field: param };
          if (!expect.objectContaining(expected).asymmetricMatch(response.json()) || body.length > 200)
            failures.push(`${label}: ${body}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers goals’ 422 exactly as §7.1 shapes it', async () => {
    const response = await t.request({
      method: 'DELETE',
      url: `/v1/goals/%ff?site_id=${siteKey}`,
      headers: bearer(t.owner.apiKey),
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ error: 'validation_failed', message: expect.any(String), field: 'id' });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers a bad parameter on a path no route has with the ordinary 404', async () => {
    const response = await t.request({ method: 'GET', url: '/v1/nothing/%ff?secret=query-echo-check' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'not_found', message: 'No such route' });
  });
});
