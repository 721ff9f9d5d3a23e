/**
 * Per-IP and per-credential request budgets, declared on each route as `config.limits`.
 * Built on @fastify/rate-limit's `createRateLimit`, whose counters live in memory or, when
 * REDIS_URL is set, in Redis so every process shares them. Both budgets are checked before
 * authentication, so a flood of bad keys never reaches the database. The credential budget is
 * keyed by a hash of the presented key or session cookie.
 */
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { sha256Hex } from '../lib/secrets.js';
import { SESSION_COOKIE } from './authenticate.js';
import { AppError } from './errors.js';

const WINDOW_MS = 60_000;
/** Budget per client address for routes that declare none. */
export const DEFAULT_PER_IP_PER_MINUTE = 1200;

export interface RouteLimits {
  /** Requests per minute per client address, counted across every route of `ipGroup`. */
  perIp?: number;
  ipGroup?: string;
  /** Requests per minute per credential on this route group. */
  perCredential?: number;
  credentialGroup?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false` exempts a route (health checks answer load balancers however often they ask). */
    limits?: RouteLimits | false;
  }
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

function credentialFingerprint(request: FastifyRequest): string | undefined {
  const presented = request.headers.authorization ?? request.cookies[SESSION_COOKIE];
  return presented ? sha256Hex(presented).slice(0, 32) : undefined;
}

export async function installRateLimits(app: FastifyInstance, redis: Redis | undefined): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    timeWindow: WINDOW_MS,
    // A Redis outage lets requests through rather than refusing every one of them.
    skipOnError: true,
    ...(redis ? { redis, nameSpace: 'touchtrail-rl:' } : {}),
  });
  const limiters = new Map<string, Limiter>();
  const limiter = (name: string, max: number, key: (req: FastifyRequest) => string): Limiter => {
    const id = `${name}/${max}`;
    let found = limiters.get(id);
    if (!found) {
      found = app.createRateLimit({
        max,
        timeWindow: WINDOW_MS,
        keyGenerator: (req) => `${name}:${key(req)}`,
      });
      limiters.set(id, found);
    }
    return found;
  };

  app.addHook('onRequest', async (request, reply) => {
    const limits = request.routeOptions.config.limits ?? {};
    if (limits === false) return;
    const checks: Limiter[] = [
      limiter(`ip:${limits.ipGroup ?? 'all'}`, limits.perIp ?? DEFAULT_PER_IP_PER_MINUTE, (req) =>
        normalizeIP(req.ip),
      ),
    ];
    if (limits.perCredential && credentialFingerprint(request)) {
      const group = limits.credentialGroup ?? request.routeOptions.url ?? 'route';
      // The limiter is built once per group and reused, so its key must come from each request.
      checks.push(limiter(`cred:${group}`, limits.perCredential, (req) => credentialFingerprint(req) ?? ''));
    }
    for (const check of checks) {
      const result = await check(request);
      if (!result.isAllowed && result.isExceeded) {
        reply.header('retry-after', String(Math.max(1, result.ttlInSeconds)));
        throw new AppError(429, 'rate_limited', 'Too many requests; retry after the time in Retry-After');
      }
    }
  });
}
