/**
 * Every advisory lock id the server takes is made here. A lock on a text key uses the first 64
 * bits of the key's SHA-256, as a bigint string; the named functions below fix each key's shape,
 * so two callers serialising the same thing cannot drift apart. `touchtrail_goals_lock_id` in
 * sql/ingest/02_goals_lock.sql computes `goalSetLockId` in SQL (advisory-locks.test.ts pins the two
 * to the same id).
 */
import { hash } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from './types.js';

/** Held while migrations and SQL sources are applied, so several processes can start at once. */
export const MIGRATION_LOCK_ID = '7130001';

export function lockIdOf(key: string): string {
  // One-shot `hash` gives the same bytes as createHash at about 60% of its cost; every ingest
  // event takes one or two of these.
  return hash('sha256', key, 'buffer').readBigInt64BE(0).toString();
}

/** Distinct ids of the keys in one order, so two transactions taking them never deadlock. */
export function sortedLockIds(keys: Iterable<string>): string[] {
  return [...new Set([...keys].map(lockIdOf))].sort();
}

/**
 * What an ingest writer holds for a visitor while it builds their visits and writes their
 * events; an erasure takes it too while it deletes the visitor's visits (privacy/erasure-steps.store.ts).
 */
export function visitorLockKey(snippetKey: string, visitorId: string): string {
  return `${snippetKey}|visitor:${visitorId}`;
}

/** What an ingest writer holds for an event id, so a retried event is written once. */
export function eventLockKey(snippetKey: string, eventId: string): string {
  return `${snippetKey}|event:${eventId}`;
}

/** A site's goal registry: the goals API and the ingest's automatic registration. */
export const goalSetLockId = (siteId: string) => lockIdOf(`goals|${siteId}`);
/** A site's saved funnels, so creations respect the per-site limit. */
export const funnelSetLockId = (siteId: string) => lockIdOf(`funnels:${siteId}`);
/** Filling `exchange_rates` from the bundled reference data. */
export const exchangeRatesFillLockId = () => lockIdOf('exchange_rates:fill');
/** An account's set of active sites (create, restore), for the cap and the domain check. */
export const siteSetLockId = (accountId: string) => lockIdOf(`sites:${accountId}`);
/** A site's webhook endpoints, so creations respect the cap. */
export const webhookSetLockId = (siteId: string) => lockIdOf(`webhooks:${siteId}`);

/** Takes the lock until the transaction ends (outside one, until the statement ends). */
export async function holdTransactionLock(trx: Transaction<DB> | Kysely<DB>, lockId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${lockId}::bigint)`.execute(trx);
}
