/** Sending: the requests of one seed, `concurrency` at a time, each answer classified and tallied. */
import http from 'node:http';
import { HOST } from '../lib.mjs';
import { classify, describeRequest } from './classify.mjs';
import { buildRequest } from './requests.mjs';

const MAX_BODY_READ = 256 * 1024;

function send(port, request, agent, timeoutMs, isRetry = false) {
  return new Promise((resolve) => {
    let settled = false;
    let timer;
    const done = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    let outgoing;
    try {
      outgoing = http.request({
        host: HOST,
        port,
        method: request.method,
        path: request.target,
        headers: request.headers,
        agent,
      });
    } catch (error) {
      done({ error: 'not sendable', detail: error.code ?? error.message });
      return;
    }
    timer = setTimeout(() => {
      outgoing.destroy();
      done({ error: 'timeout' });
    }, timeoutMs);
    outgoing.on('response', (response) => {
      const chunks = [];
      let size = 0;
      response.on('data', (chunk) => {
        if (size < MAX_BODY_READ) chunks.push(chunk);
        size += chunk.length;
      });
      response.on('end', () =>
        done({
          status: response.statusCode,
          headers: response.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', (error) => done({ error: 'no answer', detail: error.code ?? error.message }));
    });
    outgoing.on('error', (error) => {
      // A kept-alive socket the server closed between requests: the request never reached it.
      if (outgoing.reusedSocket && error.code === 'ECONNRESET' && !isRetry && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve(send(port, request, agent, timeoutMs, true));
        return;
      }
      done({ error: 'no answer', detail: error.code ?? error.message });
    });
    outgoing.end(request.body);
  });
}

export async function fuzz(server, fx, operations, options) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const stats = {
    sent: 0,
    retried: 0,
    byOperation: new Map(),
    byClass: {},
    byStatus: {},
    findings: new Map(),
    bySentId: new Map(),
  };
  const deadline = Date.now() + options.maxSeconds * 1000;
  const indexes = options.only === undefined ? null : [options.only];
  let next = 0;
  let lastReport = Date.now();
  const record = (request, result) => {
    stats.sent += 1;
    const statusClass = result.error ?? `${String(result.status)[0]}xx`;
    stats.byClass[statusClass] = (stats.byClass[statusClass] ?? 0) + 1;
    if (result.status) stats.byStatus[result.status] = (stats.byStatus[result.status] ?? 0) + 1;
    const perOperation = stats.byOperation.get(request.op) ?? { sent: 0, ok: 0 };
    perOperation.sent += 1;
    if (result.status >= 200 && result.status < 300) perOperation.ok += 1;
    stats.byOperation.set(request.op, perOperation);
    const described = describeRequest(request);
    // Kept for the log check; the request itself can hold a megabyte of body.
    stats.bySentId.set(result.headers?.['x-request-id'] ?? `fz-${request.index}`, {
      described,
      status: result.status,
    });
    for (const kind of classify(request, result, fx)) {
      const answer = `${result.status ?? result.error} ${(result.body ?? '').slice(0, 200)}`;
      const entry = stats.findings.get(kind) ?? { count: 0, example: { ...described, answer } };
      entry.count += 1;
      stats.findings.set(kind, entry);
    }
    if (Date.now() - lastReport > 30_000) {
      lastReport = Date.now();
      process.stderr.write(`  ${stats.sent} requests, ${stats.findings.size} kinds of finding so far\n`);
    }
  };
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      for (;;) {
        const index = indexes ? indexes.shift() : next < options.requests ? next++ : undefined;
        if (index === undefined || Date.now() > deadline || server.exitedEarly) return;
        const request = { ...buildRequest(fx, operations, options.seed, index), seed: options.seed };
        let result = await send(server.port, request, agent, options.timeoutMs);
        // A connection closed under a request (the server answers early and drops a body it will
        // not read) is tried once more on a connection of its own before it counts.
        if (result.error === 'no answer') {
          stats.retried += 1;
          result = await send(server.port, request, false, options.timeoutMs);
        }
        record(request, result);
      }
    }),
  );
  agent.destroy();
  stats.timedOut = next < options.requests && options.only === undefined;
  return stats;
}
