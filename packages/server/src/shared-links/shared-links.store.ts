/** SQL of the shared links and their access tokens (migration 025). */
import type { Insertable, Kysely } from 'kysely';
import type { SharedLinksTable } from '../db/shared-link-types.js';
import type { DB } from '../db/types.js';

export function insertLink(db: Kysely<DB>, row: Insertable<SharedLinksTable>) {
  return db.insertInto('shared_links').values(row).execute();
}

export function listLinks(db: Kysely<DB>, siteId: string) {
  return db
    .selectFrom('shared_links')
    .select(['id', 'label', 'display_prefix', 'password_hash', 'created_at', 'revoked_at'])
    .where('site_id', '=', siteId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

/** Marks the link revoked and drops its access tokens; false when no such link is on the site. */
export async function revokeLink(db: Kysely<DB>, siteId: string, id: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('shared_links')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    await trx.deleteFrom('shared_link_access').where('link_id', '=', id).execute();
    if (updated) return true;
    const existing = await trx
      .selectFrom('shared_links')
      .select('id')
      .where('id', '=', id)
      .where('site_id', '=', siteId)
      .executeTakeFirst();
    return existing !== undefined;
  });
}

/** A live link by its token's hash, with its site (active, not scheduled for deletion). */
export function findOpenLink(db: Kysely<DB>, tokenHash: string) {
  return db
    .selectFrom('shared_links as l')
    .innerJoin('sites as s', 's.id', 'l.site_id')
    .select([
      'l.id',
      'l.account_id',
      'l.site_id',
      'l.password_hash',
      's.snippet_key',
      's.name',
      's.domain',
      's.currency',
    ])
    .where('l.token_hash', '=', tokenHash)
    .where('l.revoked_at', 'is', null)
    .where('s.deleted_at', 'is', null)
    .executeTakeFirst();
}

export function insertAccess(
  db: Kysely<DB>,
  row: { token_hash: string; link_id: string; site_id: string; expires_at: Date },
) {
  return db.insertInto('shared_link_access').values(row).execute();
}

/** An unexpired access token of a live link on an active site. */
export function findAccess(db: Kysely<DB>, tokenHash: string, now: Date) {
  return db
    .selectFrom('shared_link_access as a')
    .innerJoin('shared_links as l', 'l.id', 'a.link_id')
    .innerJoin('sites as s', 's.id', 'l.site_id')
    .select(['l.id as link_id', 'l.account_id', 'l.site_id'])
    .where('a.token_hash', '=', tokenHash)
    .where('a.expires_at', '>', now)
    .where('l.revoked_at', 'is', null)
    .where('s.deleted_at', 'is', null)
    .executeTakeFirst();
}

export function deleteExpiredAccess(db: Kysely<DB>, now: Date) {
  return db.deleteFrom('shared_link_access').where('expires_at', '<=', now).execute();
}
