/** The scheduled refresh: at start, then every interval; failures reported, never thrown. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startRefreshJob } from './refresh-job.js';

interface RatesImport {
  days: number;
  rows: number;
  firstDay: string;
  lastDay: string;
}

const RESULT: RatesImport = { days: 1, rows: 5, firstDay: '2026-11-17', lastDay: '2026-11-17' };

describe('startRefreshJob', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refreshes at start and then every interval, reporting failures without stopping', async () => {
    let calls = 0;
    const refreshed: RatesImport[] = [];
    const errors: unknown[] = [];
    const job = startRefreshJob({
      refresh: async () => {
        calls += 1;
        if (calls === 2) throw new Error('GET answered 500');
        return RESULT;
      },
      intervalMs: 1000,
      onRefreshed: (result) => refreshed.push(result),
      onError: (error) => errors.push(error),
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    expect(refreshed).toEqual([RESULT]);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    expect(errors).toEqual([new Error('GET answered 500')]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(3);
    expect(refreshed).toHaveLength(2);
    await job.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(3);
  });

  it('cancels a refresh in flight on stop, waits for it, reports nothing and schedules nothing', async () => {
    let calls = 0;
    let sawAbort = false;
    const errors: unknown[] = [];
    const job = startRefreshJob({
      refresh: (signal) => {
        calls += 1;
        return new Promise<RatesImport>((_, reject) => {
          signal.addEventListener('abort', () => {
            sawAbort = true;
            setTimeout(() => reject(new Error('GET cancelled')), 50);
          });
        });
      },
      intervalMs: 1000,
      onRefreshed: () => {},
      onError: (error) => errors.push(error),
    });
    let stopped = false;
    const stopping = job.stop().then(() => {
      stopped = true;
    });
    expect(sawAbort).toBe(true);
    await vi.advanceTimersByTimeAsync(10);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(50);
    await stopping;
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toBe(1);
  });

  it('waits on stop for a later refresh in progress', async () => {
    let finish: () => void = () => {};
    let calls = 0;
    const job = startRefreshJob({
      refresh: () => {
        calls += 1;
        if (calls === 1) return Promise.resolve(RESULT);
        return new Promise<RatesImport>((resolve) => {
          finish = () => resolve(RESULT);
        });
      },
      intervalMs: 1000,
      onRefreshed: () => {},
      onError: () => {},
    });
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(2);
    let stopped = false;
    const stopping = job.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toBe(2);
  });
});
