/**
 * The Touchtrail tool set as an MCP server. Which tools are listed follows the key's scopes:
 * reports need `stats:read`, the tools that change settings `config:write`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { TouchtrailClient } from '@touchtrail/client';
import { createToolSet, type Scope } from './tool-kit.js';
import { addAiTools } from './tools/ai.js';
import { addFunnelTools } from './tools/funnels.js';
import { addGoalReportTools } from './tools/goal-reports.js';
import { addGoalTools } from './tools/goals.js';
import { addPeopleTools } from './tools/people.js';
import { addRevenueTools } from './tools/revenue.js';
import { addSiteTools } from './tools/sites.js';
import { addStatsTools } from './tools/stats.js';
import { addWebhookTools } from './tools/webhooks.js';

export const MCP_SERVER_VERSION = '0.1.0';

const INSTRUCTIONS =
  'Touchtrail is web analytics with AI assistants as a first-class traffic source. Every tool takes a ' +
  'site by its snippet key (`site_id`, ttid_…): call list_sites first if you do not know it. query_stats ' +
  'answers most questions (visitors, channels, AI assistants, pages, conversions, revenue). Each answer ' +
  'names the units of its numbers in `units`; money is in the site currency, in minor or major units as ' +
  'stated. Days are YYYY-MM-DD.';

export interface TouchtrailMcpServerOptions {
  /** Calls the API with the agent's key. */
  client: TouchtrailClient;
  /** The key's scopes: decide which tools are listed. */
  scopes: readonly Scope[];
}

export function createTouchtrailMcpServer({ client, scopes }: TouchtrailMcpServerOptions): McpServer {
  const server = new McpServer(
    { name: 'touchtrail', title: 'Touchtrail', version: MCP_SERVER_VERSION },
    { instructions: INSTRUCTIONS },
  );
  const tools = createToolSet(server, client, scopes);
  addSiteTools(tools);
  addStatsTools(tools);
  addGoalTools(tools);
  addGoalReportTools(tools);
  addPeopleTools(tools);
  addFunnelTools(tools);
  addRevenueTools(tools);
  addAiTools(tools);
  addWebhookTools(tools);
  return server;
}
