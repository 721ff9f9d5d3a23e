/**
 * `npm start`'s console, from the compiled server as an operator runs it: by default it shows
 * the start-up lines and the setup token, warnings and errors, and no line per request, so the
 * token stays on screen; `LOG_LEVEL=info` adds the request lines.
 */
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareServerProcess, type ServerProcess } from '../test/server-process.js';

const servers: ServerProcess[] = [];
afterAll(() => Promise.all(servers.map((server) => server.cleanUp())));

/** Starts a server, sends a few requests (answered 200, 401 and 404), stops it; its whole stdout. */
async function consoleOf(label: string, env: Record<string, string>): Promise<string> {
  const server = await prepareServerProcess(label, env);
  servers.push(server);
  let stdout = '';
  const child = await server.start({
    onStdout: (text) => {
      stdout += text;
    },
  });
  const closed = once(child.stdout as NodeJS.ReadableStream, 'close');
  for (const path of ['/healthz', '/v1/sites', '/no-such-page.json', '/v1/nothing-here']) {
    await (await fetch(`${server.base}${path}`)).arrayBuffer();
  }
  expect(await server.kill(child, 'SIGTERM')).toBe(0);
  await closed;
  return stdout;
}

describe('the console of npm start', () => {
  it('by default shows the start-up lines and the setup token, and nothing per request', async () => {
    // Empty counts as unset: the default level, and a generated setup token.
    const stdout = await consoleOf('quiet-console', { LOG_LEVEL: '', SETUP_TOKEN: '' });
    expect(stdout).toContain('Touchtrail is serving');
    expect(stdout).toMatch(/one-time setup token:\n\n {2}[0-9a-f]{40}\n/);
    expect(stdout).toContain('shutting down');
    expect(stdout).not.toContain('"reqId"');
    expect(stdout).not.toContain('/healthz');
    expect(stdout).not.toContain('/v1/sites');
  }, 300_000);

  it('with LOG_LEVEL=info adds a line per request', async () => {
    const stdout = await consoleOf('request-console', { LOG_LEVEL: 'info' });
    expect(stdout).toContain('Touchtrail is serving');
    const requestLines = stdout.split('\n').filter((line) => line.includes('"reqId"'));
    for (const path of ['/healthz', '/v1/sites', '/v1/nothing-here'])
      expect(requestLines.some((line) => line.includes(`"path":"${path}"`))).toBe(true);
  }, 300_000);
});
