/**
 * Scheduled deletion and restore (interface §3.1). Deleting sets a 30-day window; deleting
 * again reports the same deadline. Restore works inside the window only: once the deadline
 * passed, or erasure began, it answers deletion_in_progress, even after the site row is gone.
 */
import type { Kysely } from 'kysely';
import { requireAdmin } from '../access/admin.js';
import type { Principal } from '../access/principal.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import { isUniqueViolation } from '../db/errors.js';
import type { DB } from '../db/types.js';
import { AppError, notFound } from '../http/errors.js';
import { type Clock, DAY_MS } from '../lib/clock.js';
import { confirmsDomain } from './domains.js';
import { findCoveredSite, parseSiteRef, requireSite } from './site-access.js';
import { findErasure } from './site-erasure.store.js';
import {
  assertRoomForActiveSite,
  DELETION_WINDOW_DAYS,
  domainTaken,
  refuseIfAccountPendingDeletion,
} from './site-rules.js';
import { clearDeletion, lockAccountSites, lockSite, scheduleDeletion } from './sites.store.js';

export interface SiteDeletionDeps {
  db: Kysely<DB>;
  clock: Clock;
  accounts: Pick<AccountsService, 'getAccount'>;
}

const deletionInProgress = () =>
  new AppError(409, 'deletion_in_progress', 'Erasure of this site has begun; it can no longer be restored');

export function createSiteDeletion({ db, clock, accounts }: SiteDeletionDeps) {
  return {
    async scheduleDeletion(principal: Principal, ref: string, confirmDomain: string) {
      const site = await requireSite(db, principal, ref, { includeScheduled: true });
      await requireAdmin(db, principal);
      if (!confirmsDomain(site.domain, confirmDomain)) {
        throw new AppError(409, 'domain_mismatch', "confirm_domain does not match the site's domain", {
          field: 'confirm_domain',
        });
      }
      const now = clock.now();
      const effectiveAt = new Date(now.getTime() + DELETION_WINDOW_DAYS * DAY_MS);
      // Under the row lock, so a concurrent restore or delete cannot slip between the two steps.
      const row = await db.transaction().execute(async (trx) => {
        const current = await lockSite(trx, site.id);
        // Already scheduled (here or by a concurrent request): report the deadline that stands.
        if (!current || current.deleted_at !== null) return current;
        return scheduleDeletion(trx, site.id, now, effectiveAt);
      });
      if (!row?.deleted_at || !row.deletion_effective_at) throw notFound('Site');
      return {
        status: 'deletion_scheduled' as const,
        site_id: row.snippet_key,
        domain: row.domain,
        requested_at: row.deleted_at.toISOString(),
        effective_at: row.deletion_effective_at.toISOString(),
        window_days: DELETION_WINDOW_DAYS,
      };
    },

    async restore(principal: Principal, ref: string) {
      const site = await findCoveredSite(db, principal, ref);
      if (!site) {
        // The row may be gone because erasure finished; the account may still learn that.
        const lookup = parseSiteRef(principal, ref);
        const erased = lookup ? await findErasure(db, lookup) : undefined;
        const isOwnAccount = erased?.account_id === principal.accountId;
        if (!erased || !isOwnAccount || (principal.kind === 'key' && principal.siteId !== null)) {
          throw notFound('Site');
        }
        await requireAdmin(db, principal);
        throw deletionInProgress();
      }
      await requireAdmin(db, principal);
      const active = { status: 'active' as const, site_id: site.snippet_key, domain: site.domain };
      if (site.deleted_at === null) return active;
      const account = await accounts.getAccount(principal.accountId);
      try {
        await db.transaction().execute(async (trx) => {
          await lockAccountSites(trx, account.id);
          const current = await lockSite(trx, site.id);
          if (!current) throw deletionInProgress();
          if (current.deleted_at === null) return;
          const isPastWindow = (current.deletion_effective_at?.getTime() ?? 0) <= clock.now().getTime();
          if (current.erasure_started_at !== null || isPastWindow) throw deletionInProgress();
          refuseIfAccountPendingDeletion(account);
          await assertRoomForActiveSite(trx, account, current.domain, 409);
          await clearDeletion(trx, current.id);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw domainTaken();
        throw error;
      }
      return active;
    },
  };
}
