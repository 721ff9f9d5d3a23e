/**
 * How long the server waits for a client. Node and Fastify leave a request whose body never
 * completes open forever (Fastify's `requestTimeout` is 0) and give headers 60 s checked every
 * 30 s, so one slow client could hold a connection for minutes. The defaults (config.ts):
 *
 * - REQUEST_TIMEOUT_MS, 30 s for the whole request: the largest body (1 MiB) still arrives at
 *   35 KB/s, slower than any real uplink, while a client trickling bytes is cut off in seconds.
 * - HEADERS_TIMEOUT_MS, 10 s for the headers: a few kilobytes that any live client sends in one
 *   round trip; ten seconds leaves room for a lossy mobile link.
 * - KEEP_ALIVE_TIMEOUT_MS, 10 s idle between requests: long enough for a page's burst of beacons
 *   or an SDK's batch to reuse a connection, short enough that idle sockets do not pile up
 *   against the per-address bound. Behind a proxy, keep its upstream idle timeout below this.
 * - An idle socket mid-request or mid-response (a client that stopped reading our answer) is
 *   dropped after twice the request timeout.
 * - A route marked `longUpload` (an import's file, up to 2 GiB, sent by a `config:write`
 *   credential that was checked before the body) has UPLOAD_TIMEOUT_MS instead. Node's own
 *   request timeout is server-wide, so it is set to that, and `limitRequestTime` holds every
 *   other route to REQUEST_TIMEOUT_MS from the moment its headers arrived.
 */
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';

type TimeoutOptions = Pick<
  FastifyServerOptions,
  'requestTimeout' | 'connectionTimeout' | 'keepAliveTimeout' | 'clientErrorHandler'
> & { http: { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number } };

type Timeouts = Pick<Config, 'requestTimeoutMs' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'>;

/** The whole of a `longUpload` request: 2 GiB at 300 KB/s. */
export const UPLOAD_TIMEOUT_MS = 2 * 60 * 60 * 1000;

/** Fastify's server options for the configured timeouts. */
export function serverTimeoutOptions(config: Timeouts): TimeoutOptions {
  const wholeRequest = Math.max(config.requestTimeoutMs, UPLOAD_TIMEOUT_MS);
  return {
    requestTimeout: wholeRequest,
    connectionTimeout: 2 * config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    clientErrorHandler: answerClientError,
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: wholeRequest,
      // Node checks both timeouts only this often (30 s by default), which would let a slow
      // client overstay by up to that much; a fifth of the headers timeout keeps it close.
      connectionsCheckingInterval: Math.min(2_000, Math.max(50, Math.floor(config.headersTimeoutMs / 5))),
    },
  };
}

const CLIENT_ERRORS: Record<string, { status: string; body: { error: string; message: string } }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: '408 Request Timeout',
    body: { error: 'request_timeout', message: 'The request did not arrive in time' },
  },
  HPE_HEADER_OVERFLOW: {
    status: '431 Request Header Fields Too Large',
    body: { error: 'headers_too_large', message: 'The request headers are too large' },
  },
};
const MALFORMED = {
  status: '400 Bad Request',
  body: { error: 'bad_request', message: 'Malformed HTTP request' },
};

/**
 * Node's `clientError`: a request that timed out or could not be parsed, before any route.
 * Answers in the `{error, message}` shape of our own areas (Fastify's default has its own
 * shape), unless part of a response already went out on the socket, then closes it.
 */
function answerClientError(error: Error & { code?: string }, socket: import('node:net').Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const { status, body } = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
    const json = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(error);
}

/**
 * Holds each request but a `longUpload` one to `requestTimeoutMs` from its headers: a body not
 * whole by then is answered 408 and its connection closed, as Node does for the upload routes.
 */
export function limitRequestTime(app: FastifyInstance, requestTimeoutMs: number) {
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    if (request.routeOptions.config.longUpload || raw.complete) return done();
    const timer = setTimeout(() => {
      if (raw.complete) return;
      const error = Object.assign(new Error('request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
      answerClientError(error, raw.socket);
    }, requestTimeoutMs);
    timer.unref();
    reply.raw.once('close', () => clearTimeout(timer));
    raw.once('end', () => clearTimeout(timer));
    done();
  });
}
