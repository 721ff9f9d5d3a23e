import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/database.js';
import {
  exchangeRatesFillLockId,
  funnelSetLockId,
  goalSetLockId,
  lockIdOf,
  MIGRATION_LOCK_ID,
  siteSetLockId,
  sortedLockIds,
  webhookSetLockId,
} from './advisory-locks.js';
import type { Database } from './database.js';

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

  it('differ between the things they serialise, for one and the same owner id', () => {
    const id = randomUUID();
    const ids = [
      MIGRATION_LOCK_ID,
      goalSetLockId(id),
      funnelSetLockId(id),
      exchangeRatesFillLockId(),
      siteSetLockId(id),
      webhookSetLockId(id),
    ];
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('the goal registry lock id in SQL', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('is the id goalSetLockId makes, so the goals API and the ingest take one lock', async () => {
    for (const siteId of [randomUUID(), '00000000-0000-4000-8000-000000000000']) {
      const { rows } = await sql<{ id: string }>`
        select touchtrail_goals_lock_id(${siteId}::uuid)::text as id`.execute(database.db);
      expect(rows[0]?.id).toBe(goalSetLockId(siteId));
    }
  });
});
