/**
 * A `fetch` that hands each request to the app itself through `app.inject`: the same routes,
 * hooks, limits and error bodies as over the network, without a round trip. The tool set mounted
 * at `/mcp` calls the API through it, as the client that made the `/mcp` request.
 */
import type { FastifyInstance } from 'fastify';

/** Statuses whose answers carry no body (a `Response` refuses one). */
const BODILESS_STATUSES = new Set([204, 205, 304]);

export interface InjectOrigin {
  /** The address of the client behind the outer request: the per-address budgets stay theirs. */
  remoteAddress: string;
  /** The outer request's id, so its log lines and those of the calls it makes share it. */
  requestId: string;
}

export function createInjectFetch(app: FastifyInstance, origin: InjectOrigin) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const hasPayload = request.method !== 'GET' && request.method !== 'HEAD';
    const payload = hasPayload ? await request.text() : '';
    const answer = await app.inject({
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { ...Object.fromEntries(request.headers), 'x-request-id': origin.requestId },
      ...(payload === '' ? {} : { payload }),
      remoteAddress: origin.remoteAddress,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
    }
    const body =
      BODILESS_STATUSES.has(answer.statusCode) || request.method === 'HEAD' ? null : answer.rawPayload;
    return new Response(body, { status: answer.statusCode, headers });
  };
}
