/**
 * Bot tokens (`tt_bot_` + 32 random bytes) authenticate crawler-hit reports and nothing else.
 * A verified token is remembered for at most 60 seconds, so a revocation takes effect at the
 * edge within a minute without a database read on every report.
 */
import type { Kysely } from 'kysely';
import { requireAdmin } from '../access/admin.js';
import { notAdmin, type Principal, requireScope } from '../access/principal.js';
import type { DB } from '../db/types.js';
import { AppError, notFound } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import { newId, randomToken } from '../lib/ids.js';
import { sha256Hex } from '../lib/secrets.js';
import type { SitesService } from '../sites/sites.service.js';
import * as store from './bot-tokens.store.js';

export const BOT_TOKEN_PREFIX = 'tt_bot_';
const BOT_TOKEN_PATTERN = /^tt_bot_[A-Za-z0-9_-]{43}$/;
export const BOT_TOKEN_CACHE_MS = 60_000;
export const ACTIVE_PER_SITE = 5;
export const ACTIVE_PER_ACCOUNT = 30;

export interface BotIdentity {
  tokenId: string;
  accountId: string;
  siteId: string;
}

type TokenRow = Awaited<ReturnType<typeof store.listBotTokens>>[number];

const present = (row: TokenRow) => ({
  id: row.id,
  name: row.name,
  prefix: row.display_prefix,
  snippet_key: row.snippet_key,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
  revoked_at: row.revoked_at?.toISOString() ?? null,
});

export function createBotTokensService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  sites: Pick<SitesService, 'getReachableSite' | 'resolveSite'>;
}) {
  const { db, clock, sites } = deps;
  const cache = new Map<string, { identity: BotIdentity | null; expiresAt: number }>();

  /** Sessions must be admins to see tokens; keys need only their scope (checked by the route). */
  const requireSessionAdmin = async (principal: Principal) => {
    if (principal.kind === 'session' && principal.role !== 'admin') throw notAdmin();
  };

  return {
    async list(principal: Principal, siteRef: string | undefined) {
      await requireSessionAdmin(principal);
      let siteId: string | null = principal.kind === 'key' ? principal.siteId : null;
      if (siteRef) {
        // A read of existing data: a site scheduled for deletion still lists its tokens (§3.1).
        const site = await sites
          .resolveSite(principal, siteRef, { includeScheduled: true })
          .catch((error: unknown) => {
            if (error instanceof AppError && error.status === 404) return null;
            throw error;
          });
        if (!site) return [];
        siteId = site.id;
      }
      return (await store.listBotTokens(db, principal.accountId, siteId)).map(present);
    },

    async create(principal: Principal, input: { site_id: string; name?: string }) {
      requireScope(principal, 'ingest:write');
      await requireAdmin(db, principal);
      const site = await sites.getReachableSite(principal, input.site_id);
      const token = BOT_TOKEN_PREFIX + randomToken(32);
      const id = newId();
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await store.lockAccount(trx, principal.accountId);
        const active = await store.countActive(trx, principal.accountId, site.id);
        if (active.site >= ACTIVE_PER_SITE || active.account >= ACTIVE_PER_ACCOUNT) {
          const perSite = active.site >= ACTIVE_PER_SITE;
          throw new AppError(
            409,
            'bot_token_limit_reached',
            perSite
              ? `A site holds at most ${ACTIVE_PER_SITE} active bot tokens; revoke one first`
              : `An account holds at most ${ACTIVE_PER_ACCOUNT} active bot tokens; revoke one first`,
            {
              extra: {
                limit: perSite ? ACTIVE_PER_SITE : ACTIVE_PER_ACCOUNT,
                per: perSite ? 'site' : 'account',
              },
            },
          );
        }
        await store.insertBotToken(trx, {
          id,
          account_id: principal.accountId,
          site_id: site.id,
          created_by: principal.kind === 'session' ? principal.userId : principal.createdBy,
          name: input.name?.trim() || 'Crawler reporting',
          display_prefix: token.slice(0, 14),
          token_hash: sha256Hex(token),
          created_at: now,
        });
      });
      return {
        id,
        snippet_key: site.snippet_key,
        name: input.name?.trim() || 'Crawler reporting',
        plaintext_token: token,
        created_at: now.toISOString(),
      };
    },

    async revoke(principal: Principal, id: string) {
      await requireAdmin(db, principal);
      const row = await store.getBotToken(db, principal.accountId, id);
      const outOfReach =
        principal.kind === 'key' && principal.siteId !== null && row?.site_id !== principal.siteId;
      if (!row || outOfReach) throw notFound('Bot token');
      await store.revokeBotToken(db, id, clock.now());
      const after = await store.getBotToken(db, principal.accountId, id);
      return { id, revoked_at: after?.revoked_at?.toISOString() ?? clock.now().toISOString() };
    },

    /** The site a presented bot token reports for, or null; cached up to 60 seconds. */
    async verify(token: string): Promise<BotIdentity | null> {
      if (!BOT_TOKEN_PATTERN.test(token)) return null;
      const tokenHash = sha256Hex(token);
      const now = clock.now().getTime();
      const cached = cache.get(tokenHash);
      if (cached && cached.expiresAt > now) return cached.identity;
      const row = await store.findBotTokenByHash(db, tokenHash);
      const identity =
        row && !row.revoked_at ? { tokenId: row.id, accountId: row.account_id, siteId: row.site_id } : null;
      if (cache.size > 10_000) cache.clear();
      cache.set(tokenHash, { identity, expiresAt: now + BOT_TOKEN_CACHE_MS });
      if (row && identity && (!row.last_used_at || now - row.last_used_at.getTime() > BOT_TOKEN_CACHE_MS)) {
        await store.touchBotToken(db, row.id, clock.now());
      }
      return identity;
    },
  };
}

export type BotTokensService = ReturnType<typeof createBotTokensService>;
