/**
 * The built server for a fuzz run, with its stdout and stderr kept for the log check at the end,
 * and a local HTTPS receiver for the webhook pings it sends.
 */
import { once } from 'node:events';
import { createServer as createHttpsServer } from 'node:https';
import { createInterface } from 'node:readline';
import { HOST, startBuiltServer } from '../lib.mjs';
import { createTestPki } from '../test-pki.mjs';

/** The URL of one of the server's compiled modules, for the set-up to import. */
export const dist = (file) => new URL(`../../packages/server/dist/${file}`, import.meta.url).href;

/** Every line the server writes, in order, with the stream it came on. */
export function createLog() {
  const lines = [];
  return {
    lines,
    follow(stream, name) {
      createInterface({ input: stream }).on('line', (line) => lines.push({ stream: name, line }));
    },
  };
}

/**
 * lib.mjs's `startBuiltServer` with both output streams followed into `log`. `exitedEarly` turns
 * true when the server exits without `stop()`, so the run can end early and say so.
 */
export async function startServerWithLog(env, cleanups, log) {
  const keepOutput = (stdout, stderr) => {
    log.follow(stdout, 'stdout');
    log.follow(stderr, 'stderr');
  };
  const { child, baseUrl, stop } = await startBuiltServer(env, cleanups, [], { keepOutput });
  const server = { child, baseUrl, port: Number(new URL(baseUrl).port), exitedEarly: false };
  let isStopping = false;
  child.once('exit', () => {
    if (!isStopping) server.exitedEarly = true;
  });
  server.stop = () => {
    isStopping = true;
    return stop();
  };
  return server;
}

/** A local HTTPS receiver for webhook pings: the run sends nothing off this machine. */
export async function startReceiver(cleanups) {
  const pki = createTestPki();
  cleanups.add(() => pki.remove());
  const server = createHttpsServer(pki.leaf, (request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  server.listen(0, HOST);
  await once(server, 'listening');
  cleanups.add(() => new Promise((resolve) => server.close(resolve)));
  server.unref();
  return { caFile: pki.caFile, url: `https://${HOST}:${server.address().port}/hook` };
}
