/**
 * `touchtrail mcp`: the tool set over stdio for a local agent. The key's scopes are read from the
 * API once at start (GET /v1/account/keys/current); a key the API refuses (revoked, expired,
 * mistyped) or a server that cannot be reached stops the start with that error, since no tool
 * could answer. A key revoked later makes each tool answer a tool error with the API's message.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createClient, unwrap } from '@touchtrail/client';
import { createTouchtrailMcpServer } from './server.js';

export interface StdioServerOptions {
  /** The server's PUBLIC_URL, without /v1. */
  baseUrl: string;
  /** A `tk_live_` API key. */
  apiKey: string;
}

/**
 * Serves the tools on stdin/stdout until stdin closes. Throws `TouchtrailApiError` when the key
 * is refused and `TouchtrailNetworkError` when the server cannot be reached, before serving.
 */
export async function runStdioServer({ baseUrl, apiKey }: StdioServerOptions): Promise<void> {
  const client = createClient({ baseUrl, apiKey, userAgent: 'touchtrail-mcp/0.1.0' });
  const key = await unwrap(client.GET('/v1/account/keys/current'));
  const server = createTouchtrailMcpServer({ client, scopes: key.scopes });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await server.connect(transport);
  process.stdin.once('end', () => void server.close());
  await closed;
}
