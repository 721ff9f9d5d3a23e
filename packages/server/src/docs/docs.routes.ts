/**
 * `GET /docs`: the API reference, rendered in the browser by Scalar from `/v1/openapi.json`.
 * Scalar's self-contained bundle is served from here (no CDN), read and compressed once on the
 * first request. Everything that would reach the internet is off — Scalar's web fonts,
 * telemetry, its request proxy and hosted services — and the page's Content-Security-Policy
 * allows this server alone, so a future Scalar default cannot quietly call out either.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The UMD build with every chunk inlined; the package's exports do not name it, so find it beside the entry. */
const SCALAR_BUNDLE = new URL('./browser/standalone.js', import.meta.resolve('@scalar/api-reference'));

export const DOCS_PATH = '/docs';
const ASSET_PREFIX = '/docs/assets/';
const IMMUTABLE = 'public, max-age=31536000, immutable';

const SCALAR_CONFIGURATION = {
  url: '/v1/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: true,
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  agent: { disabled: true },
  mcp: { disabled: true },
};

const INIT_SCRIPT = `Scalar.createApiReference('#reference', ${JSON.stringify(SCALAR_CONFIGURATION)});`;
const INIT_HASH = createHash('sha256').update(INIT_SCRIPT).digest('base64');

/** Scalar styles itself with inline `<style>` and `style` attributes, hence `'unsafe-inline'` for styles only. */
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
  const body = await readFile(SCALAR_BUNDLE);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const [br, gzipped] = await Promise.all([
    // Quality 5 compresses the ~5 MB in about a second, within 5% of quality 9 (three times slower).
    promisify(brotliCompress)(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }),
    promisify(gzip)(body, { level: 9 }),
  ]);
  return { url: `${ASSET_PREFIX}scalar-${hash}.js`, body, br, gzip: gzipped };
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
