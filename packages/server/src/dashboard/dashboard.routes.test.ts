/** The server's side of the dashboard: built files, their caching and encodings, and client routes. */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, useTestApp } from '../test/app.js';

const INDEX =
  '<!doctype html><title>Touchtrail</title><script type="module" src="/assets/index-abc123.js"></script>';
const SCRIPT = 'console.log("dashboard");'.repeat(20);

const dir = await mkdtemp(path.join(tmpdir(), 'touchtrail-dashboard-'));
beforeAll(async () => {
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await writeFile(path.join(dir, 'index.html'), INDEX);
  await writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(dir, 'assets', 'index-abc123.js'), SCRIPT);
  await writeFile(path.join(dir, 'assets', 'index-abc123.js.gz'), gzipSync(SCRIPT));
});

describe('the dashboard files', () => {
  const t = useTestApp({}, { owner: false, dashboardDir: dir });

  it('answers index.html, never cached, for the dashboard router’s own paths', async () => {
    for (const url of [
      '/',
      '/sites',
      '/sites/3f0c/goals?range=7d',
      '/accept-invitation',
      '/login?next=%2Fsites',
    ]) {
      const response = await t.request({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toBe(INDEX);
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it('lets the shared view be framed by any site, and no other page', async () => {
    const shared = await t.request({ method: 'GET', url: '/share' });
    expect(shared.statusCode).toBe(200);
    expect(shared.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(shared.headers['x-frame-options']).toBeUndefined();
    const sites = await t.request({ method: 'GET', url: '/sites' });
    expect(sites.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(sites.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('serves hashed assets with a year-long immutable cache, compressed when the browser accepts it', async () => {
    const plain = await t.request({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    const gzipped = await t.request({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toContain('accept-encoding');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(SCRIPT);
    const icon = await t.request({ method: 'GET', url: '/favicon.svg' });
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('keeps API paths and missing files as JSON 404s', async () => {
    for (const url of ['/v1/nothing-here', '/assets/gone-123.js', '/robots.txt', '/v1', '/elsewhere']) {
      const response = await t.request({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'No such route' });
    }
  });

  it('gives a browser opening an unknown address the app, with status 404, and keeps JSON 404s for the API', async () => {
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    for (const url of ['/elsewhere', '/sites-old/x?y=1', '/settings']) {
      const response = await t.request({ method: 'GET', url, headers: html });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(response.body, url).toBe(INDEX);
    }
    for (const url of [
      '/v1/nothing-here',
      '/v1',
      '/docs/nothing',
      '/mcp/x',
      '/assets/gone-123.js',
      '/x.js',
    ]) {
      const response = await t.request({ method: 'GET', url, headers: html });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({ error: 'not_found', message: 'No such route' });
    }
    const post = await t.request({ method: 'POST', url: '/elsewhere', headers: html });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toEqual({ error: 'not_found', message: 'No such route' });
  });
});

describe('the dashboard in each role', () => {
  it('is served by the api role and not by the ingest role', async () => {
    for (const [role, status] of [
      ['api', 200],
      ['ingest', 404],
      ['worker', 404],
    ] as const) {
      const t = await createTestApp({}, { role, dashboardDir: dir });
      try {
        const response = await t.request({ method: 'GET', url: '/sites' });
        expect(response.statusCode, role).toBe(status);
        const unknown = await t.request({ method: 'GET', url: '/nowhere', headers: { accept: 'text/html' } });
        expect(unknown.headers['content-type'], role).toMatch(
          role === 'api' ? /^text\/html/ : /^application\/json/,
        );
      } finally {
        await t.close();
      }
    }
  });
});

describe('before the dashboard is built', () => {
  const t = useTestApp({}, { owner: false, dashboardDir: path.join(dir, 'not-built') });

  it('says how to build it', async () => {
    const response = await t.request({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npm run build');
  });
});
