/**
 * Who may read `GET /metrics` (DESIGN.md §7): a scraper on this machine without a credential;
 * anyone else with `Authorization: Bearer $METRICS_TOKEN`, and nobody (the ordinary 404) while
 * the token is unset. "On this machine" is the connection's own peer on the loopback with no
 * forwarding header: a reverse proxy on the same host connects from the loopback too, and the
 * header it adds is what tells its clients apart (a client can write one itself, which only
 * ever costs it the open door).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';

const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

export type MetricsAccess = 'open' | 'unauthorized' | 'not_served';

function isLoopbackPeer(request: FastifyRequest): boolean {
  if (FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined)) return false;
  const address = request.socket.remoteAddress;
  return address !== undefined && ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
}

/** Compared as SHA-256 digests, so the time taken tells nothing of the token, not even its length. */
function isToken(presented: string, token: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(token));
}

export function metricsAccess(request: FastifyRequest, token: string | undefined): MetricsAccess {
  if (isLoopbackPeer(request)) return 'open';
  if (token === undefined) return 'not_served';
  const presented = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
  return presented !== undefined && isToken(presented, token) ? 'open' : 'unauthorized';
}
