/**
 * The dashboard session cookie: HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https or the
 * request came over HTTPS (a trusted proxy's `X-Forwarded-Proto` counts only with TRUST_PROXY).
 */
import type { FastifyReply } from 'fastify';
import { SESSION_COOKIE } from '../http/authenticate.js';
import { PENDING_SIGN_IN_MS, SESSION_MAX_MS } from './sessions.service.js';

/** A password accepted, the second factor still to come (sessions.service.ts). */
export const PENDING_SIGN_IN_COOKIE = 'tt_signin';
// Sent only to the sign-in routes, and never from another site's page.
const PENDING_SIGN_IN_PATH = '/v1/auth/login';

/**
 * `request.protocol` honours `X-Forwarded-Proto` only from a proxy TRUST_PROXY trusts, so a
 * client cannot talk its way out of Secure, and a TLS-terminating proxy gets it without PUBLIC_URL.
 */
export function isSecureCookie(reply: FastifyReply, isPublicUrlHttps: boolean): boolean {
  return isPublicUrlHttps || reply.request.protocol === 'https';
}

const cookieOptions = (secure: boolean) => ({ httpOnly: true, sameSite: 'lax', secure, path: '/' }) as const;
const pendingCookieOptions = (secure: boolean) =>
  ({ httpOnly: true, sameSite: 'strict', secure, path: PENDING_SIGN_IN_PATH }) as const;

/** Every sign-in path (password, second factor, invitation, OpenID Connect) ends here. */
export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, {
    ...cookieOptions(isSecureCookie(reply, secure)),
    maxAge: SESSION_MAX_MS / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(isSecureCookie(reply, secure)));
}

export function setPendingSignInCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(PENDING_SIGN_IN_COOKIE, token, {
    ...pendingCookieOptions(isSecureCookie(reply, secure)),
    maxAge: PENDING_SIGN_IN_MS / 1000,
  });
}

export function clearPendingSignInCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(PENDING_SIGN_IN_COOKIE, pendingCookieOptions(isSecureCookie(reply, secure)));
}
