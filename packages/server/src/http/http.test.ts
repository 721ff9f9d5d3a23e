import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { bearer, useTestApp } from '../test/app.js';
import { OPENAPI_FILE } from './openapi-document.js';

describe('HTTP conventions', () => {
  const t = useTestApp();

  it('puts a request id and security headers on every response', async () => {
    const response = await t.request({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBeDefined();
    expect(response.headers['strict-transport-security']).toBeDefined();

    const passed = await t.request({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(passed.headers['x-request-id']).toBe('abc-123');
    const hostile = await t.request({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': '<script>' },
    });
    expect(hostile.headers['x-request-id']).not.toBe('<script>');
  });

  it('answers unknown routes with a 404 body and never a stack trace', async () => {
    const response = await t.request({ method: 'GET', url: '/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'not_found' });
  });

  it('answers an unsupported content type with 415', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<login/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ error: 'unsupported_media_type' });
  });

  it('takes an empty JSON body as no body on a route that takes none, and refuses it elsewhere', async () => {
    const json = { ...bearer(t.owner.apiKey), 'content-type': 'application/json' };
    const created = await t.request({
      method: 'POST',
      url: '/v1/sites',
      headers: json,
      payload: { domain: 'empty-body.example.com' },
    });
    expect(created.statusCode).toBe(201);
    const restore = await t.request({
      method: 'POST',
      url: `/v1/sites/${created.json().site_id}/restore`,
      headers: json,
      payload: '',
    });
    expect(restore.statusCode).toBe(200);
    expect(restore.json()).toMatchObject({ status: 'active' });

    const empty = await t.request({ method: 'POST', url: '/v1/sites', headers: json, payload: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ message: 'Body is empty' });
    const poisoned = await t.request({
      method: 'POST',
      url: '/v1/sites',
      headers: json,
      payload: '{"domain":"proto.example.com","__proto__":{"admin":true}}',
    });
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json()).toMatchObject({ message: 'Body is not valid JSON' });
  });

  it('answers text the database cannot store (a NUL character) with 422, not 500', async () => {
    const site = await t.request({
      method: 'POST',
      url: '/v1/sites',
      headers: bearer(t.owner.apiKey),
      payload: { name: 'Sh\u0000op', domain: 'nul.example.com' },
    });
    expect(site.statusCode).toBe(422);
    expect(JSON.stringify(site.json())).not.toMatch(/invalid byte|0x00|sql/i);
    const listed = await t.request({ method: 'GET', url: '/v1/sites', headers: bearer(t.owner.apiKey) });
    expect(JSON.stringify(listed.json())).not.toContain('nul.example.com');
  });

  it('reports readiness from the database', async () => {
    expect((await t.request({ method: 'GET', url: '/readyz' })).json()).toEqual({ status: 'ok' });
  });

  it('keeps keys, cookies and emails out of the logs', async () => {
    await t.request({ method: 'GET', url: '/v1/account/keys', headers: bearer(t.owner.apiKey) });
    await t.request({ method: 'GET', url: '/v1/auth/me', headers: { cookie: t.owner.cookie } });
    await t.request({ method: 'GET', url: '/v1/account/keys', headers: bearer(`tk_live_${'q'.repeat(40)}`) });
    const logs = t.logs();
    expect(logs).toContain('"statusCode":401');
    expect(logs).not.toContain(t.owner.apiKey);
    expect(logs).not.toContain('q'.repeat(40));
    expect(logs).not.toContain(t.owner.cookie.split('=')[1]);
    expect(logs).not.toContain('owner@example.com');
    expect(logs).not.toContain('127.0.0.1');
  });

  it('serves an OpenAPI 3.1 document listing every public route, equal to the committed file', async () => {
    const response = await t.request({ method: 'GET', url: '/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    for (const route of t.app.registeredRoutes) {
      const path = route.url.replace(/:([A-Za-z]+)/g, '{$1}');
      const documented = Boolean(document.paths[path]?.[route.method.toLowerCase()]);
      expect(documented, `${route.method} ${route.url}`).toBe(route.isDocumented);
    }
    const committed = JSON.parse(await readFile(OPENAPI_FILE, 'utf8'));
    expect(document, 'openapi.json is stale: run `npm run openapi`').toEqual(committed);
  });
});

describe('rate limits', () => {
  const t = useTestApp({}, { owner: false });

  it('answers 429 with Retry-After once the per-address login budget is spent', async () => {
    // A new email each time, so only the per-address budget (10) is spent, not the per-account one.
    let n = 0;
    const attempt = () =>
      t.request({
        method: 'POST',
        url: '/v1/auth/login',
        payload: { email: `a${n++}@example.com`, password: 'x' },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await attempt()).statusCode);
    expect(statuses.every((s) => s === 401)).toBe(true);
    const limited = await attempt();
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({ error: 'rate_limited' });
  });
});

describe('per-credential rate limits', () => {
  const t = useTestApp();

  it('counts each credential on its own', async () => {
    const other = await t.request({
      method: 'POST',
      url: '/v1/account/keys',
      headers: bearer(t.owner.apiKey),
      payload: { name: 'second', scopes: ['credentials:write'] },
    });
    const list = (key: string) => t.request({ method: 'GET', url: '/v1/account/keys', headers: bearer(key) });
    let last = 0;
    for (let i = 0; i < 61; i++) last = (await list(t.owner.apiKey)).statusCode;
    expect(last).toBe(429);
    expect((await list(other.json().api_key)).statusCode).toBe(200);
  });
});
