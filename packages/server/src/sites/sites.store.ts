/** SQL for sites. Domains are stored lower-cased, so equality on `domain` is case-insensitive. */
import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import { holdTransactionLock, siteSetLockId } from '../db/advisory-locks.js';
import type { DB, SitesTable } from '../db/types.js';

type Executor = Kysely<DB> | Transaction<DB>;

export type SiteRow = Selectable<SitesTable>;

export function findSiteBySnippetKey(db: Executor, snippetKey: string) {
  return db.selectFrom('sites').selectAll().where('snippet_key', '=', snippetKey).executeTakeFirst();
}

export function findSitesById(db: Executor, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('sites').selectAll().where('id', 'in', ids).execute();
}

export function findSiteById(db: Executor, id: string) {
  return db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The account's sites, newest first; `siteId` narrows to one, `includeDeleted` adds scheduled ones. */
export function listSites(
  db: Executor,
  accountId: string,
  options: { siteId: string | null; includeDeleted: boolean },
) {
  let query = db.selectFrom('sites').selectAll().where('account_id', '=', accountId);
  if (options.siteId) query = query.where('id', '=', options.siteId);
  if (!options.includeDeleted) query = query.where('deleted_at', 'is', null);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/**
 * Serialises changes to the account's set of active sites (create, restore) until the
 * transaction ends, so two concurrent requests cannot both pass the cap or the domain check.
 */
export async function lockAccountSites(trx: Transaction<DB>, accountId: string) {
  await holdTransactionLock(trx, siteSetLockId(accountId));
}

export async function countActiveSites(db: Executor, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('sites')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function hasActiveDomain(db: Executor, accountId: string, domain: string): Promise<boolean> {
  const row = await db
    .selectFrom('sites')
    .select('id')
    .where('account_id', '=', accountId)
    .where('domain', '=', domain)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

export function insertSite(db: Executor, site: Insertable<SitesTable>) {
  return db.insertInto('sites').values(site).execute();
}

/** Applies `changes` to an active site; undefined when the site is gone or scheduled for deletion. */
export function updateActiveSite(db: Executor, id: string, changes: Updateable<SitesTable>) {
  return db
    .updateTable('sites')
    .set(changes)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** Schedules deletion of an active site; undefined when it was already scheduled (or is gone). */
export function scheduleDeletion(db: Executor, id: string, requestedAt: Date, effectiveAt: Date) {
  return db
    .updateTable('sites')
    .set({ deleted_at: requestedAt, deletion_effective_at: effectiveAt })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export function lockSite(trx: Transaction<DB>, id: string) {
  return trx.selectFrom('sites').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function clearDeletion(db: Executor, id: string) {
  return db
    .updateTable('sites')
    .set({ deleted_at: null, deletion_effective_at: null })
    .where('id', '=', id)
    .execute();
}
