/**
 * The reporter in three shapes: a Connect/Express middleware, a Fastify plugin and a wrapper for
 * fetch-style handlers (`(Request) => Response`). Each records the hit after the response is
 * sent, so the crawler's response is neither delayed nor altered.
 */
import { isAiCrawler } from './detect.js';
import { type CrawlerOptions, type CrawlerReporter, createCrawlerReporter } from './reporter.js';

interface NodeRequest {
  headers: Record<string, string | string[] | undefined>;
  url?: string;
  originalUrl?: string;
  socket?: { remoteAddress?: string };
}
interface NodeResponse {
  statusCode: number;
  once(event: 'finish', listener: () => void): unknown;
}

const reporterOf = (input: CrawlerOptions | CrawlerReporter) =>
  'record' in input ? input : createCrawlerReporter(input);
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** `app.use(crawlerMiddleware({ snippetKey, token, endpoint }))` for Express and Connect. */
export function crawlerMiddleware(input: CrawlerOptions | CrawlerReporter) {
  const reporter = reporterOf(input);
  const middleware = (req: NodeRequest, res: NodeResponse, next: () => void) => {
    const userAgent = header(req.headers['user-agent']);
    if (isAiCrawler(userAgent)) {
      res.once('finish', () =>
        reporter.record({
          user_agent: userAgent as string,
          path: req.originalUrl ?? req.url ?? '/',
          status: res.statusCode,
          ip: req.socket?.remoteAddress,
        }),
      );
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
  const reporter = createCrawlerReporter(options);
  app.addHook('onResponse', async (request, reply) => {
    const userAgent = header(request.headers['user-agent']);
    if (isAiCrawler(userAgent)) {
      reporter.record({
        user_agent: userAgent as string,
        path: request.url,
        status: reply.statusCode,
        ip: request.ip,
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

/** Wraps a fetch-style handler (Hono, Next.js route handlers, Deno-style servers). */
export function withCrawlerTracking(
  handler: (request: Request) => Response | Promise<Response>,
  input: CrawlerOptions | CrawlerReporter,
) {
  const reporter = reporterOf(input);
  const wrapped = async (request: Request) => {
    const response = await handler(request);
    const userAgent = request.headers.get('user-agent');
    if (isAiCrawler(userAgent)) {
      const url = new URL(request.url);
      reporter.record({
        user_agent: userAgent as string,
        path: url.pathname + url.search,
        status: response.status,
      });
    }
    return response;
  };
  return Object.assign(wrapped, { reporter });
}
