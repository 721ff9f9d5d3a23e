/**
 * Server roles (DESIGN.md §1): one process serves everything by default; `--role api`,
 * `--role ingest` and `--role worker` split the work across processes sharing one PostgreSQL.
 * An ingest process answers the tracker and the server-to-server posts, an api process the
 * rest; a worker serves only the health checks and runs the background jobs (main.ts), which
 * `all` runs too. Every role answers the health checks and its own /metrics. Every route stays
 * registered, so the OpenAPI document is whole in any role; a path the role does not serve
 * answers the ordinary 404, before authentication or limits.
 */
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';

export const SERVER_ROLES = ['all', 'api', 'ingest', 'worker'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];

/** Every process answers for itself: its health, and its figures (metrics/). */
const EVERY_ROLE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export const runsBackgroundJobs = (role: ServerRole) => role === 'all' || role === 'worker';

export function installRole(app: FastifyInstance, role: ServerRole, ingestPaths: string[]): void {
  if (role === 'all') return;
  const ingest = new Set(ingestPaths);
  app.addHook('onRequest', (request, reply, done) => {
    const path = request.routeOptions.url;
    if (path === undefined || EVERY_ROLE_PATHS.has(path)) return done();
    const isIngest = ingest.has(path);
    if ((role === 'api' && !isIngest) || (role === 'ingest' && isIngest)) return done();
    reply.callNotFound();
  });
}

/**
 * The role named by `--role` (or `--role=…`) among the command-line arguments; `all` without
 * one. Throws a one-line message for an unknown role or argument.
 */
export function roleFromArgs(args: string[]): ServerRole {
  let role: string | undefined;
  try {
    role = parseArgs({ args, options: { role: { type: 'string' } }, strict: true }).values.role;
  } catch (error) {
    throw new Error(`${(error as Error).message}; the only option is --role ${SERVER_ROLES.join('|')}`);
  }
  if (role === undefined) return 'all';
  if (!(SERVER_ROLES as readonly string[]).includes(role)) {
    throw new Error(`--role must be one of ${SERVER_ROLES.join(', ')}`);
  }
  return role as ServerRole;
}
