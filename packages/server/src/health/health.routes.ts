/** Liveness and readiness for process managers and load balancers. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ClickHouseEngine } from '../clickhouse/engine.js';
import type { Database } from '../db/database.js';
import { healthStatusSchema, notReadySchema, readyStatusSchema } from './health.schemas.js';

export function registerHealthRoutes(
  app: FastifyInstance,
  { database, clickhouse }: { database: Database; clickhouse?: ClickHouseEngine },
) {
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
          'elsewhere until it is back. Public and never rate limited. With ClickHouse on, `clickhouse` says ' +
          'whether it answers and how many seconds each copied stream is behind; ClickHouse being away does ' +
          'not make the process unready, since traffic is committed in PostgreSQL.',
        response: {
          200: readyStatusSchema.meta({
            description: 'Ready to serve',
            examples: [
              { status: 'ok' },
              {
                status: 'ok',
                clickhouse: {
                  status: 'ok',
                  ship_lag_seconds: { events: 1, visits: 1, identity_links: 0, crawler_hits: 0 },
                },
              },
            ],
          }),
          503: notReadySchema.meta({
            description: 'The database does not answer',
            examples: [{ status: 'unavailable' }],
          }),
        },
      },
    },
    async (_request, reply) => {
      if (!(await database.ping())) return reply.code(503).send({ status: 'unavailable' as const });
      if (!clickhouse) return { status: 'ok' as const };
      const [answers, lag] = await Promise.all([clickhouse.ping(), clickhouse.shipper.lagSeconds()]);
      return {
        status: 'ok' as const,
        clickhouse: { status: answers ? ('ok' as const) : ('unavailable' as const), ship_lag_seconds: lag },
      };
    },
  );
}
