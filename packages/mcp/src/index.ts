/** The Touchtrail agent tool set: an MCP server over the Touchtrail API, for stdio and HTTP. */
export { answerMcpRequest, type McpHttpRequest } from './http.js';
export { createTouchtrailMcpServer, MCP_SERVER_VERSION, type TouchtrailMcpServerOptions } from './server.js';
export { runStdioServer, type StdioServerOptions } from './stdio.js';
export type { Scope } from './tool-kit.js';
