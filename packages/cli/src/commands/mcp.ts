/** `touchtrail mcp`: the agent tool set over stdio, for local agents (Claude Desktop, editors). */
import type { Command } from 'commander';
import { action } from '../context.js';
import { UsageError } from '../errors.js';
import { example } from '../options.js';

export function registerMcp(program: Command) {
  program
    .command('mcp')
    .description('Run the Touchtrail MCP server over stdio with the configured URL and key')
    .addHelpText(
      'after',
      `${example('touchtrail mcp --profile default')}\nIn an agent's MCP settings: {"command": "npx", "args": ["touchtrail", "mcp"]}\n`,
    )
    .action(
      action(async (ctx) => {
        const { url, apiKey } = ctx.settings;
        if (!apiKey) throw new UsageError('no API key', 'Run touchtrail login or set TOUCHTRAIL_API_KEY.');
        // Loaded here so other commands do not pay for the MCP SDK at start-up.
        const { runStdioServer } = await import('@touchtrail/mcp');
        await runStdioServer({ baseUrl: url, apiKey });
      }),
    );
}
