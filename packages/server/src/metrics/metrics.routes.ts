/** `GET /metrics`: this process's figures in Prometheus text, for a scraper (metrics-access.ts). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, unauthorized } from '../http/errors.js';
import { codedErrorSchema } from '../http/schemas.js';
import type { AppMetrics } from './app-metrics.js';
import { documentMetricsText } from './metrics.docs.js';
import { metricsAccess } from './metrics-access.js';

export const METRICS_PATH = '/metrics';

export function registerMetricsRoute(
  app: FastifyInstance,
  deps: { metrics: AppMetrics; token: string | undefined },
) {
  app.withTypeProvider<ZodTypeProvider>().get(
    METRICS_PATH,
    {
      // The text is made by prom-client (the schema only documents it); errors are JSON.
      serializerCompiler: () => (data) => (typeof data === 'string' ? data : JSON.stringify(data)),
      config: { pageHeaders: false, swaggerTransform: documentMetricsText },
      schema: {
        tags: ['operations'],
        operationId: 'readMetrics',
        summary: "This process's figures in Prometheus text format",
        description:
          'For a Prometheus scraper: HTTP requests by route pattern and status with their durations, ingest ' +
          'items by outcome and drop reason, ingest batch sizes and times, background job runs and times, the ' +
          "depths of the database's work queues, and the Node.js process's own figures. Each process answers " +
          "for itself (queue depths are the shared database's). Open to requests from the loopback that carry " +
          'no forwarding header; any other caller needs `Authorization: Bearer` with `METRICS_TOKEN`, and gets ' +
          '401 `unauthorized` without it. While `METRICS_TOKEN` is unset, other callers get 404 `not_found`.',
        response: {
          200: z.string().describe('Prometheus text exposition format 0.0.4'),
          401: codedErrorSchema.describe(
            '`unauthorized`: not from the loopback, and no `Authorization: Bearer` with METRICS_TOKEN',
          ),
          404: codedErrorSchema.describe('`not_found`: not from the loopback, and METRICS_TOKEN is unset'),
        },
      },
    },
    async (request, reply) => {
      const access = metricsAccess(request, deps.token);
      if (access === 'not_served') throw new AppError(404, 'not_found', 'No such route');
      if (access === 'unauthorized') throw unauthorized('Missing or wrong metrics token');
      const { contentType, text } = await deps.metrics.render();
      return reply.header('content-type', contentType).header('cache-control', 'no-store').send(text);
    },
  );
}
