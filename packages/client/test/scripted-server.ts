/**
 * A tiny local HTTP server that answers each request from a script, for what the real server
 * cannot be made to do on cue: a 503 with Retry-After, a hang, a body that is not JSON.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  at: number;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Answers request n with `script[n]` (the last entry for any after it); `'hang'` never answers. */
export type Answer =
  | { status: number; body?: unknown; headers?: Record<string, string>; raw?: string }
  | 'hang';

export async function startScriptedServer(script: Answer[]) {
  const seen: SeenRequest[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      seen.push({ at: performance.now(), path: request.url ?? '', headers: request.headers, body });
      const answer = script[Math.min(seen.length, script.length) - 1];
      if (!answer || answer === 'hang') return;
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.raw ?? JSON.stringify(answer.body ?? {}));
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    /** Milliseconds between the first two requests. */
    gapMs: () => (seen[1]?.at ?? Number.NaN) - (seen[0]?.at ?? Number.NaN),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
