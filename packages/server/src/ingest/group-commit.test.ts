import { describe, expect, it } from 'vitest';
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
});
