/** SQL for bot tokens. Only a SHA-256 hash of a token is stored, never the token. */
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { BotTokensTable } from '../db/crawler-types.js';
import type { DB } from '../db/types.js';

const METADATA = [
  'bot_tokens.id',
  'bot_tokens.name',
  'bot_tokens.display_prefix',
  'bot_tokens.created_at',
  'bot_tokens.last_used_at',
  'bot_tokens.revoked_at',
  'sites.snippet_key',
] as const;

export function listBotTokens(db: Kysely<DB>, accountId: string, siteId: string | null) {
  let query = db
    .selectFrom('bot_tokens')
    .innerJoin('sites', 'sites.id', 'bot_tokens.site_id')
    .select(METADATA)
    .where('bot_tokens.account_id', '=', accountId);
  if (siteId) query = query.where('bot_tokens.site_id', '=', siteId);
  return query.orderBy('bot_tokens.created_at', 'desc').orderBy('bot_tokens.id').execute();
}

export function getBotToken(db: Kysely<DB>, accountId: string, id: string) {
  return db
    .selectFrom('bot_tokens')
    .innerJoin('sites', 'sites.id', 'bot_tokens.site_id')
    .select([...METADATA, 'bot_tokens.site_id'])
    .where('bot_tokens.account_id', '=', accountId)
    .where('bot_tokens.id', '=', id)
    .executeTakeFirst();
}

/** Locks the account row so two concurrent creations cannot both pass the limits. */
export async function lockAccount(trx: Transaction<DB>, accountId: string) {
  await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().execute();
}

export async function countActive(trx: Transaction<DB>, accountId: string, siteId: string) {
  const row = await trx
    .selectFrom('bot_tokens')
    .select((eb) => [
      eb.fn.countAll<number>().as('account'),
      eb.fn.count<number>('id').filterWhere('site_id', '=', siteId).as('site'),
    ])
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { account: Number(row.account), site: Number(row.site) };
}

export function insertBotToken(trx: Transaction<DB>, row: Insertable<BotTokensTable>) {
  return trx.insertInto('bot_tokens').values(row).execute();
}

export function revokeBotToken(db: Kysely<DB>, id: string, now: Date) {
  return db
    .updateTable('bot_tokens')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

export function findBotTokenByHash(db: Kysely<DB>, tokenHash: string) {
  return db
    .selectFrom('bot_tokens')
    .select(['id', 'account_id', 'site_id', 'revoked_at', 'last_used_at'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export function touchBotToken(db: Kysely<DB>, id: string, now: Date) {
  return db.updateTable('bot_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}
