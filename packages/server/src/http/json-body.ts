/**
 * JSON bodies go through Fastify's own parser (which refuses `__proto__` and `constructor`
 * keys), except that an empty body on a route that takes no body counts as none: many HTTP
 * clients send `Content-Type: application/json` on every request, a DELETE or a bodyless POST
 * included. A route whose body is required still answers an empty body with `invalid_json`.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodType } from 'zod';

/** No body schema, or one that accepts a missing body (`.nullish()`, `.optional()`). */
const takesNoBody = (schema: unknown) => !schema || (schema as ZodType).safeParse(undefined).success;

export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && takesNoBody(request.routeOptions.schema?.body)) return done(null, undefined);
    parseJson(request, body.toString(), done);
  });
}
