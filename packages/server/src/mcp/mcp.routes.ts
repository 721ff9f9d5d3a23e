/**
 * `/mcp`: the agent tool set over streamable HTTP for hosted agents, with an API key as bearer
 * token. Stateless: each POST of JSON-RPC messages gets a new MCP server whose tools follow the
 * key's scopes and call the API in-process (inject-fetch.ts) with the same key, so every route's
 * own scope checks, site coverage and budgets apply. GET and DELETE (server-sent streams and
 * sessions) are not offered: 405. Left out of the OpenAPI document; the README describes it.
 */
import { createClient } from '@touchtrail/client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { scopesOf } from '../access/principal.js';
import { bearerToken, principalOf } from '../http/authenticate.js';
import { createInjectFetch } from './inject-fetch.js';

export const MCP_PATH = '/mcp';
/** The base URL of in-process calls; only its path and query reach the router. */
const IN_PROCESS_ORIGIN = 'http://touchtrail.internal';
/** MCP messages per key per minute; each tool call also counts against its route's own budget. */
const MESSAGES_PER_KEY_PER_MINUTE = 300;
const FORWARDED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version'];

/**
 * The tool set and the MCP SDK are loaded on the first request to /mcp: they double the time
 * it takes to import the app, which every start and every test file would pay otherwise.
 */
let toolSet: Promise<typeof import('@touchtrail/mcp')> | undefined;
const loadToolSet = () => {
  toolSet ??= import('@touchtrail/mcp');
  return toolSet;
};

const MCP_CONFIG = {
  area: 'account',
  auth: { accepts: ['key'] },
  limits: { perCredential: MESSAGES_PER_KEY_PER_MINUTE, credentialGroup: 'mcp' },
} as const;

/** A refused credential names the scheme to use (RFC 6750), as MCP clients expect. */
function challengeOnRefusal(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
) {
  if (reply.statusCode === 401) reply.header('www-authenticate', 'Bearer realm="touchtrail"');
  done(null, payload);
}

/** The outer request as the transport reads it: method, the MCP headers, and no credentials. */
function transportRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(`${IN_PROCESS_ORIGIN}${MCP_PATH}`, { method: 'POST', headers });
}

export function registerMcpRoutes(app: FastifyInstance): void {
  app.post(
    MCP_PATH,
    {
      config: MCP_CONFIG,
      schema: { hide: true },
      onSend: challengeOnRefusal,
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const apiKey = bearerToken(request) ?? '';
      const client = createClient({
        baseUrl: IN_PROCESS_ORIGIN,
        apiKey,
        fetch: createInjectFetch(app, { remoteAddress: request.ip, requestId: request.id }),
        // A 429 from a route goes back to the agent at once, with its message, not after a wait.
        maxRetries: 0,
      });
      const { answerMcpRequest } = await loadToolSet();
      const answer = await answerMcpRequest({
        client,
        scopes: scopesOf(principal),
        request: transportRequest(request),
        body: request.body,
      });
      reply.code(answer.status);
      answer.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      return reply.send(answer.body === null ? null : await answer.text());
    },
  );

  const notOffered = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.code(405).header('allow', 'POST').send({
      error: 'method_not_allowed',
      message: 'This MCP endpoint is stateless: POST JSON-RPC messages; it offers no event stream or session',
    });
  app.get(MCP_PATH, { schema: { hide: true } }, notOffered);
  app.delete(MCP_PATH, { schema: { hide: true } }, notOffered);
}
