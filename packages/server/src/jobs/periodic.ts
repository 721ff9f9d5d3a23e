/**
 * Runs a background job every `intervalMs`, never two runs of it at once in this process
 * (the next run is scheduled when the previous one ends). `stop()` cancels the timer and waits
 * for a run in progress, so shutdown never cuts a job between two of its steps. The runs of a
 * named job are told to the observers of `observeJobRuns` (the metrics module).
 */
export interface PeriodicJob {
  stop(): Promise<void>;
  /** Runs now instead of at the next tick, or once more right after the run in progress. */
  wake(): void;
}

export interface JobRun {
  job: string;
  seconds: number;
  failed: boolean;
}

const runObservers = new Set<(run: JobRun) => void>();

/** Tells `observer` of every run of a named job in this process; answers the function that stops it. */
export function observeJobRuns(observer: (run: JobRun) => void): () => void {
  runObservers.add(observer);
  return () => runObservers.delete(observer);
}

/** `run`, with each of its runs told to the observers under `name`. */
export function observedRun(name: string, run: () => Promise<void>): () => Promise<void> {
  return async () => {
    const started = performance.now();
    let failed = true;
    try {
      await run();
      failed = false;
    } finally {
      const seconds = (performance.now() - started) / 1000;
      for (const observer of runObservers) observer({ job: name, seconds, failed });
    }
  };
}

export function startPeriodicJob(options: {
  /** The job's name in logs and metrics. */
  name?: string;
  intervalMs: number;
  run: () => Promise<void>;
  onError: (error: unknown) => void;
}): PeriodicJob {
  const run = options.name ? observedRun(options.name, options.run) : options.run;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  let again = false;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(tick, options.intervalMs);
    // A pending run must not keep the process alive on its own.
    timer.unref();
  };
  const tick = () => {
    running = run()
      .catch(options.onError)
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          tick();
        } else schedule();
      });
  };

  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    wake() {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      clearTimeout(timer);
      tick();
    },
  };
}
