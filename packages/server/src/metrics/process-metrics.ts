/**
 * prom-client's default metrics (CPU, memory, event loop lag, garbage collection, handles) are
 * of the process, not of one app: one registry per process holds them, made at the first
 * scrape, so apps built side by side (tests) share it rather than each starting its observers.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';

let processRegistry: Registry | undefined;

export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
