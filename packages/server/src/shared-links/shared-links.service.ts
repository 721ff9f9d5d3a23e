/**
 * Shared links (DESIGN.md §9): a public, read-only view of one site's traffic reports. A link is
 * a random token (`tts_…`) shown once, stored as its SHA-256, optionally with a password (scrypt).
 * Whoever opens the link trades it (with the password) for an access token (`ttsa_…`, 12 hours)
 * that the shared dashboard sends as a bearer token; it reads the stats query and realtime routes
 * only (they accept `share`), and only traffic figures (`refuseBeyondTraffic`). Revoking a link
 * drops its access tokens, so it stops working at once.
 */
import type { Kysely } from 'kysely';
import type { KeyPrincipal, Principal } from '../access/principal.js';
import type { DB } from '../db/types.js';
import { AppError, notFound } from '../http/errors.js';
import { type Clock, HOUR_MS } from '../lib/clock.js';
import { newId, randomToken } from '../lib/ids.js';
import { hashPassword, sha256Hex, verifyPassword } from '../lib/secrets.js';
import type { SitesService } from '../sites/sites.service.js';
import * as store from './shared-links.store.js';

export const SHARED_LINK_PREFIX = 'tts_';
export const SHARE_ACCESS_PREFIX = 'ttsa_';
const SHARED_LINK_PATTERN = /^tts_[A-Za-z0-9_-]{43}$/;
export const ACCESS_VALID_MS = 12 * HOUR_MS;
export const ACTIVE_LINKS_PER_SITE = 20;

const invalidLink = () =>
  new AppError(
    404,
    'invalid_link',
    'This shared link is not valid: it is unknown, revoked, or its site was deleted',
  );

export function createSharedLinksService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  publicUrl: string;
  sites: Pick<SitesService, 'resolveSite'>;
}) {
  const { db, clock, sites } = deps;
  const siteOf = (principal: Principal, siteRef: string) =>
    sites.resolveSite(principal, siteRef, { includeScheduled: false });

  return {
    async list(principal: Principal, siteRef: string) {
      const site = await siteOf(principal, siteRef);
      const rows = await store.listLinks(db, site.id);
      return rows.map((row) => ({
        id: row.id,
        label: row.label,
        prefix: row.display_prefix,
        has_password: row.password_hash !== null,
        created_at: row.created_at.toISOString(),
        revoked_at: row.revoked_at?.toISOString() ?? null,
      }));
    },

    async create(principal: Principal, siteRef: string, input: { label?: string; password?: string }) {
      const site = await siteOf(principal, siteRef);
      const active = (await store.listLinks(db, site.id)).filter((row) => row.revoked_at === null).length;
      if (active >= ACTIVE_LINKS_PER_SITE) {
        throw new AppError(
          409,
          'shared_link_limit_reached',
          `A site holds at most ${ACTIVE_LINKS_PER_SITE} shared links; revoke one first`,
        );
      }
      const token = SHARED_LINK_PREFIX + randomToken(32);
      const now = clock.now();
      const row = {
        id: newId(),
        site_id: site.id,
        account_id: site.account_id,
        label: input.label?.trim() || 'Shared link',
        token_hash: sha256Hex(token),
        display_prefix: token.slice(0, 10),
        password_hash: input.password ? await hashPassword(input.password) : null,
        created_by: principal.kind === 'session' ? principal.userId : principal.createdBy,
        created_at: now,
      };
      await store.insertLink(db, row);
      return {
        id: row.id,
        label: row.label,
        prefix: row.display_prefix,
        has_password: row.password_hash !== null,
        created_at: now.toISOString(),
        revoked_at: null,
        // The token rides in the fragment, which browsers never send: it stays out of server logs.
        url: `${deps.publicUrl}/share#${token}`,
      };
    },

    async revoke(principal: Principal, siteRef: string, id: string) {
      const site = await siteOf(principal, siteRef);
      if (!(await store.revokeLink(db, site.id, id, clock.now()))) throw notFound('Shared link');
    },

    /** Opens a link: its site's public facts and an access token, once the password (if any) matches. */
    async open(input: { token: string; password?: string }) {
      if (!SHARED_LINK_PATTERN.test(input.token)) throw invalidLink();
      const link = await store.findOpenLink(db, sha256Hex(input.token));
      if (!link) throw invalidLink();
      if (link.password_hash !== null) {
        if (input.password === undefined) {
          throw new AppError(401, 'password_required', 'This shared link is protected by a password', {
            field: 'password',
          });
        }
        if (!(await verifyPassword(input.password, link.password_hash))) {
          throw new AppError(401, 'invalid_password', 'Wrong password for this shared link', {
            field: 'password',
          });
        }
      }
      const now = clock.now();
      const accessToken = SHARE_ACCESS_PREFIX + randomToken(32);
      const expiresAt = new Date(now.getTime() + ACCESS_VALID_MS);
      await store.deleteExpiredAccess(db, now);
      await store.insertAccess(db, {
        token_hash: sha256Hex(accessToken),
        link_id: link.id,
        site_id: link.site_id,
        expires_at: expiresAt,
      });
      return {
        access_token: accessToken,
        expires_at: expiresAt.toISOString(),
        site: { id: link.snippet_key, name: link.name, domain: link.domain, currency: link.currency },
      };
    },

    /** The read-only principal of an access token, or null when it is unknown, expired or revoked. */
    async authenticate(token: string): Promise<KeyPrincipal | null> {
      const access = await store.findAccess(db, sha256Hex(token), clock.now());
      if (!access) return null;
      return {
        kind: 'key',
        accountId: access.account_id,
        keyId: `shared-link:${access.link_id}`,
        createdBy: null,
        scopes: ['stats:read'],
        siteId: access.site_id,
        sharedLinkId: access.link_id,
      };
    },
  };
}

export type SharedLinksService = ReturnType<typeof createSharedLinksService>;

/**
 * A shared link shows traffic and nothing else: visit metrics, broken down and filtered by visit
 * dimensions and pages, never goals, conversions, properties or money.
 */
export function refuseBeyondTraffic(
  principal: Principal,
  query: { metrics: readonly string[]; dimensions: readonly string[]; filterDimensions: readonly string[] },
  trafficMetrics: readonly string[],
) {
  if (principal.kind !== 'key' || !principal.sharedLinkId) return;
  const beyond =
    query.metrics.find((m) => !trafficMetrics.includes(m)) ??
    [...query.dimensions, ...query.filterDimensions].find(
      (d) => d === 'event:goal' || d.startsWith('event:props:'),
    );
  if (beyond !== undefined) {
    throw new AppError(403, 'forbidden', `A shared link shows traffic reports only, not ${beyond}`);
  }
}
