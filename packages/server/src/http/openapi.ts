/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests.
 * Routes with `schema.hide` (goal reorder, per the interface) are left out.
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export async function installOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Touchtrail API',
        version: '1.0.0',
        description:
          'Self-hostable analytics and attribution. Every path carries the version prefix /v1. ' +
          'Key-authenticated endpoints take `Authorization: Bearer tk_live_…`; the dashboard uses a session cookie.',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'An API key, `tk_live_…`' },
          session: { type: 'apiKey', in: 'cookie', name: 'tt_session' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
}

export function registerOpenApiRoute(app: FastifyInstance): void {
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
