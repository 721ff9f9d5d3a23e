import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPeriodicJob } from './periodic.js';

describe('startPeriodicJob', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs every interval, never overlapping itself, and reports errors without stopping', async () => {
    let runs = 0;
    let finishRun: () => void = () => {};
    const errors: unknown[] = [];
    const job = startPeriodicJob({
      intervalMs: 1000,
      run: () => {
        runs += 1;
        if (runs === 2) return Promise.reject(new Error('boom'));
        return new Promise<void>((resolve) => {
          finishRun = resolve;
        });
      },
      onError: (error) => errors.push(error),
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    // The first run is still going: no second run however long it takes.
    await vi.advanceTimersByTimeAsync(5000);
    expect(runs).toBe(1);
    finishRun();
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(2);
    expect(errors).toEqual([new Error('boom')]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(3);
    finishRun();
    await job.stop();
  });

  it('waits for a run in progress on stop, and schedules nothing afterwards', async () => {
    let runs = 0;
    let finishRun: () => void = () => {};
    const job = startPeriodicJob({
      intervalMs: 1000,
      run: () => {
        runs += 1;
        return new Promise<void>((resolve) => {
          finishRun = resolve;
        });
      },
      onError: () => {},
    });
    await vi.advanceTimersByTimeAsync(1000);
    let stopped = false;
    const stopping = job.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(10);
    expect(stopped).toBe(false);
    finishRun();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(1);
  });

  it('runs at once when woken, and once more after a run a wake came during', async () => {
    let runs = 0;
    let finishRun: () => void = () => {};
    const job = startPeriodicJob({
      intervalMs: 60_000,
      run: () => {
        runs += 1;
        return new Promise<void>((resolve) => {
          finishRun = resolve;
        });
      },
      onError: () => {},
    });
    job.wake();
    expect(runs).toBe(1);
    job.wake();
    job.wake();
    expect(runs).toBe(1);
    finishRun();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(2);
    finishRun();
    await vi.advanceTimersByTimeAsync(59_999);
    expect(runs).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(3);
    finishRun();
    await job.stop();
    job.wake();
    expect(runs).toBe(3);
  });
});
