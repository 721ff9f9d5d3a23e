/** Liveness and readiness for process managers and load balancers. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Database } from '../db/database.js';
import { healthStatusSchema, notReadySchema } from './health.schemas.js';

export function registerHealthRoutes(app: FastifyInstance, { database }: { database: Database }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const status = healthStatusSchema;

  r.get(
    '/healthz',
    {
      config: { limits: false },
      schema: {
        tags: ['operations'],
        operationId: 'checkLiveness',
        summary: 'The process is alive',
        description:
          'For a process manager: answers 200 as long as the process serves HTTP, without touching the ' +
          'database. Public and never rate limited.',
        response: { 200: status.meta({ description: 'Alive', examples: [{ status: 'ok' }] }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  r.get(
    '/readyz',
    {
      config: { limits: false },
      schema: {
        tags: ['operations'],
        operationId: 'checkReadiness',
        summary: 'The database answers; 503 otherwise',
        description:
          'For a load balancer: 200 when the database answers a ping, 503 when it does not, so traffic goes ' +
          'elsewhere until it is back. Public and never rate limited.',
        response: {
          200: status.meta({ description: 'Ready to serve', examples: [{ status: 'ok' }] }),
          503: notReadySchema.meta({
            description: 'The database does not answer',
            examples: [{ status: 'unavailable' }],
          }),
        },
      },
    },
    async (_request, reply) =>
      (await database.ping())
        ? { status: 'ok' as const }
        : reply.code(503).send({ status: 'unavailable' as const }),
  );
}
