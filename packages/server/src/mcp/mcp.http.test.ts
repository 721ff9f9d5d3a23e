/**
 * `/mcp` with the MCP SDK's own client over streamable HTTP: the tool list follows the key's
 * scopes, every tool answers what the API answers, API refusals come back as tool errors with the
 * API's message, and a revoked key is refused with 401 and a Bearer challenge.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../test/app.js';
import {
  type AgentServer,
  READ_TOOLS,
  readToolCases,
  startAgentServer,
  WRITE_TOOLS,
} from './mcp.fixtures.js';

type ToolAnswer = Awaited<ReturnType<Client['callTool']>>;
const textOf = (answer: ToolAnswer) => (answer.content as { type: string; text: string }[])[0]?.text ?? '';
const jsonOf = (answer: ToolAnswer) => JSON.parse(textOf(answer));

describe('the agent tool set at /mcp', () => {
  let server: AgentServer;
  const clients: Client[] = [];

  async function connect(apiKey: string): Promise<Client> {
    const client = new Client({ name: 'touchtrail-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', server.baseUrl), {
      requestInit: { headers: bearer(apiKey) },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    server = await startAgentServer();
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server?.close();
  });

  it('lists the reports for a stats:read key and the write tools only with config:write', async () => {
    const [reader, writer] = await Promise.all([connect(server.readerKey), connect(server.writerKey)]);
    const [read, written] = await Promise.all([reader.listTools(), writer.listTools()]);
    expect(read.tools.map((tool) => tool.name).sort()).toEqual(READ_TOOLS);
    expect(written.tools.map((tool) => tool.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    for (const tool of written.tools) {
      const isWrite = WRITE_TOOLS.includes(tool.name);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(!isWrite);
      expect(typeof tool.annotations?.destructiveHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.idempotentHint, tool.name).toBe('boolean');
      expect(tool.annotations?.openWorldHint, tool.name).toBe(tool.name === 'test_webhook');
    }
    expect(read.tools.map((tool) => tool.name)).not.toContain('reorder_goals');
  });

  it('answers every read tool with what the API answers for the same key', async () => {
    const reader = await connect(server.readerKey);
    const sessions = await server.api(server.readerKey, {
      method: 'GET',
      url: '/v1/sessions',
      query: { site_id: server.site.snippetKey },
    });
    const sessionId = (sessions.body.sessions as { id: string }[])[0]?.id ?? '';
    const cases = readToolCases(server.site, sessionId);
    const answers = await Promise.all(
      cases.map(async (toolCase) => ({
        toolCase,
        tool: await reader.callTool({ name: toolCase.tool, arguments: toolCase.args }),
        api: await server.api(server.readerKey, toolCase.request),
      })),
    );
    for (const { toolCase, tool, api } of answers) {
      expect(tool.isError, `${toolCase.tool}: ${textOf(tool)}`).toBeFalsy();
      expect(api.status, toolCase.tool).toBe(200);
      // Compact JSON: one line, no indentation.
      expect(textOf(tool)).not.toContain('\n');
      toolCase.check(jsonOf(tool), api.body);
    }
  });

  it('changes goals and site settings, and tests a webhook, with config:write', async () => {
    const writer = await connect(server.writerKey);
    const site_id = server.site.snippetKey;
    const created = jsonOf(
      await writer.callTool({
        name: 'create_goal',
        arguments: { site_id, name: 'demo_booked', emoji: '📅' },
      }),
    );
    expect(created.goal).toMatchObject({ name: 'demo_booked', emoji: '📅', site_id });
    const updated = jsonOf(
      await writer.callTool({
        name: 'update_goal',
        arguments: { site_id, goal_id: created.goal.id, display_name: 'Demos' },
      }),
    );
    expect(updated.goal).toMatchObject({ id: created.goal.id, display_name: 'Demos', emoji: '📅' });
    const archived = await writer.callTool({
      name: 'archive_goal',
      arguments: { site_id, goal_id: created.goal.id },
    });
    expect(jsonOf(archived)).toEqual({ archived: true, goal_id: created.goal.id });
    const goals = await server.api(server.readerKey, { method: 'GET', url: '/v1/goals', query: { site_id } });
    expect((goals.body.goals as { name: string }[]).map((goal) => goal.name)).not.toContain('demo_booked');

    const site = jsonOf(
      await writer.callTool({ name: 'update_site', arguments: { site_id, attribution_model: 'linear' } }),
    );
    expect(site.site).toMatchObject({ id: site_id, attribution_model: 'linear' });

    const pings = server.receiver.requests.length;
    const ping = jsonOf(
      await writer.callTool({ name: 'test_webhook', arguments: { site_id, webhook_id: server.webhookId } }),
    );
    expect(ping).toMatchObject({ ok: true, status_code: 204, verification_status: 'verified' });
    expect(server.receiver.requests).toHaveLength(pings + 1);
  });

  it("answers the API's refusals and bad arguments as tool errors", async () => {
    const [reader, writer] = await Promise.all([connect(server.readerKey), connect(server.writerKey)]);
    const unknownSite = await reader.callTool({
      name: 'get_site',
      arguments: { site_id: 'ttid_0000000000000000000000' },
    });
    expect(unknownSite.isError).toBe(true);
    expect(jsonOf(unknownSite)).toEqual({
      error: { status: 404, code: 'not_found', message: 'Site not found' },
    });

    const duplicate = await writer.callTool({
      name: 'create_goal',
      arguments: { site_id: server.site.snippetKey, name: 'signup' },
    });
    expect(duplicate.isError).toBe(true);
    expect(jsonOf(duplicate).error).toMatchObject({ status: 409, code: 'goal_exists' });

    const badRange = await reader.callTool({
      name: 'goal_timeseries',
      arguments: { site_id: server.site.snippetKey, from: '2026-01-10', to: '2026-01-01' },
    });
    expect(badRange.isError).toBe(true);
    expect(jsonOf(badRange).error).toMatchObject({ status: 422, code: 'validation_failed' });

    const badArguments = await reader.callTool({ name: 'list_goals', arguments: { site_id: 'my shop' } });
    expect(badArguments.isError).toBe(true);
    expect(textOf(badArguments)).toContain('snippet key');

    const writeWithReader = await reader.callTool({
      name: 'create_goal',
      arguments: { site_id: server.site.snippetKey, name: 'nope' },
    });
    expect(writeWithReader.isError).toBe(true);
    expect(textOf(writeWithReader)).toContain('not found');
  });

  it('refuses a revoked key with 401 and a Bearer challenge, and offers no GET or DELETE', async () => {
    const current = await server.api(server.readerKey, { method: 'GET', url: '/v1/account/keys/current' });
    expect(current.body).toMatchObject({ scopes: ['stats:read'], name: 'agent reader', revoked_at: null });
    const revokedKey = await server.revokedKey();
    await expect(connect(revokedKey)).rejects.toThrow();

    const post = (authorization?: string) =>
      fetch(new URL('/mcp', server.baseUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    for (const refused of [await post(`Bearer ${revokedKey}`), await post()]) {
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="touchtrail"');
      expect(await refused.json()).toEqual({
        error: 'unauthorized',
        message: 'Missing or invalid credentials',
      });
    }

    for (const method of ['GET', 'DELETE']) {
      const refused = await fetch(new URL('/mcp', server.baseUrl), {
        method,
        headers: bearer(server.readerKey),
      });
      expect(refused.status).toBe(405);
      expect(refused.headers.get('allow')).toBe('POST');
      expect(await refused.json()).toMatchObject({ error: 'method_not_allowed' });
    }
    // The key rides along on every in-process call; the log never shows it.
    expect(server.t.logs()).toContain('/v1/stats/query');
    expect(server.t.logs()).not.toContain(server.readerKey);
    expect(server.t.logs()).not.toContain(server.writerKey);
  });
});
