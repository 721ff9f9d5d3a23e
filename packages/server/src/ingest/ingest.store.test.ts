import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sortedLockIds } from '../db/advisory-locks.js';
import type { Database } from '../db/database.js';
import { openTestDatabase } from '../test/database.js';
import { beginAndLock, loadBatchState, writeBatch } from './ingest.store.js';

describe('the ingest batch statements', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('are prepared once per PostgreSQL connection and run on generic plans, whatever the batch size', async () => {
    const plans = await database.db.connection().execute(async (connection) => {
      // Fewer than the five calls after which PostgreSQL would consider a generic plan itself.
      for (const size of [1, 7, 30, 2]) {
        const keys = Array.from({ length: size }, (_, i) => ({ snippetKey: 'ttid_none', id: `v${i}` }));
        await beginAndLock(connection, sortedLockIds(keys.map((key) => `${key.snippetKey}|${key.id}`)));
        const state = await loadBatchState(
          connection,
          keys.map((key) => ({ snippetKey: key.snippetKey, eventId: key.id })),
          keys.map((key) => ({ snippetKey: key.snippetKey, visitorId: key.id })),
        );
        expect(state.sites).toEqual([]);
        await writeBatch(connection, {}, new Date());
        await sql`rollback`.execute(connection);
      }
      const { rows } = await sql<{ name: string; generic_plans: number; custom_plans: number }>`
        select name, generic_plans, custom_plans from pg_prepared_statements
        where name like 'tt_ingest_%' order by name`.execute(connection);
      return rows;
    });
    // PGlite reads the markers as comments and prepares nothing.
    expect(plans).toEqual(
      database.kind === 'postgres'
        ? [
            { name: 'tt_ingest_read', generic_plans: 4, custom_plans: 0 },
            { name: 'tt_ingest_write', generic_plans: 4, custom_plans: 0 },
          ]
        : [],
    );
  });
});
