/** Advisory lock ids for text keys: the first 64 bits of the key's SHA-256, as a bigint string. */
import { hash } from 'node:crypto';

/** Held while migrations and SQL sources are applied, so several processes can start at once. */
export const MIGRATION_LOCK_ID = 7_130_001;

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
 * events; an erasure takes it too while it deletes the visitor's visits (privacy/erasure-steps.ts).
 */
export function visitorLockKey(snippetKey: string, visitorId: string): string {
  return `${snippetKey}|visitor:${visitorId}`;
}
