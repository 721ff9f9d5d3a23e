/**
 * A scheduled refresh of data the server downloads (exchange rates, crawler address ranges):
 * once when the server starts (a fresh install has none), then every `intervalMs` through
 * `startPeriodicJob`, so runs never overlap. A failed refresh is reported and the stored data
 * stays in use. `stop()` cancels a download in flight
 * (it could otherwise hold shutdown for its whole 10 s deadline) and waits for the run to end.
 */
import { observedRun, type PeriodicJob, startPeriodicJob } from './periodic.js';

export function startRefreshJob<T>(options: {
  /** The job's name in metrics. */
  name?: string;
  refresh: (signal: AbortSignal) => Promise<T>;
  intervalMs: number;
  onRefreshed: (result: T) => void;
  onError: (error: unknown) => void;
}): PeriodicJob {
  const cancel = new AbortController();
  const refreshOnce = async () => options.onRefreshed(await options.refresh(cancel.signal));
  const run = options.name ? observedRun(options.name, refreshOnce) : refreshOnce;
  // A refresh cut short by stop() is not a failure worth reporting.
  const onError = (error: unknown) => {
    if (!cancel.signal.aborted) options.onError(error);
  };
  let periodic: PeriodicJob | undefined;
  const first = run()
    .catch(onError)
    .finally(() => {
      if (!cancel.signal.aborted)
        periodic = startPeriodicJob({ intervalMs: options.intervalMs, run, onError });
    });
  return {
    async stop() {
      cancel.abort();
      await first;
      await periodic?.stop();
    },
    wake() {
      periodic?.wake();
    },
  };
}
