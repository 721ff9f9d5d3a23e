/**
 * The one place that knows each area's error body (interface §7). Areas differ on purpose:
 * goals and conversions answer in Fastify's `{error, statusCode}` style, payments with short
 * codes, webhooks with their own mix. Our own routes (account, sites, ingest) use
 * `{error: code, message, field?}` plus the extra fields the interface names.
 */
import type { AppError } from './errors.js';

export type Area = 'account' | 'sites' | 'goals' | 'webhooks' | 'payments' | 'conversions' | 'ingest';

export interface ErrorResponse {
  status: number;
  body: Record<string, unknown>;
}

type Renderer = (error: AppError) => ErrorResponse;

const INTERNAL_MESSAGE = 'Internal server error';

/** `{error: code, message, field?, ...extra}` — sites, account and ingest routes. */
const renderCoded: Renderer = (error) => ({
  status: error.status,
  body: {
    error: error.code,
    // A 503 says what to do (retry); any other 5xx says nothing about what went wrong.
    message: error.status >= 500 && error.status !== 503 ? INTERNAL_MESSAGE : error.message,
    ...(error.details.field === undefined ? {} : { field: error.details.field }),
    ...error.details.extra,
  },
});

const renderGoals: Renderer = (error) => {
  switch (error.code) {
    case 'validation_failed':
    case 'invalid_json':
      return {
        // A bad body on a write is 400; a bad query string or path parameter is 422 (§7.1).
        status: error.details.source === 'body' || error.code === 'invalid_json' ? 400 : 422,
        body: { error: 'validation_failed', message: error.message, field: error.details.field ?? 'body' },
      };
    case 'not_found':
      return { status: 404, body: { error: 'Not found', statusCode: 404 } };
    case 'goal_exists':
    case 'goal_limit_reached':
      return {
        status: 409,
        body: {
          error: 'conflict',
          code: error.code,
          message: error.message,
          ...(error.details.field === undefined ? {} : { field: error.details.field }),
        },
      };
    case 'insufficient_scope':
      return { status: 403, body: { error: 'insufficient_scope', statusCode: 403, ...error.details.extra } };
    case 'unauthorized':
      return { status: 401, body: { error: 'Unauthorized', statusCode: 401, message: error.message } };
    case 'rate_limited':
      return { status: 429, body: { error: 'Too Many Requests', statusCode: 429, message: error.message } };
    default:
      return error.status >= 500
        ? { status: 500, body: { error: INTERNAL_MESSAGE, statusCode: 500 } }
        : {
            status: error.status,
            body: { error: error.code, statusCode: error.status, message: error.message },
          };
  }
};

const renderWebhooks: Renderer = (error) => {
  switch (error.code) {
    case 'forbidden':
    case 'not_found':
      // A site out of reach is 403 Forbidden (§7.3); an unknown webhook id is a bare 404.
      return error.details.extra?.resource === 'webhook'
        ? { status: 404, body: { statusCode: 404, message: error.message } }
        : { status: 403, body: { error: 'Forbidden' } };
    case 'rate_limited':
      return { status: 429, body: { statusCode: 429, message: error.message } };
    case 'invalid_json':
      return { status: 422, body: { error: 'validation_failed', message: error.message, field: 'body' } };
    default:
      return renderCoded(error);
  }
};

const PAYMENT_CODES: Partial<Record<AppError['code'], string>> = {
  invalid_json: 'invalid JSON',
  unauthorized: 'unauthorized',
  rate_limited: 'rate_limited',
  quota_exceeded: 'quota_exceeded',
  unavailable: 'unavailable',
};

const renderPayments: Renderer = (error) => {
  if (error.code === 'validation_failed') {
    const field = error.details.field ?? 'body';
    return { status: 422, body: { error: 'validation_failed', issues: [{ field, message: error.message }] } };
  }
  // A key that cannot reach the site, or lacks ingest:write, is 401 on payments: §7.4 has no
  // 403 or 404, and §5.6 answers an out-of-scope key and a wrong-site key with 401.
  if (error.code === 'not_found' || error.code === 'insufficient_scope') {
    return { status: 401, body: { error: 'unauthorized' } };
  }
  const code = PAYMENT_CODES[error.code];
  if (code) return { status: error.status, body: { error: code } };
  if (error.status >= 500) return { status: 500, body: { error: 'internal_error' } };
  return { status: error.status, body: { error: error.code, message: error.message } };
};

const CONVERSION_STATUS_TEXT: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  413: 'Payload Too Large',
  429: 'Too Many Requests',
};

const renderConversions: Renderer = (error) => {
  if (error.code === 'validation_failed' || error.code === 'invalid_json') {
    return {
      status: 422,
      body: { error: 'validation_failed', message: error.message, field: error.details.field ?? 'query' },
    };
  }
  if (error.status >= 500) return { status: 500, body: { error: 'Failed to load conversions' } };
  const status = error.code === 'insufficient_scope' || error.code === 'forbidden' ? 403 : error.status;
  return { status, body: { error: CONVERSION_STATUS_TEXT[status] ?? error.code, statusCode: status } };
};

const RENDERERS: Record<Area, Renderer> = {
  account: renderCoded,
  sites: renderCoded,
  ingest: renderCoded,
  goals: renderGoals,
  webhooks: renderWebhooks,
  payments: renderPayments,
  conversions: renderConversions,
};

export function renderError(area: Area, error: AppError): ErrorResponse {
  return RENDERERS[area](error);
}
