/**
 * One request of the streamable HTTP transport in stateless mode, for a server that mounts the
 * tool set (Touchtrail's own `/mcp`): a new MCP server and transport per request, answers as JSON
 * rather than an event stream, closed once the answer is ready. The caller authenticates the
 * request and passes the key's client and scopes.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createTouchtrailMcpServer, type TouchtrailMcpServerOptions } from './server.js';

export interface McpHttpRequest extends TouchtrailMcpServerOptions {
  /** The HTTP request (its method, URL and headers: Accept, Content-Type, Mcp-Protocol-Version). */
  request: Request;
  /** Its JSON body, already parsed. */
  body: unknown;
}

/** The answer to one POST of JSON-RPC messages. */
export async function answerMcpRequest({ client, scopes, request, body }: McpHttpRequest): Promise<Response> {
  const server = createTouchtrailMcpServer({ client, scopes });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body });
    // Read before closing: closing the transport ends whatever it has not handed over yet.
    const text = response.body === null ? null : await response.text();
    return new Response(text, { status: response.status, headers: response.headers });
  } finally {
    await server.close();
  }
}
