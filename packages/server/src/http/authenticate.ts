/**
 * Resolves the caller of every route that declares `config.auth`: an API key in
 * `Authorization: Bearer` (or a shared link's access token, on the routes that accept `share`),
 * or the dashboard session cookie. The Authorization header wins when
 * both are present. Anything missing, malformed, unknown, revoked or expired is 401; a valid
 * credential of a kind the route does not accept is 401 too (§5.7: a key on the conversion
 * listing). Scope is checked here; site coverage and admin rules in the services.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Principal, requireScope, type Scope } from '../access/principal.js';
import type { KeysService } from '../keys/keys.service.js';
import { SHARE_ACCESS_PREFIX, type SharedLinksService } from '../shared-links/shared-links.service.js';
import type { SessionsService } from '../sign-in/sessions.service.js';
import { AppError, unauthorized } from './errors.js';

export const SESSION_COOKIE = 'tt_session';

export type CredentialKind = 'key' | 'session' | 'share';

export interface RouteAuth {
  accepts: readonly CredentialKind[];
  /** The permission a key needs; sessions hold every permission. */
  scope?: Scope;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The authenticated principal of a route that declared `config.auth` (never null there). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match?.[1]) throw unauthorized('Malformed Authorization header; expected "Bearer <key>"');
  return match[1];
}

export function installAuthentication(
  app: FastifyInstance,
  deps: { keys: KeysService; sessions: SessionsService; sharedLinks: SharedLinksService },
): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    const auth = request.routeOptions.config.auth;
    if (!auth) return;
    const principal = await resolve(request, auth, deps).catch((error: unknown) => {
      if (error instanceof AppError) throw error;
      // The credential could not be checked (the database is down): a retry may succeed.
      throw new AppError(503, 'unavailable', 'Could not check the credentials; retry', {}, error);
    });
    if (!principal) throw unauthorized();
    if (auth.scope && principal.kind === 'key') requireScope(principal, auth.scope);
    request.principal = principal;
  });
}

async function resolve(
  request: FastifyRequest,
  auth: RouteAuth,
  deps: { keys: KeysService; sessions: SessionsService; sharedLinks: SharedLinksService },
): Promise<Principal | null> {
  const token = bearerToken(request);
  if (token?.startsWith(SHARE_ACCESS_PREFIX)) {
    return auth.accepts.includes('share') ? deps.sharedLinks.authenticate(token) : null;
  }
  if (token !== undefined) {
    if (!auth.accepts.includes('key')) return null;
    return deps.keys.authenticate(token);
  }
  const cookie = request.cookies[SESSION_COOKIE];
  if (cookie && auth.accepts.includes('session')) return deps.sessions.authenticate(cookie);
  return null;
}
