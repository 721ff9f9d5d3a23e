/**
 * Counts and times every answered request under its route's pattern. A request no route took
 * counts as `unmatched`, so the raw addresses scanners try never become series of their own.
 */
import type { FastifyInstance } from 'fastify';
import type { AppMetrics } from './app-metrics.js';

export function installRequestMetrics(app: FastifyInstance, metrics: AppMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request({
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });
}
