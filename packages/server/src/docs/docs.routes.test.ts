/** `/docs`: the reference page and Redoc's bundle, their headers, caching and encodings, and roles. */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';
import { DOCS_CONTENT_SECURITY_POLICY } from './docs.routes.js';

const bundleUrlOf = (html: string) =>
  /<script src="(\/docs\/assets\/redoc-[0-9a-f]{12}\.js)">/.exec(html)?.[1];

describe('the API reference page', () => {
  const t = useTestApp({}, { owner: false });

  it('answers HTML that loads Redoc from this server and points it at the OpenAPI document', async () => {
    const response = await t.request({ method: 'GET', url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain("Redoc.init('/v1/openapi.json'");
    expect(response.body).not.toMatch(/https?:\/\//);
    expect(bundleUrlOf(response.body)).toBeDefined();
  });

  it('allows this server alone in its Content-Security-Policy, with the inline start script by hash', async () => {
    const response = await t.request({ method: 'GET', url: '/docs' });
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toBe(DOCS_CONTENT_SECURITY_POLICY);
    expect(policy).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(policy).toContain("connect-src 'self'");
    expect(policy).not.toMatch(/https?:|\*(?!\/)/);
    expect(policy).not.toContain("script-src 'self' 'unsafe-inline'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the bundle for a year, immutable, in brotli or gzip when the browser takes them', async () => {
    const url = bundleUrlOf((await t.request({ method: 'GET', url: '/docs' })).body) ?? '';
    const plain = await t.request({ method: 'GET', url });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.includes('exports.Redoc=')).toBe(true);
    const br = await t.request({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await t.request({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(gzip.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
  });

  it('answers 404 for any other asset name', async () => {
    const response = await t.request({ method: 'GET', url: '/docs/assets/redoc-000000000000.js' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'not_found' });
  });
});

describe('the API reference on an ingest process', () => {
  const t = useTestApp({}, { owner: false, role: 'ingest' });

  it('is not served: the reference belongs to the api role', async () => {
    expect((await t.request({ method: 'GET', url: '/docs' })).statusCode).toBe(404);
  });
});

describe('the API reference on an api process', () => {
  const t = useTestApp({}, { owner: false, role: 'api' });

  it('is served', async () => {
    expect((await t.request({ method: 'GET', url: '/docs' })).statusCode).toBe(200);
  });
});
