/** SQL for API keys. Only hashes are stored; the plaintext exists once, in the create response. */
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { ApiKeysTable, DB } from '../db/types.js';

type Executor = Kysely<DB> | Transaction<DB>;

const METADATA = [
  'api_keys.id',
  'api_keys.name',
  'api_keys.display_prefix',
  'api_keys.scopes',
  'api_keys.created_by',
  'api_keys.expires_at',
  'api_keys.last_used_at',
  'api_keys.revoked_at',
  'api_keys.created_at',
  'sites.snippet_key',
] as const;

export function insertKey(db: Executor, row: Insertable<ApiKeysTable>) {
  return db.insertInto('api_keys').values(row).execute();
}

export function findKeyByHash(db: Executor, keyHash: string) {
  return db
    .selectFrom('api_keys')
    .select([
      'id',
      'account_id',
      'created_by',
      'scopes',
      'site_id',
      'expires_at',
      'revoked_at',
      'last_used_at',
    ])
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
}

/** Writes `last_used_at` only when the stored value is older than `staleBefore`. */
export function touchKey(db: Executor, id: string, now: Date, staleBefore: Date) {
  return db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
    .execute();
}

export function listKeys(db: Executor, accountId: string, siteId: string | null) {
  let query = db
    .selectFrom('api_keys')
    .leftJoin('sites', 'sites.id', 'api_keys.site_id')
    .select(METADATA)
    .where('api_keys.account_id', '=', accountId);
  if (siteId) query = query.where('api_keys.site_id', '=', siteId);
  return query.orderBy('api_keys.created_at', 'desc').orderBy('api_keys.id').execute();
}

export function getKey(db: Executor, accountId: string, id: string) {
  return db
    .selectFrom('api_keys')
    .leftJoin('sites', 'sites.id', 'api_keys.site_id')
    .select([...METADATA, 'api_keys.site_id'])
    .where('api_keys.account_id', '=', accountId)
    .where('api_keys.id', '=', id)
    .executeTakeFirst();
}

export function revokeKey(db: Executor, id: string, now: Date) {
  return db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}
