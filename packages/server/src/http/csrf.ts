/**
 * CSRF protection (DESIGN §8): a write that the session cookie may authenticate is accepted only
 * from this server's own origin — `Origin`, else `Referer`, must be the origin of the request's
 * own host (scheme and host as Fastify sees them, so behind a trusted proxy its X-Forwarded-*)
 * or `PUBLIC_URL`'s. Neither header, `Origin: null` or anything unparsable is refused with 403.
 *
 * Which requests count: every unsafe request (not GET, HEAD or OPTIONS) that carries the session
 * cookie and no `Authorization` header, whatever the route — so logout, the second factor, the
 * password change, ending sessions and any route added later are covered without opting in.
 * Sign-in too: a login with a stale cookie from another origin is refused; the dashboard signs in
 * from its own origin. A request with `Authorization` is a key request and is let through even
 * when a cookie rides along: a page on another origin can send that header only after a CORS
 * preflight this server never grants. The ingest routes are left out: browsers on customers'
 * sites call them, sometimes with the cookie along, and they never read it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { SESSION_COOKIE } from './authenticate.js';
import { areaOf } from './error-handler.js';
import { AppError } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const crossOriginRequest = () =>
  new AppError(
    403,
    'cross_origin_request',
    "Requests signed in with the session cookie must come from this server's own origin (Origin or Referer header)",
  );

/** True for a request the session cookie may authenticate and whose sender must be checked. */
function isCookieWrite(request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  if (request.headers.authorization !== undefined) return false;
  if (!request.cookies[SESSION_COOKIE]) return false;
  return areaOf(request) !== 'ingest';
}

/** `scheme://host[:port]` with default ports dropped, or undefined when it is not a web origin. */
function originOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  const { protocol, origin } = new URL(url);
  return protocol === 'http:' || protocol === 'https:' ? origin : undefined;
}

/** The origin the browser sent: `Origin`, else `Referer`'s; undefined when neither names one. */
function senderOrigin(request: FastifyRequest): string | undefined {
  const { origin, referer } = request.headers;
  // `Origin: null` (sandboxed frames, some redirects) names no origin and is not replaced by Referer.
  if (origin !== undefined) return typeof origin === 'string' ? originOf(origin) : undefined;
  return typeof referer === 'string' ? originOf(referer) : undefined;
}

export function installCsrfProtection(app: FastifyInstance, config: Pick<Config, 'publicUrl'>): void {
  const publicOrigin = originOf(config.publicUrl);
  app.addHook('onRequest', async (request) => {
    if (!isCookieWrite(request)) return;
    const sender = senderOrigin(request);
    const ownOrigin = originOf(`${request.protocol}://${request.host}`);
    const isOwn = sender !== undefined && (sender === ownOrigin || sender === publicOrigin);
    if (!isOwn) throw crossOriginRequest();
  });
}
