import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { isDataError } from '../db/errors.js';
import { openTestDatabase } from '../test/database.js';
import { GroupCommitter } from './group-commit.js';

describe('GroupCommitter', () => {
  it('writes concurrent submissions in few batches and answers each with its own result', async () => {
    const batches: number[][] = [];
    const committer = new GroupCommitter<number, number>(
      async (items) => {
        batches.push(items);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return items.map((n) => n * 2);
      },
      { maxBatch: 50, maxWaitMs: 2 },
    );
    const results = await Promise.all(Array.from({ length: 120 }, (_, i) => committer.submit(i)));
    expect(results).toEqual(Array.from({ length: 120 }, (_, i) => i * 2));
    expect(batches.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i));
    expect(batches.length).toBeLessThanOrEqual(4);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(50);
  });

  it('rejects every caller of a failed batch and keeps serving later ones', async () => {
    let fail = true;
    const committer = new GroupCommitter<string, string>(
      async (items) => {
        if (fail) throw new Error('database down');
        return items;
      },
      { maxBatch: 10, maxWaitMs: 1 },
    );
    const failed = await Promise.allSettled([committer.submit('a'), committer.submit('b')]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(committer.submit('c')).resolves.toBe('c');
  });

  it('drains what is queued', async () => {
    const written: number[] = [];
    const committer = new GroupCommitter<number, void>(
      async (items) => {
        written.push(...items);
        return items.map(() => undefined);
      },
      { maxBatch: 2, maxWaitMs: 1000 },
    );
    const pending = [committer.submit(1), committer.submit(2), committer.submit(3)];
    await committer.drain();
    await Promise.all(pending);
    expect(written).toEqual([1, 2, 3]);
  });

  it('fails only the bad item of a batch the database refuses for its data, and every item when it is down', async () => {
    const database = await openTestDatabase();
    const { db } = database;
    await sql`create table group_commit_probe (n integer not null)`.execute(db);
    const batches: string[][] = [];
    const committer = new GroupCommitter<string, string>(
      async (items) => {
        batches.push(items);
        await db.transaction().execute(async (trx) => {
          for (const item of items)
            await sql`insert into group_commit_probe values (${item}::integer)`.execute(trx);
        });
        return items;
      },
      { maxBatch: 10, maxWaitMs: 20, isItemError: isDataError },
    );
    const settled = await Promise.allSettled(['1', 'x', '3'].map((item) => committer.submit(item)));
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toMatchObject({ code: '22P02' });
    expect(batches).toEqual([['1', 'x', '3'], ['1'], ['x'], ['3']]);
    const stored = await sql<{ n: number }>`select n from group_commit_probe order by n`.execute(db);
    expect(stored.rows.map((row) => row.n)).toEqual([1, 3]);

    await database.close();
    batches.length = 0;
    const down = await Promise.allSettled(['4', '5'].map((item) => committer.submit(item)));
    expect(down.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(batches).toEqual([['4', '5']]);
  });
});
