/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests.
 * Routes with `schema.hide` (goal reorder, per the interface) are left out. Each operation's
 * security and standard errors come from its route config (openapi-operation.ts).
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { finishDocument } from './openapi-finish.js';
import { describeOperation, describeOperationWith } from './openapi-operation.js';

const SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key, `Authorization: Bearer tk_live_…`. The operation lists the scope the key needs (e.g. `stats:read`).',
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'tt_session',
    description:
      "The dashboard's session cookie, set by `POST /v1/auth/login`. Writes must come from this server's own origin.",
  },
  sharedLink: {
    type: 'http',
    scheme: 'bearer',
    description:
      "A shared link's access token, `Authorization: Bearer ttsa_…`, from `POST /v1/shared-links/open`; reads the stats query and realtime of one site.",
  },
  botToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'A bot token, `Authorization: Bearer tt_bot_…`, for the crawler middleware reporting AI crawler hits of one site.',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The server’s `METRICS_TOKEN`, `Authorization: Bearer …`, for a scraper of `GET /metrics` off the loopback.',
  },
} as const;

export async function installOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  // A route's own `swaggerTransform` replaces the plugin's transform; wrap it so that route's
  // operation still gets its security and standard errors.
  app.addHook('onRoute', (route) => {
    const own = route.config?.swaggerTransform;
    if (own) route.config = { ...route.config, swaggerTransform: describeOperationWith(own) };
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Touchtrail API',
        version: '1.0.0',
        description:
          'Self-hostable analytics and attribution. Every path carries the version prefix /v1. ' +
          'Key-authenticated endpoints take `Authorization: Bearer tk_live_…`; the dashboard uses a session cookie. ' +
          'Errors answer in the body shape of their area (the `…Error` schemas).',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: publicUrl }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: describeOperation,
    transformObject: finishDocument,
  });
}

export function registerOpenApiRoute(app: FastifyInstance): void {
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
