/** SQL of processor connections and of the processor events already applied (migration 026). */
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { ProcessorConnectionsTable } from '../db/processor-types.js';
import type { DB } from '../db/types.js';

type Executor = Kysely<DB> | Transaction<DB>;
export type ConnectionRow = Selectable<ProcessorConnectionsTable>;

export function listConnections(db: Executor, siteId: string) {
  return db
    .selectFrom('processor_connections')
    .selectAll()
    .where('site_id', '=', siteId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export function findConnection(db: Executor, id: string) {
  return db.selectFrom('processor_connections').selectAll().where('id', '=', id).executeTakeFirst();
}

/** False when the site already has a connection to this processor (the unique index decides). */
export async function insertConnection(
  db: Executor,
  row: Omit<ConnectionRow, 'last_event_at' | 'last_error' | 'last_error_at' | 'events_received'>,
): Promise<boolean> {
  const inserted = await db
    .insertInto('processor_connections')
    .values(row)
    .onConflict((oc) => oc.columns(['site_id', 'provider']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function deleteConnection(db: Executor, siteId: string, id: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('processor_connections')
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .returning('id')
    .executeTakeFirst();
  return deleted !== undefined;
}

export async function isProviderConnected(db: Executor, siteId: string, provider: string): Promise<boolean> {
  const row = await db
    .selectFrom('processor_connections')
    .select('id')
    .where('site_id', '=', siteId)
    .where('provider', '=', provider)
    .executeTakeFirst();
  return row !== undefined;
}

/** True the first time this processor event (or refund part) is seen for the site. */
export async function claimProcessorEvent(
  trx: Transaction<DB>,
  key: { siteId: string; provider: string; eventId: string },
  now: Date,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('processor_events')
    .values({ site_id: key.siteId, provider: key.provider, event_id: key.eventId, received_at: now })
    .onConflict((oc) => oc.doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function recordEventReceived(db: Executor, id: string, now: Date) {
  return db
    .updateTable('processor_connections')
    .set({ last_event_at: now, events_received: sql`events_received + 1` })
    .where('id', '=', id)
    .execute();
}

export function recordConnectionError(db: Executor, id: string, message: string, now: Date) {
  return db
    .updateTable('processor_connections')
    .set({ last_error: message, last_error_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Sets the site's reporting currency from a connection, unless a person chose one (or an
 * earlier connection already set it): the flag is then set, so it happens once per site.
 */
export async function adoptSiteCurrency(db: Executor, siteId: string, currency: string): Promise<void> {
  await db
    .updateTable('sites')
    .set({ currency, currency_chosen: true })
    .where('id', '=', siteId)
    .where('currency_chosen', '=', false)
    .execute();
}

export async function insertAliases(
  trx: Transaction<DB>,
  key: { siteId: string; provider: string },
  aliases: readonly { alias: string; transactionId: string }[],
): Promise<void> {
  if (aliases.length === 0) return;
  await trx
    .insertInto('processor_payment_aliases')
    .values(
      aliases.map((a) => ({
        site_id: key.siteId,
        provider: key.provider,
        alias: a.alias,
        transaction_id: a.transactionId,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The payment `transactionId` names: its own when it exists, else the one it is an alias of. */
export async function resolveTransactionId(
  trx: Transaction<DB>,
  key: { siteId: string; provider: string; transactionId: string },
): Promise<string> {
  const own = await trx
    .selectFrom('payments')
    .select('id')
    .where('site_id', '=', key.siteId)
    .where('provider', '=', key.provider)
    .where('transaction_id', '=', key.transactionId)
    .executeTakeFirst();
  if (own) return key.transactionId;
  const alias = await trx
    .selectFrom('processor_payment_aliases')
    .select('transaction_id')
    .where('site_id', '=', key.siteId)
    .where('provider', '=', key.provider)
    .where('alias', '=', key.transactionId)
    .executeTakeFirst();
  return alias?.transaction_id ?? key.transactionId;
}
