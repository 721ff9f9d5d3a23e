/** The dashboard session cookie: HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https. */
import type { FastifyReply } from 'fastify';
import { SESSION_COOKIE } from '../http/authenticate.js';
import { SESSION_MAX_MS } from './sessions.service.js';

const cookieOptions = (secure: boolean) => ({ httpOnly: true, sameSite: 'lax', secure, path: '/' }) as const;

/** Every sign-in path (password, second factor, invitation, OpenID Connect) ends here. */
export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(secure), maxAge: SESSION_MAX_MS / 1000 });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(secure));
}
