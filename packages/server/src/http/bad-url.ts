/**
 * The router refuses a path parameter it cannot decode (`%ff`) or longer than
 * MAX_PARAM_LENGTH before any route is chosen, and Fastify answers in its own shape, echoing
 * the whole URL. Here the route is found again from its pattern, so the refusal is the area's
 * 422 `validation_failed` naming the parameter (interface §7.1, §7.2), and no URL is echoed.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Area } from './error-bodies.js';
import { logRefusal, sendErrorAs, toAppError } from './error-handler.js';
import { AppError } from './errors.js';

/** The router's bound on one path parameter, in characters as sent (still percent-encoded). */
export const MAX_PARAM_LENGTH = 500;

export interface RoutePattern {
  method: string;
  url: string;
  area?: Area;
}

const decodes = (segment: string) => {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
};

const isBadParam = (segment: string) => segment.length > MAX_PARAM_LENGTH || !decodes(segment);

function segmentsOf(path: string): string[] {
  return path.replace(/\/+$/, '').split('/');
}

/** The route `path` was meant for, and its first parameter the router refused. */
export function findRefusedParam(
  routes: readonly RoutePattern[],
  method: string,
  path: string,
): { area?: Area; param: string } | undefined {
  const sent = segmentsOf(path);
  const wanted = method === 'HEAD' ? 'GET' : method;
  for (const route of routes) {
    if (route.method !== wanted) continue;
    const pattern = segmentsOf(route.url);
    if (pattern.length !== sent.length) continue;
    const fits = pattern.every((part, i) => (part.startsWith(':') ? sent[i] !== '' : part === sent[i]));
    if (!fits) continue;
    const index = pattern.findIndex((part, i) => part.startsWith(':') && isBadParam(sent[i] as string));
    const param = pattern[index === -1 ? pattern.findIndex((part) => part.startsWith(':')) : index];
    if (param) return { area: route.area, param: param.slice(1) };
  }
  return undefined;
}

/**
 * Fastify's `frameworkErrors`: the router's refusals, in the area's shape. `setHeaders` adds the
 * headers the app's hooks give every other answer, since no hook runs before a route is chosen.
 */
export function createFrameworkErrorHandler(
  routes: readonly RoutePattern[],
  setHeaders: (request: FastifyRequest, reply: FastifyReply) => void,
) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    setHeaders(request, reply);
    const refusal = isRouterRefusal(error.code)
      ? refusalOf(routes, request.raw.method ?? 'GET', request.raw.url ?? '', error.code)
      : { area: undefined, error: toAppError(error) };
    logRefusal(request, refusal.error, error);
    return sendErrorAs(refusal.area ?? 'account', reply, refusal.error);
  };
}

const isRouterRefusal = (code: string) => code === 'FST_ERR_BAD_URL' || code === 'FST_ERR_MAX_PARAM_LENGTH';

/** The area's 422 naming the refused parameter, or the ordinary 404 when no route has that path. */
function refusalOf(routes: readonly RoutePattern[], method: string, url: string, code: string) {
  const found = findRefusedParam(routes, method, url.split('?')[0] as string);
  if (!found) return { area: undefined, error: new AppError(404, 'not_found', 'No such route') };
  const problem =
    code === 'FST_ERR_BAD_URL'
      ? 'is not valid percent-encoded UTF-8'
      : `is longer than ${MAX_PARAM_LENGTH} characters`;
  return {
    area: found.area,
    error: new AppError(422, 'validation_failed', `${found.param} ${problem}`, {
      field: found.param,
      source: 'params',
    }),
  };
}
