/**
 * Serves the dashboard's built files (packages/dashboard/dist, DESIGN.md §9) from memory: hashed
 * assets with a year-long immutable cache, in brotli or gzip when the browser takes it, and
 * `index.html` without caching for the paths the dashboard's router owns (DASHBOARD_PAGES).
 * Routes are named one by one, so `/v1/…` keeps its own 404s and refusals of bad path
 * parameters; any other browser navigation (a GET that accepts HTML, outside the API, tracker,
 * docs and MCP paths) gets the app with status 404, which shows its own "page not found".
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { NotFoundPage } from '../http/error-handler.js';

export const DASHBOARD_DIR = fileURLToPath(new URL('../../../dashboard/dist/', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

interface BuiltFile {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  contentType: string;
  cacheControl: string;
}

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(full, base)));
    else files.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return files;
}

/** Every built file by URL path; empty when the dashboard was not built. */
export async function loadDashboardFiles(dir = DASHBOARD_DIR): Promise<Map<string, BuiltFile>> {
  const files = new Map<string, BuiltFile>();
  if (!existsSync(path.join(dir, 'index.html'))) return files;
  const names = (await listFiles(dir)).filter((name) => !name.startsWith('.vite/'));
  const present = new Set(names);
  for (const name of names) {
    if (name.endsWith('.br') || name.endsWith('.gz')) continue;
    const read = (file: string) => (present.has(file) ? readFile(path.join(dir, file)) : undefined);
    files.set(`/${name}`, {
      body: await readFile(path.join(dir, name)),
      br: await read(`${name}.br`),
      gzip: await read(`${name}.gz`),
      contentType: CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream',
      // Hashed names change with their content; other files may change under the same name.
      cacheControl: name.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  }
  return files;
}

const NOT_BUILT_PAGE =
  '<!doctype html><meta charset="utf-8"><title>Touchtrail</title>' +
  '<p>The dashboard is not built yet. Run <code>npm run build</code> (or start the server with <code>npm start</code>, which builds it), then reload.</p>';

function send(request: FastifyRequest, reply: FastifyReply, file: BuiltFile) {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  reply.header('content-type', file.contentType).header('cache-control', file.cacheControl);
  if (file.br || file.gzip) reply.header('vary', 'accept-encoding');
  if (file.br && /\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(file.br);
  if (file.gzip && /\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(file.gzip);
  return reply.send(file.body);
}

/** The dashboard's own pages, kept in step with packages/dashboard/src/app.tsx. */
export const DASHBOARD_PAGES = [
  '/',
  '/login',
  '/setup',
  '/accept-invitation',
  '/reset-password',
  '/sites',
  '/sites/*',
  '/account',
  '/account/*',
  '/share',
];
/** The shared view may be embedded in an iframe on any site; every other page refuses framing. */
const EMBEDDABLE_PAGES = new Set(['/share']);
const FILE_ROUTES = ['/assets/*', '/favicon.svg'];
/** Paths that are never the app's, even when a browser asks for them. */
const NOT_APP_PATHS = /^\/(v1|docs|mcp|healthz|readyz|metrics|assets)(\/|$)|\.js$/;

/** A browser opening an address, as opposed to a script or API client asking for a resource. */
function isPageNavigation(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0] ?? '';
  return /\btext\/html\b/.test(String(request.headers.accept ?? '')) && !NOT_APP_PATHS.test(path);
}

/** Lifts the framing refusal helmet set (its `frame-ancestors 'self'` and `X-Frame-Options`). */
function allowFraming(reply: FastifyReply) {
  const policy = reply.raw.getHeader('content-security-policy');
  if (typeof policy === 'string') {
    reply.raw.setHeader(
      'content-security-policy',
      policy.replace(/frame-ancestors [^;]*/, 'frame-ancestors *'),
    );
  }
  reply.raw.removeHeader('x-frame-options');
}

export function registerDashboardRoutes(app: FastifyInstance, deps: { dir?: string } = {}): NotFoundPage {
  let loaded: Promise<Map<string, BuiltFile>> | undefined;
  const files = () => {
    loaded ??= loadDashboardFiles(deps.dir).then((found) => {
      // Not built yet: look again on the next request, so a build while running is picked up.
      if (found.size === 0) loaded = undefined;
      return found;
    });
    return loaded;
  };
  const options = { config: { area: 'account' as const, limits: false as const }, schema: { hide: true } };
  for (const url of FILE_ROUTES) {
    app.get(url, options, async (request, reply) => {
      const file = (await files()).get(request.url.split('?')[0] ?? '');
      return file ? send(request, reply, file) : reply.callNotFound();
    });
  }
  for (const url of DASHBOARD_PAGES) {
    app.get(url, options, async (request, reply) => {
      const index = (await files()).get('/index.html');
      if (!index)
        return reply.code(503).header('content-type', 'text/html; charset=utf-8').send(NOT_BUILT_PAGE);
      if (EMBEDDABLE_PAGES.has(url)) allowFraming(reply);
      return send(request, reply, index);
    });
  }
  /** What the app's not-found handler serves a browser: the app, which says "page not found". */
  const pageNotFound: NotFoundPage = async (request, reply) => {
    if (request.method !== 'GET' || !isPageNavigation(request)) return false;
    const index = (await files()).get('/index.html');
    if (!index) return false;
    send(request, reply.code(404), index);
    return true;
  };
  return pageNotFound;
}
