/** SQL for sites. */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/types.js';

type Executor = Kysely<DB> | Transaction<DB>;

export function findSiteBySnippetKey(db: Executor, snippetKey: string) {
  return db.selectFrom('sites').selectAll().where('snippet_key', '=', snippetKey).executeTakeFirst();
}

export function findSiteById(db: Executor, id: string) {
  return db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirst();
}
