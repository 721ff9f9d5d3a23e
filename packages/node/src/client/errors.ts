/** The one error class the SDK throws, and how a refusal from the server becomes one. */

/**
 * Codes of failures on this side of the wire; every other `code` is the `error` field of the
 * server's answer (`validation_failed`, `unauthorized`, `rate_limited`, `unavailable`, …).
 */
export type ClientErrorCode =
  | 'invalid_options'
  | 'network_error'
  | 'timeout'
  | 'aborted'
  | 'invalid_response';

export interface TouchtrailErrorDetails {
  status?: number;
  code?: string;
  field?: string;
  body?: unknown;
  requestId?: string;
  cause?: unknown;
}

export class TouchtrailError extends Error {
  override readonly name = 'TouchtrailError';
  /** The HTTP status; undefined when no answer came (network error, timeout, abort). */
  readonly status: number | undefined;
  /** The body's `error` field, or a `ClientErrorCode`. */
  readonly code: string | undefined;
  /** The request field the server named, when it named one. */
  readonly field: string | undefined;
  /** The parsed error body, as the server sent it. */
  readonly body: unknown;
  /** The server's `x-request-id`, to find the request in its logs. */
  readonly requestId: string | undefined;

  constructor(message: string, details: TouchtrailErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.code = details.code;
    this.field = details.field;
    this.body = details.body;
    this.requestId = details.requestId;
  }
}

const textOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * Reads both error shapes of the ingest endpoints: `{error, message, field}` (events) and
 * `{error, issues: [{field, message}]}` (payments).
 */
export function errorFromResponse(
  label: string,
  status: number,
  body: unknown,
  requestId: string | undefined,
): TouchtrailError {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const issue = (Array.isArray(fields.issues) ? fields.issues[0] : undefined) as
    | Record<string, unknown>
    | undefined;
  const code = textOf(fields.error);
  const field = textOf(fields.field) ?? textOf(issue?.field);
  const detail = textOf(fields.message) ?? textOf(issue?.message);
  // The server's messages mostly name the field already (`amount: Too small…`, `Unknown field: x`).
  const isFieldNamed = field && detail && (detail.startsWith(`${field}: `) || detail.endsWith(`: ${field}`));
  const explained = isFieldNamed ? detail : [field, detail].filter(Boolean).join(': ');
  const message = `${label} answered ${status}${code ? ` ${code}` : ''}${explained ? ` (${explained})` : ''}`;
  return new TouchtrailError(message, { status, code, field, body, requestId });
}

/**
 * Guards against the API key reaching an error, as it could through an error thrown by an
 * injected `fetch` or a proxy that echoes the request: every place it shows is replaced.
 */
export function withoutKey(error: TouchtrailError, apiKey: string): TouchtrailError {
  const hide = (text: string) => text.replaceAll(apiKey, '[REDACTED]');
  const bodyText = JSON.stringify(error.body) ?? '';
  const hasKeyInCause = describeChain(error.cause).includes(apiKey);
  if (!error.message.includes(apiKey) && !bodyText.includes(apiKey) && !hasKeyInCause) return error;
  return new TouchtrailError(hide(error.message), {
    status: error.status,
    code: error.code,
    field: error.field,
    body: bodyText.includes(apiKey) ? JSON.parse(hide(bodyText)) : error.body,
    requestId: error.requestId,
    cause: hasKeyInCause ? copyWithout(error.cause, hide) : error.cause,
  });
}

/** The text of an error and of its causes, a few levels down. */
function describeChain(value: unknown, depth = 0): string {
  if (value === undefined || depth > 5) return '';
  if (!(value instanceof Error)) return textOfValue(value);
  return `${String(value)}\n${value.stack ?? ''}\n${describeChain(value.cause, depth + 1)}`;
}

/** A copy of an error chain with `hide` applied to every message and stack. */
function copyWithout(value: unknown, hide: (text: string) => string, depth = 0): unknown {
  if (!(value instanceof Error)) return hide(textOfValue(value));
  const cause =
    value.cause === undefined || depth > 5 ? undefined : copyWithout(value.cause, hide, depth + 1);
  const copy = new Error(hide(value.message), cause === undefined ? undefined : { cause });
  copy.name = value.name;
  copy.stack = hide(value.stack ?? '');
  return copy;
}

function textOfValue(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
