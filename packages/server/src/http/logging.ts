/**
 * Logger options. Requests are logged by method, path and id only: no query string, headers,
 * client address or body, so keys, cookies, emails and IP addresses never reach a log line.
 * The redaction list is a second net for anything logged by hand.
 */
import type { FastifyServerOptions } from 'fastify';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.email',
  '*.api_key',
  '*.setup_token',
  '*.token',
  '*.secret',
  '*.authorization',
  '*.cookie',
  '*.ip',
];

/**
 * The level of the start-up and shutdown lines: they show at the default `warn`, which keeps
 * requests (logged at `info`) off the console; `error`, `fatal` and `silent` hide them too.
 */
export function startupLogLevel(level: string): string {
  return level === 'warn' ? 'info' : level;
}

interface LoggedRequest {
  id: string;
  method: string;
  url: string;
}

export function buildLoggerOptions(
  level: string,
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
    serializers: {
      req: (req: LoggedRequest) => ({ id: req.id, method: req.method, path: boundedPath(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      // Database errors carry the offending values in `detail`; keep only what explains the error.
      err: (err: Error & { code?: string }) => ({
        type: err.name,
        message: err.message,
        code: err.code,
        stack: err.stack ?? '',
        // A cause's message may quote the values it choked on: its type and code tell enough.
        ...(err.cause instanceof Error ? { cause: causeOf(err.cause) } : {}),
      }),
    },
  };
}

const MAX_LOGGED_PATH_CHARS = 200;

/** The path without its query string, cut short: a path parameter can be 500 characters of anything. */
function boundedPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.length > MAX_LOGGED_PATH_CHARS ? `${path.slice(0, MAX_LOGGED_PATH_CHARS)}…` : path;
}

function causeOf(error: Error & { code?: unknown }) {
  return { type: error.name, code: typeof error.code === 'string' ? error.code : undefined };
}
