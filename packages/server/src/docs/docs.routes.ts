/**
 * `GET /docs`: the API reference, rendered in the browser by Redoc from `/v1/openapi.json`.
 * Redoc's self-contained bundle is served from here (no CDN), read and compressed once on the
 * first request; the page's Content-Security-Policy allows this server alone, so nothing on it
 * can call out to another host.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The browser build with React and every dependency inlined, beside the package's manifest. */
const REDOC_BUNDLE = path.join(
  path.dirname(createRequire(import.meta.url).resolve('redoc/package.json')),
  'bundles/redoc.standalone.js',
);

export const DOCS_PATH = '/docs';
const ASSET_PREFIX = '/docs/assets/';
const IMMUTABLE = 'public, max-age=31536000, immutable';

const REDOC_OPTIONS = {
  expandResponses: '200,201,202',
  jsonSampleExpandLevel: 3,
  sortTagsAlphabetically: true,
  hideHostname: false,
};

const INIT_SCRIPT = `Redoc.init('/v1/openapi.json', ${JSON.stringify(REDOC_OPTIONS)}, document.getElementById('reference'));`;
const INIT_HASH = createHash('sha256').update(INIT_SCRIPT).digest('base64');

/**
 * Redoc styles itself with inline `<style>` elements (styled-components), hence `'unsafe-inline'`
 * for styles only; its search index runs in a worker made from a blob.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' 'sha256-${INIT_HASH}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

interface Bundle {
  url: string;
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
}

async function loadBundle(): Promise<Bundle> {
  const body = await readFile(REDOC_BUNDLE);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const [br, gzipped] = await Promise.all([
    // Quality 5 compresses the 1 MB in a fraction of a second, within a few percent of quality 9.
    promisify(brotliCompress)(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }),
    promisify(gzip)(body, { level: 9 }),
  ]);
  return { url: `${ASSET_PREFIX}redoc-${hash}.js`, body, br, gzip: gzipped };
}

const page = (scriptUrl: string) =>
  '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">' +
  // An empty icon, so the browser does not ask for /favicon.ico.
  '<link rel="icon" href="data:,"><title>Touchtrail API reference</title></head>' +
  `<body><div id="reference"></div><script src="${scriptUrl}"></script><script>${INIT_SCRIPT}</script></body></html>`;

function sendBundle(request: FastifyRequest, reply: FastifyReply, bundle: Bundle) {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', IMMUTABLE);
  reply.header('vary', 'accept-encoding');
  if (/\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(bundle.br);
  if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(bundle.gzip);
  return reply.send(bundle.body);
}

export function registerDocsRoutes(app: FastifyInstance) {
  let loaded: Promise<Bundle> | undefined;
  const bundle = () => {
    loaded ??= loadBundle().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
  const options = { config: { area: 'account' as const, limits: false as const }, schema: { hide: true } };

  app.get(DOCS_PATH, options, async (_request, reply) => {
    const { url } = await bundle();
    // Replaces the policy helmet set for every page.
    reply.raw.setHeader('content-security-policy', DOCS_CONTENT_SECURITY_POLICY);
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(page(url));
  });

  app.get(`${ASSET_PREFIX}:file`, options, async (request, reply) => {
    const found = await bundle();
    return request.url.split('?')[0] === found.url ? sendBundle(request, reply, found) : reply.callNotFound();
  });
}
