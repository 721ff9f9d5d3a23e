/**
 * Slow and greedy clients against a real listening server (raw sockets; `inject` has none):
 * a body that never completes, headers that never end, an idle keep-alive connection, a slow
 * but legitimate 600 KB upload, and one address opening more connections than it may.
 */
import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { addSite, asKey } from '../sites/sites.fixtures.js';
import { bearer, type TestApp, useTestApp } from '../test/app.js';

/** How long a test waits for the server to act before calling it stuck (not a measured figure). */
const STUCK_AFTER_MS = 20_000;

interface Client {
  socket: net.Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves true once the server has closed the connection, false if it is still open after STUCK_AFTER_MS. */
  closed(): Promise<boolean>;
}

async function connect(port: number): Promise<Client> {
  const socket = net.connect({ host: '127.0.0.1', port });
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    text += chunk;
  });
  socket.on('error', () => {});
  const closing = new Promise<boolean>((resolve) => socket.once('close', () => resolve(true)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    socket,
    received: () => text,
    closed: () =>
      Promise.race([closing, new Promise<boolean>((resolve) => setTimeout(resolve, STUCK_AFTER_MS, false))]),
  };
}

/** Sends one request on the client and waits for a whole response (Content-Length bodies only). */
async function exchange(client: Client, request: string): Promise<string> {
  const before = client.received().length;
  client.socket.write(request);
  for (let waited = 0; waited < STUCK_AFTER_MS; waited += 10) {
    const text = client.received().slice(before);
    const [head, body = ''] = text.split('\r\n\r\n');
    const length = /content-length: (\d+)/i.exec(head ?? '')?.[1];
    if (length !== undefined && Buffer.byteLength(body) >= Number(length)) return text;
    if (client.socket.destroyed) return text;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return client.received().slice(before);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const portOf = (t: TestApp) => (t.app.server.address() as net.AddressInfo).port;
const HEALTH = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

describe('server timeouts', () => {
  const t = useTestApp({
    REQUEST_TIMEOUT_MS: '5000',
    HEADERS_TIMEOUT_MS: '500',
    KEEP_ALIVE_TIMEOUT_MS: '300',
  });
  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  });

  it('answers a body that never completes with 408 and closes the connection', async () => {
    const client = await connect(portOf(t));
    client.socket.write(
      'POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\n\r\n{"e',
    );
    expect(await client.closed(), 'connection still open').toBe(true);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(client.received().split('\r\n\r\n')[1] ?? '')).toEqual({
      error: 'request_timeout',
      message: expect.any(String),
    });
  });

  it('answers headers that never end with 408 and closes the connection', async () => {
    const client = await connect(portOf(t));
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(await client.closed(), 'connection still open').toBe(true);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a keep-alive connection left idle', async () => {
    const client = await connect(portOf(t));
    expect(await exchange(client, HEALTH)).toMatch(/^HTTP\/1\.1 200 /);
    expect(await client.closed(), 'connection still open').toBe(true);
  });

  it('takes a slow 600 KB upload that outlasts the headers timeout but not the request timeout', async () => {
    const site = await addSite(t, asKey(t.owner.apiKey), 'slow-upload.example');
    const bot = await t.request({
      method: 'POST',
      url: '/v1/account/bot-tokens',
      headers: bearer(t.owner.apiKey),
      payload: { site_id: site.site_id },
    });
    const hit = { user_agent: 'GPTBot/1.2', path: `/${'p'.repeat(3000)}` };
    const body = Buffer.from(JSON.stringify({ hits: Array.from({ length: 200 }, () => hit) }));
    expect(body.length).toBeGreaterThan(600_000);
    const client = await connect(portOf(t));
    client.socket.write(
      `POST /v1/crawler/hits HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${bot.json().plaintext_token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const pieces = 8;
    const size = Math.ceil(body.length / pieces);
    // Eight pieces 200 ms apart: 1.4 s in all, well past the 500 ms headers timeout.
    for (let i = 0; i < pieces - 1; i++) {
      client.socket.write(body.subarray(i * size, (i + 1) * size));
      await pause(200);
    }
    const response = await exchange(client, body.subarray((pieces - 1) * size).toString());
    expect(response).toMatch(/^HTTP\/1\.1 202 /);
    expect(JSON.parse(response.split('\r\n\r\n')[1] ?? '')).toEqual({ accepted: 200 });
    client.socket.destroy();
  });
});

describe('connections per address', () => {
  const t = useTestApp({ MAX_CONNECTIONS_PER_ADDRESS: '2' }, { owner: false });
  beforeAll(async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  });

  it('closes a connection over the bound at once, and takes one again after another closes', async () => {
    const first = await connect(portOf(t));
    const second = await connect(portOf(t));
    expect(await exchange(first, HEALTH)).toMatch(/^HTTP\/1\.1 200 /);
    expect(await exchange(second, HEALTH)).toMatch(/^HTTP\/1\.1 200 /);

    const third = await connect(portOf(t));
    third.socket.write(HEALTH);
    expect(await third.closed(), 'third connection still open').toBe(true);
    expect(third.received()).toBe('');

    first.socket.destroy();
    // The server learns of the close a moment later; a new connection is taken once it has.
    let answered = '';
    for (let attempt = 0; attempt < 50 && !answered.startsWith('HTTP/1.1 200'); attempt++) {
      const next = await connect(portOf(t));
      answered = await exchange(next, HEALTH);
      next.socket.destroy();
      if (!answered) await pause(20);
    }
    expect(answered).toMatch(/^HTTP\/1\.1 200 /);
    expect(await exchange(second, HEALTH)).toMatch(/^HTTP\/1\.1 200 /);
    second.socket.destroy();
  });
});
