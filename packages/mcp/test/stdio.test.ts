/**
 * `node dist/stdio-main.js` and `touchtrail mcp` with the MCP SDK's own client over stdio,
 * against the real server: the tool list follows the key's scopes, every tool answers what the
 * API answers, refusals come back as tool errors. A key the API refuses at start stops the
 * server (exit 2, one line on stderr), as does an unreachable server (exit 3): no tool could
 * answer, and the agent's host shows the line. A key revoked later gives tool errors.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentServer,
  READ_TOOLS,
  readToolCases,
  startAgentServer,
  WRITE_TOOLS,
} from '../../server/src/mcp/mcp.fixtures.js';

const STDIO_MAIN = fileURLToPath(new URL('../dist/stdio-main.js', import.meta.url));
/** The same tool set as the command-line client starts it: `touchtrail mcp`. */
const CLI_MCP = [fileURLToPath(new URL('../../cli/bin/touchtrail.js', import.meta.url)), 'mcp'];
const run = promisify(execFile);

type ToolAnswer = Awaited<ReturnType<Client['callTool']>>;
const textOf = (answer: ToolAnswer) => (answer.content as { type: string; text: string }[])[0]?.text ?? '';
const jsonOf = (answer: ToolAnswer) => JSON.parse(textOf(answer));

describe('the agent tool set over stdio', () => {
  let server: AgentServer;
  const clients: Client[] = [];

  async function spawnTools(apiKey: string, args = [STDIO_MAIN]): Promise<Client> {
    const client = new Client({ name: 'touchtrail-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      env: { TOUCHTRAIL_URL: server.baseUrl, TOUCHTRAIL_API_KEY: apiKey },
      stderr: 'pipe',
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  /** Starts the stdio server with nothing on stdin and waits for it to exit. */
  async function startAndExit(env: Record<string, string>) {
    const child = run(process.execPath, [STDIO_MAIN], { env: { PATH: process.env.PATH ?? '', ...env } });
    child.child.stdin?.end();
    return child.then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
    );
  }

  beforeAll(async () => {
    server = await startAgentServer();
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server?.close();
  });

  it('lists the tools the key allows and answers each read tool as the API does', async () => {
    const [reader, writer] = await Promise.all([
      spawnTools(server.readerKey),
      spawnTools(server.writerKey, CLI_MCP),
    ]);
    const [read, written] = await Promise.all([reader.listTools(), writer.listTools()]);
    expect(read.tools.map((tool) => tool.name).sort()).toEqual(READ_TOOLS);
    expect(written.tools.map((tool) => tool.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());

    const sessions = await server.api(server.readerKey, {
      method: 'GET',
      url: '/v1/sessions',
      query: { site_id: server.site.snippetKey },
    });
    const sessionId = (sessions.body.sessions as { id: string }[])[0]?.id ?? '';
    for (const toolCase of readToolCases(server.site, sessionId)) {
      const [tool, api] = await Promise.all([
        reader.callTool({ name: toolCase.tool, arguments: toolCase.args }),
        server.api(server.readerKey, toolCase.request),
      ]);
      expect(tool.isError, `${toolCase.tool}: ${textOf(tool)}`).toBeFalsy();
      toolCase.check(jsonOf(tool), api.body);
    }

    const created = await writer.callTool({
      name: 'create_goal',
      arguments: { site_id: server.site.snippetKey, name: 'trial_started' },
    });
    expect(jsonOf(created).goal).toMatchObject({ name: 'trial_started' });
  });

  it("answers the API's refusals as tool errors, and a key revoked meanwhile too", async () => {
    const revokedLater = await server.mintKey(['stats:read']);
    const tools = await spawnTools(revokedLater.api_key);
    const unknown = await tools.callTool({
      name: 'get_site',
      arguments: { site_id: 'ttid_0000000000000000000000' },
    });
    expect(unknown.isError).toBe(true);
    expect(jsonOf(unknown)).toEqual({ error: { status: 404, code: 'not_found', message: 'Site not found' } });

    await server.revoke(revokedLater.id);
    const refused = await tools.callTool({ name: 'list_sites', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(jsonOf(refused)).toEqual({
      error: { status: 401, code: 'unauthorized', message: 'Missing or invalid credentials' },
    });
  });

  it('refuses to start with a revoked key or an unreachable server, saying why in one line, and ends with its input', async () => {
    const [done, revoked, unreachable, unset] = await Promise.all([
      startAndExit({ TOUCHTRAIL_URL: server.baseUrl, TOUCHTRAIL_API_KEY: server.readerKey }),
      server
        .revokedKey()
        .then((key) => startAndExit({ TOUCHTRAIL_URL: server.baseUrl, TOUCHTRAIL_API_KEY: key })),
      startAndExit({ TOUCHTRAIL_URL: 'http://127.0.0.1:9', TOUCHTRAIL_API_KEY: server.readerKey }),
      startAndExit({}),
    ]);
    // With a good key it serves until its input ends, then exits cleanly.
    expect(done).toEqual({ code: 0, stderr: '' });
    expect(revoked).toEqual({
      code: 2,
      stderr: 'touchtrail-mcp: the API refused the key (401): Missing or invalid credentials\n',
    });
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toMatch(
      /^touchtrail-mcp: Could not reach http:\/\/127\.0\.0\.1:9\/v1\/account\/keys\/current: .+; check TOUCHTRAIL_URL\n$/,
    );
    expect(unset).toEqual({ code: 1, stderr: 'touchtrail-mcp: set TOUCHTRAIL_URL and TOUCHTRAIL_API_KEY\n' });
    for (const outcome of [revoked, unreachable]) expect(outcome.stderr).not.toContain(server.readerKey);
  });
});
