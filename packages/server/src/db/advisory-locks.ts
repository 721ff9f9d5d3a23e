/** Advisory lock ids for text keys: the first 64 bits of the key's SHA-256, as a bigint string. */
import { createHash } from 'node:crypto';

export function lockIdOf(key: string): string {
  return createHash('sha256').update(key).digest().readBigInt64BE(0).toString();
}

/** Distinct ids of the keys in one order, so two transactions taking them never deadlock. */
export function sortedLockIds(keys: Iterable<string>): string[] {
  return [...new Set([...keys].map(lockIdOf))].sort();
}
