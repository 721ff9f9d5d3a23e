import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { lockIdOf, sortedLockIds } from './advisory-locks.js';

describe('advisory lock ids', () => {
  it('are the first 64 bits of the key’s SHA-256, so every process and version agrees', () => {
    for (const key of ['ttid_a|visitor:1', 'goals|site', '', 'ünïcode|key']) {
      const expected = createHash('sha256').update(key).digest().readBigInt64BE(0).toString();
      expect(lockIdOf(key)).toBe(expected);
    }
  });

  it('come distinct and sorted', () => {
    const ids = sortedLockIds(['b', 'a', 'b', 'c']);
    expect(ids).toHaveLength(3);
    expect([...ids].sort()).toEqual(ids);
  });
});
