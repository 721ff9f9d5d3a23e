/**
 * Services throw `AppError`; nothing else in a service knows about HTTP. The error handler
 * (error-handler.ts) turns these, and Fastify's own errors, into each area's body shape.
 */
export type ErrorCode =
  | 'validation_failed'
  | 'invalid_json'
  | 'unauthorized'
  | 'invalid_credentials'
  | 'insufficient_scope'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'unavailable'
  | 'internal_error'
  // Named conflicts and refusals of the interface and of our own account routes.
  | 'already_set_up'
  | 'last_admin'
  | 'email_taken'
  | 'site_limit_reached'
  | 'domain_taken'
  | 'domain_mismatch'
  | 'deletion_in_progress'
  | 'account_pending_deletion'
  | 'goal_exists'
  | 'goal_limit_reached'
  | 'bot_token_limit_reached'
  | 'invalid_token'
  | 'invalid_code'
  | 'sign_in_expired'
  | 'second_factor_enrolled'
  | 'second_factor_not_enrolled'
  | 'password_required'
  | 'cross_origin_request'
  | 'invalid_link'
  | 'invalid_password'
  | 'shared_link_limit_reached'
  // Payment-processor connections (DESIGN.md §11).
  | 'provider_connected'
  | 'invalid_signature'
  | 'invalid_payload'
  // Privacy requests (DESIGN.md §12).
  | 'export_not_ready'
  | 'export_expired';

export interface AppErrorDetails {
  /** The offending field, for validation errors. */
  field?: string;
  /** Where the offending value came from; decides 400 or 422 where the area distinguishes. */
  source?: 'body' | 'query' | 'params';
  /** The validator's name for what is wrong (`invalid_type`, `unrecognized_keys`), for the log. */
  problem?: string;
  /** `field` as the log may show it, when `field` holds the client's own text (an unknown key). */
  logField?: string;
  /** Extra fields the interface puts in the body (`required_scope`, `plan`, `site_limit`, …). */
  extra?: Record<string, unknown>;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: AppErrorDetails = {},
    /** What went wrong underneath; logged by its type and code only (see http/logging.ts). */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'AppError';
  }
}

export const badInput = (field: string, message: string, source: AppErrorDetails['source'] = 'body') =>
  new AppError(422, 'validation_failed', message, { field, source });

export const notFound = (what: string) => new AppError(404, 'not_found', `${what} not found`);

export const unauthorized = (message = 'Missing or invalid credentials') =>
  new AppError(401, 'unauthorized', message);

export const insufficientScope = (scope: string, message = `This credential lacks the ${scope} permission`) =>
  new AppError(403, 'insufficient_scope', message, { extra: { required_scope: scope } });

export const forbidden = (message: string) => new AppError(403, 'forbidden', message);
