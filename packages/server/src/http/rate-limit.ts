/**
 * Per-IP and per-credential request budgets, declared on each route as `config.limits`.
 * Built on @fastify/rate-limit's `createRateLimit`, whose counters live in memory or, when
 * REDIS_URL is set, in Redis so every process shares them. The per-IP and credential budgets
 * are checked before authentication, so a flood of bad keys never reaches the database. The
 * credential budget is keyed by a hash of the presented key or session cookie.
 *
 * `perAccount: { max, group, key? }` is a budget per person being signed in as, for routes
 * that guess at credentials (sign-in, second factor, password reset). It is checked after the
 * body is parsed and validated (a preHandler), so it can read the body; a malformed body never
 * counts. By default it is keyed by a hash of the lower-cased `email` field of the body, so an
 * unknown email is counted exactly like a known one and a 429 tells nothing about which emails
 * exist; `key` may instead name the account from the request (e.g. from a pending sign-in
 * cookie); a request with no key is left to the per-IP budget. Routes that share a `group`
 * share the count. A sign-in route declares, for example:
 *   limits: { perIp: SIGN_IN_PER_IP_PER_MINUTE, ipGroup: 'sign-in',
 *             perAccount: { max: SIGN_IN_PER_ACCOUNT_PER_MINUTE, group: 'login' } }
 */
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { sha256Hex } from '../lib/secrets.js';
import { SESSION_COOKIE } from './authenticate.js';
import { AppError } from './errors.js';

const WINDOW_MS = 60_000;
/** Budget per client address for routes that declare none. */
export const DEFAULT_PER_IP_PER_MINUTE = 1200;
/** Sign-in, second-factor and password-reset attempts per client address (DESIGN §8). */
export const SIGN_IN_PER_IP_PER_MINUTE = 10;
/** The same attempts per account (per email, or per person for the second factor). */
export const SIGN_IN_PER_ACCOUNT_PER_MINUTE = 5;

export interface AccountBudget {
  /** Requests per minute for one account, counted across every route of `group`. */
  max: number;
  group: string;
  /**
   * Names the account a request is for; only a hash of the answer is kept. By default the
   * lower-cased `email` field of the parsed body. Undefined skips this budget.
   */
  key?: (request: FastifyRequest) => string | undefined | Promise<string | undefined>;
}

export interface RouteLimits {
  /** Requests per minute per client address, counted across every route of `ipGroup`. */
  perIp?: number;
  ipGroup?: string;
  /** Requests per minute per credential on this route group. */
  perCredential?: number;
  credentialGroup?: string;
  /** Requests per minute per account signed in as; see the header. */
  perAccount?: AccountBudget;
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

function emailOf(request: FastifyRequest): string | undefined {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined;
}

function refuse(reply: FastifyReply, ttlInSeconds: number): never {
  reply.header('retry-after', String(Math.max(1, ttlInSeconds)));
  throw new AppError(429, 'rate_limited', 'Too many requests; retry after the time in Retry-After');
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
      if (!result.isAllowed && result.isExceeded) refuse(reply, result.ttlInSeconds);
    }
  });

  const accountKeys = new WeakMap<FastifyRequest, string>();
  app.addHook('preHandler', async (request, reply) => {
    const budget = request.routeOptions.config.limits
      ? request.routeOptions.config.limits.perAccount
      : undefined;
    if (!budget) return;
    const { max, group, key = emailOf } = budget;
    const account = await key(request);
    if (account === undefined) return;
    accountKeys.set(request, sha256Hex(account).slice(0, 32));
    const check = limiter(`account:${group}`, max, (req) => accountKeys.get(req) ?? '');
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) refuse(reply, result.ttlInSeconds);
  });
}
