/**
 * The reporter in three shapes: a Connect/Express middleware, a Fastify plugin and a wrapper for
 * fetch-style handlers (`(Request) => Response`). Each records the hit after the response is
 * sent, so the crawler's response is neither delayed nor altered, and nothing here may throw
 * into the host's request. Only the user agent, path, status, time and the request's address are
 * reported: no cookie, no other header. The address is the one Express (`trust proxy`) or Fastify
 * (`trustProxy`) computed, never an `X-Forwarded-For` read here, since a client can forge that.
 */
import { normaliseAddress } from './address.js';
import { isAiCrawler } from './detect.js';
import { type CrawlerOptions, type CrawlerReporter, createCrawlerReporter } from './reporter.js';

interface NodeRequest {
  headers: Record<string, string | string[] | undefined>;
  url?: string;
  originalUrl?: string;
  /** Express only; Connect has just the socket. */
  ip?: string;
  socket?: { remoteAddress?: string };
}
interface NodeResponse {
  statusCode: number;
  once(event: 'finish', listener: () => void): unknown;
}

const reporterOf = (input: CrawlerOptions | CrawlerReporter) =>
  'record' in input ? input : createCrawlerReporter(input);
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/**
 * `app.use(crawlerMiddleware({ snippetKey, token, endpoint }))` for Express and Connect. Throws a
 * `TouchtrailError` (`invalid_options`) at once for a missing or malformed token, key or endpoint.
 */
export function crawlerMiddleware(input: CrawlerOptions | CrawlerReporter) {
  const reporter = reporterOf(input);
  const middleware = (req: NodeRequest, res: NodeResponse, next: () => void) => {
    try {
      const userAgent = header(req.headers['user-agent']);
      if (isAiCrawler(userAgent)) {
        res.once('finish', () =>
          reporter.record({
            user_agent: userAgent as string,
            path: req.originalUrl ?? req.url ?? '/',
            status: res.statusCode,
            ip: normaliseAddress(req.ip || req.socket?.remoteAddress),
          }),
        );
      }
    } catch {
      // Reporting is best-effort; the request goes on regardless.
    }
    next();
  };
  return Object.assign(middleware, { reporter });
}

interface FastifyLike {
  addHook(
    name: 'onResponse',
    hook: (
      request: { headers: NodeRequest['headers']; url: string; ip: string },
      reply: { statusCode: number },
    ) => Promise<void>,
  ): unknown;
  addHook(name: 'onClose', hook: () => Promise<void>): unknown;
}

/** `app.register(fastifyCrawler, { snippetKey, token, endpoint })`; applies to every route. */
export function fastifyCrawler(app: FastifyLike, options: CrawlerOptions, done: (error?: Error) => void) {
  let reporter: CrawlerReporter;
  try {
    reporter = createCrawlerReporter(options);
  } catch (error) {
    // Fails `app.register` (and so start-up) with the options error.
    done(error as Error);
    return;
  }
  app.addHook('onResponse', async (request, reply) => {
    const userAgent = header(request.headers['user-agent']);
    if (isAiCrawler(userAgent)) {
      reporter.record({
        user_agent: userAgent as string,
        path: request.url,
        status: reply.statusCode,
        ip: normaliseAddress(request.ip),
      });
    }
  });
  app.addHook('onClose', () => reporter.close());
  done();
}
// Hooks must reach the routes of the app that registers the plugin, not a child context.
Object.assign(fastifyCrawler, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'touchtrail-crawler',
});

export interface FetchCrawlerOptions extends CrawlerOptions {
  /**
   * A `Request` carries no client address; this returns it, e.g.
   * `(request) => request.headers.get('cf-connecting-ip')` on Cloudflare. Trust only a header
   * your platform sets itself. Without it, hits carry no address.
   */
  ipOf?: (request: Request) => string | null | undefined;
}

/** Wraps a fetch-style handler (Hono, Next.js route handlers, Deno-style servers). */
export function withCrawlerTracking(
  handler: (request: Request) => Response | Promise<Response>,
  input: FetchCrawlerOptions | CrawlerReporter,
) {
  const reporter = reporterOf(input);
  const ipOf = 'record' in input ? undefined : input.ipOf;
  const wrapped = async (request: Request) => {
    const response = await handler(request);
    try {
      const userAgent = request.headers.get('user-agent');
      if (isAiCrawler(userAgent)) {
        const url = new URL(request.url);
        reporter.record({
          user_agent: userAgent as string,
          path: url.pathname + url.search,
          status: response.status,
          ip: normaliseAddress(ipOf?.(request)),
        });
      }
    } catch {
      // Reporting is best-effort; the handler's response is returned regardless.
    }
    return response;
  };
  return Object.assign(wrapped, { reporter });
}
