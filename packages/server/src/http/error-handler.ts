/**
 * Turns every failure — ours, Fastify's, the validator's, the rate limiter's — into an AppError
 * and renders it in the shape of the area the route belongs to. 4xx are logged at warn, 5xx at
 * error with the request id; no response ever carries a stack trace, SQL or a secret.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { type Area, renderError } from './error-bodies.js';
import { AppError } from './errors.js';

const UNKNOWN_KEY = '[unknown key]';
const SOURCES = { body: 'body', querystring: 'query', params: 'params', headers: 'query' } as const;

function fromValidation(error: FastifyError): AppError {
  const source = SOURCES[(error.validationContext ?? 'body') as keyof typeof SOURCES] ?? 'body';
  const first = error.validation?.[0];
  if (!first) return new AppError(422, 'validation_failed', 'Invalid input', { source });
  const params = (first.params ?? {}) as { keys?: string[] };
  const path = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const problem = first.keyword;
  if (first.keyword === 'unrecognized_keys' && params.keys?.length) {
    const key = params.keys[0] as string;
    const field = path ? `${path}.${key}` : key;
    // The key is the client's own text: the response names it (§7), the log only says where.
    const logField = path ? `${path}.${UNKNOWN_KEY}` : UNKNOWN_KEY;
    return new AppError(422, 'validation_failed', `Unknown field: ${field}`, {
      field,
      source,
      problem,
      logField,
    });
  }
  const field = path || (source === 'body' ? 'body' : source);
  return new AppError(422, 'validation_failed', `${field}: ${first.message ?? 'invalid value'}`, {
    field,
    source,
    problem,
  });
}

const FASTIFY_CODES: Record<string, () => AppError> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => new AppError(400, 'invalid_json', 'Body is not valid JSON'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => new AppError(400, 'invalid_json', 'Body is empty'),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new AppError(413, 'payload_too_large', 'Request body is too large'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new AppError(415, 'unsupported_media_type', 'Unsupported content type; send application/json'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new AppError(400, 'invalid_json', 'Content-Length does not match the body'),
};

/**
 * PostgreSQL's codes for text it refuses to store: a NUL character in any text (22021), a lone
 * UTF-16 surrogate or NUL escape inside JSON (22P05). Only a client can have sent such text.
 */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']);

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fastifyError) || fastifyError.validation) {
    return fromValidation(fastifyError);
  }
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (known) return known();
  if (UNSTORABLE_TEXT_CODES.has(String((error as { code?: unknown }).code))) {
    return new AppError(
      422,
      'validation_failed',
      'Text must not contain NUL characters or unpaired UTF-16 surrogates',
    );
  }
  if (error instanceof SyntaxError) return new AppError(400, 'invalid_json', 'Body is not valid JSON');
  if (fastifyError.statusCode === 429)
    return new AppError(429, 'rate_limited', 'Too many requests; retry later');
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) return new AppError(status, 'validation_failed', 'Bad request');
  return new AppError(500, 'internal_error', 'Internal server error');
}

export function areaOf(request: FastifyRequest): Area {
  return (request.routeOptions.config as { area?: Area } | undefined)?.area ?? 'account';
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  return sendErrorAs(areaOf(request), reply, error);
}

export function sendErrorAs(area: Area, reply: FastifyReply, error: AppError): FastifyReply {
  const { status, body } = renderError(area, error);
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * A refusal's log line names the kind of problem and where, never what the client sent: the
 * message can quote the client's text (an unknown field's name, a value), so it stays out.
 */
export function logRefusal(request: FastifyRequest, appError: AppError, cause: unknown = appError): void {
  if (appError.status >= 500) {
    request.log.error({ err: cause }, 'request failed');
    return;
  }
  const { source, problem } = appError.details;
  const field = fieldPathForLog(appError.details.logField ?? appError.details.field);
  // The client's mistake, one per request: at info with the request lines, off the default console.
  request.log.info(
    {
      code: appError.code,
      status: appError.status,
      ...(source === undefined ? {} : { source }),
      ...(problem === undefined ? {} : { problem: boundedName(problem) }),
      ...(field === undefined ? {} : { field }),
    },
    `request refused: ${appError.code}`,
  );
}

const MAX_LOGGED_SEGMENTS = 8;
const FIELD_SEGMENT = /^(?:[A-Za-z][A-Za-z0-9_]{0,63}|\d{1,9}|\[unknown key\])$/;

/** A field path of schema names and indexes, at most 8 deep; any other segment is redacted. */
function fieldPathForLog(field: string | undefined): string | undefined {
  if (field === undefined) return undefined;
  const segments = field.split('.');
  const kept = segments
    .slice(0, MAX_LOGGED_SEGMENTS)
    .map((segment) => (FIELD_SEGMENT.test(segment) ? segment : '[redacted]'));
  return segments.length > MAX_LOGGED_SEGMENTS ? `${kept.join('.')}.…` : kept.join('.');
}

const boundedName = (name: string) => (/^[a-z_]{1,40}$/.test(name) ? name : 'other');

/** Answers a request no route took with a page of its own (the dashboard's), or declines. */
export type NotFoundPage = (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;

export function installErrorHandling(app: FastifyInstance) {
  let page: NotFoundPage | undefined;
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    logRefusal(request, appError, error);
    return sendError(request, reply, appError);
  });
  app.setNotFoundHandler(async (request, reply) => {
    if (page && (await page(request, reply))) return reply;
    return sendError(request, reply, new AppError(404, 'not_found', 'No such route'));
  });
  return {
    serveOnNotFound(notFoundPage: NotFoundPage) {
      page = notFoundPage;
    },
  };
}
