/** Liveness and readiness for process managers and load balancers. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db/database.js';

export function registerHealthRoutes(app: FastifyInstance, { database }: { database: Database }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const status = z.object({ status: z.enum(['ok', 'unavailable']) });

  r.get(
    '/healthz',
    {
      config: { limits: false },
      schema: { tags: ['operations'], summary: 'The process is alive', response: { 200: status } },
    },
    async () => ({ status: 'ok' as const }),
  );

  r.get(
    '/readyz',
    {
      config: { limits: false },
      schema: {
        tags: ['operations'],
        summary: 'The database answers; 503 otherwise',
        response: { 200: status, 503: status },
      },
    },
    async (_request, reply) =>
      (await database.ping())
        ? { status: 'ok' as const }
        : reply.code(503).send({ status: 'unavailable' as const }),
  );
}
