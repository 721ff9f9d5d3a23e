/**
 * Rules shared by creating and restoring a site: both add an active site to an account, so both
 * respect the plan's cap (active sites only) and the one-active-site-per-domain rule, and both
 * are refused while the account itself is scheduled for deletion.
 */
import type { Transaction } from 'kysely';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { DB } from '../db/types.js';
import { AppError, badInput } from '../http/errors.js';
import { parseHostname } from './domains.js';
import { countActiveSites, hasActiveDomain } from './sites.store.js';

export const DELETION_WINDOW_DAYS = 30;

export type Account = Awaited<ReturnType<AccountsService['getAccount']>>;

export const domainTaken = () =>
  new AppError(409, 'domain_taken', 'This account already has an active site with this domain', {
    field: 'domain',
  });

/** Normalises a hostname field or answers 422 naming it. */
export function requireHostname(field: string, raw: string): string {
  const parsed = parseHostname(raw);
  if ('problem' in parsed) throw badInput(field, `${field} ${parsed.problem}`);
  return parsed.hostname;
}

export function refuseIfAccountPendingDeletion(account: Account): void {
  if (account.pending_deletion_at) {
    throw new AppError(409, 'account_pending_deletion', 'The account is scheduled for deletion');
  }
}

/**
 * Checks, under `lockAccountSites`, that one more active site on `domain` fits. The cap answers
 * 403 on create and 409 on restore (§7.2); both name the plan and its limit.
 */
export async function assertRoomForActiveSite(
  trx: Transaction<DB>,
  account: Account,
  domain: string,
  capStatus: 403 | 409,
): Promise<void> {
  if ((await countActiveSites(trx, account.id)) >= account.site_limit) {
    throw new AppError(
      capStatus,
      'site_limit_reached',
      `The ${account.plan} plan allows ${account.site_limit} sites`,
      {
        extra: { plan: account.plan, site_limit: account.site_limit },
      },
    );
  }
  if (await hasActiveDomain(trx, account.id, domain)) throw domainTaken();
}
