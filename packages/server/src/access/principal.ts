/**
 * Who is asking. Routes resolve a principal from the request (http/authenticate.ts); services
 * take it to apply the interface's authorisation rules without knowing about HTTP.
 */
import type { Role } from '../db/types.js';
import { AppError, insufficientScope } from '../http/errors.js';

export const SCOPES = ['stats:read', 'config:write', 'credentials:write', 'ingest:write'] as const;
export type Scope = (typeof SCOPES)[number];

export interface KeyPrincipal {
  kind: 'key';
  accountId: string;
  keyId: string;
  /** The person who created the key; null once that person was removed. */
  createdBy: string | null;
  scopes: readonly Scope[];
  /** Internal UUID of the one site the key is restricted to, or null for every site. */
  siteId: string | null;
  /**
   * Set when the caller is a shared link's viewer (shared-links/): `stats:read` on one site,
   * accepted only by the routes that list `share`, and only for traffic figures.
   */
  sharedLinkId?: string;
}

export interface SessionPrincipal {
  kind: 'session';
  accountId: string;
  userId: string;
  role: Role;
}

export type Principal = KeyPrincipal | SessionPrincipal;

/** A dashboard session holds every scope; admin-only rules are checked separately. */
export function scopesOf(principal: Principal): readonly Scope[] {
  return principal.kind === 'session' ? SCOPES : principal.scopes;
}

export function requireScope(principal: Principal, scope: Scope): void {
  if (!scopesOf(principal).includes(scope)) throw insufficientScope(scope);
}

/** True when the principal can see this site (the key's coverage; a session sees its account). */
export function coversSite(principal: Principal, site: { id: string; account_id: string }): boolean {
  if (site.account_id !== principal.accountId) return false;
  return principal.kind === 'session' || principal.siteId === null || principal.siteId === site.id;
}

/** The person behind a principal: the session's user, or the key's creator. */
export function personOf(principal: Principal): string | null {
  return principal.kind === 'session' ? principal.userId : principal.createdBy;
}

export const notAdmin = () =>
  new AppError(
    403,
    'forbidden',
    'This needs an account-wide admin (for a key: its creator must still be one)',
  );
