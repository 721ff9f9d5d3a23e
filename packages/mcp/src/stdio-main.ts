#!/usr/bin/env node
/**
 * Runs the tool set over stdio with TOUCHTRAIL_URL and TOUCHTRAIL_API_KEY from the environment
 * (`node packages/mcp/dist/stdio-main.js`); `touchtrail mcp` does the same with the CLI's profiles.
 * A refused key or an unreachable server ends the process with one line on stderr.
 */
import { TouchtrailApiError, TouchtrailNetworkError } from '@touchtrail/client';
import { runStdioServer } from './stdio.js';

const baseUrl = process.env.TOUCHTRAIL_URL;
const apiKey = process.env.TOUCHTRAIL_API_KEY;

if (!baseUrl || !apiKey) {
  process.stderr.write('touchtrail-mcp: set TOUCHTRAIL_URL and TOUCHTRAIL_API_KEY\n');
  process.exit(1);
}

try {
  await runStdioServer({ baseUrl, apiKey });
} catch (error) {
  if (error instanceof TouchtrailApiError) {
    process.stderr.write(`touchtrail-mcp: the API refused the key (${error.status}): ${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof TouchtrailNetworkError) {
    process.stderr.write(`touchtrail-mcp: ${error.message}; check TOUCHTRAIL_URL\n`);
    process.exit(3);
  }
  process.stderr.write('touchtrail-mcp: could not start the tool set\n');
  process.exit(1);
}
