/**
 * Bounds the connections one remote address may hold open (MAX_CONNECTIONS_PER_ADDRESS), so a
 * single client cannot exhaust the process's sockets with idle or trickling connections. It
 * counts the socket's peer, before any request: behind a proxy that is the proxy, which is why
 * the default is generous. IPv6 peers count by /64, as the rate limits do. Over the bound a new
 * connection is closed at once, before a byte is read.
 */
import type { Server } from 'node:http';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyBaseLogger } from 'fastify';

const WARN_EVERY_MS = 60_000;

export function installConnectionLimit(server: Server, maxPerAddress: number, log: FastifyBaseLogger): void {
  if (maxPerAddress === 0) return;
  const open = new Map<string, number>();
  let lastWarnedAt = 0;
  server.on('connection', (socket) => {
    const address = socket.remoteAddress;
    // A socket already closed by its peer has no address left to count.
    if (address === undefined) return;
    const key = normalizeIP(address);
    const count = open.get(key) ?? 0;
    if (count >= maxPerAddress) {
      socket.destroy();
      // The address stays out of the log (personal data); one line a minute says the bound bites.
      if (Date.now() - lastWarnedAt >= WARN_EVERY_MS) {
        lastWarnedAt = Date.now();
        log.warn({ maxPerAddress }, 'connection refused: an address is at MAX_CONNECTIONS_PER_ADDRESS');
      }
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left === 0) open.delete(key);
      else open.set(key, left);
    });
  });
}
