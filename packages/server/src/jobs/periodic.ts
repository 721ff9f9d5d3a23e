/**
 * Runs a background job every `intervalMs`, never two runs of it at once in this process
 * (the next run is scheduled when the previous one ends). `stop()` cancels the timer and waits
 * for a run in progress, so shutdown never cuts a job between two of its steps.
 */
export interface PeriodicJob {
  stop(): Promise<void>;
}

export function startPeriodicJob(options: {
  intervalMs: number;
  run: () => Promise<void>;
  onError: (error: unknown) => void;
}): PeriodicJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(tick, options.intervalMs);
    // A pending run must not keep the process alive on its own.
    timer.unref();
  };
  const tick = () => {
    running = options
      .run()
      .catch(options.onError)
      .finally(() => {
        running = undefined;
        schedule();
      });
  };

  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
