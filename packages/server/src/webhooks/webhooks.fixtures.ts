/**
 * Real HTTPS receivers for the webhook tests. A throwaway certificate authority is made with
 * `openssl` at run time; receivers serve a leaf it signed for localhost and 127.0.0.1, and the
 * app trusts the CA through NODE_EXTRA_CA_CERTS (passed to its config, as an operator would).
 * A "rogue" receiver serves a self-signed certificate the app must refuse.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';

export interface TestPki {
  caFile: string;
  leaf: { key: string; cert: string };
  rogue: { key: string; cert: string };
  remove(): void;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
const SAN = 'subjectAltName=DNS:localhost,IP:127.0.0.1';

/** Where the CA certificate of a PKI made in `dir` is. */
export const pkiCaFile = (dir: string) => path.join(dir, 'ca.pem');

/**
 * A CA, a leaf signed by it and a self-signed impostor, in `dir` (made here; a fresh temporary
 * folder unless given, so a caller can name the CA file before the PKI exists).
 */
export function createTestPki(dir = mkdtempSync(path.join(tmpdir(), 'touchtrail-pki-'))): TestPki {
  mkdirSync(dir, { recursive: true });
  const file = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Touchtrail Test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl('req', ...EC_KEY, '-keyout', 'leaf.key', '-out', 'leaf.csr', '-subj', '/CN=localhost');
  writeFileSync(file('leaf.ext'), `${SAN}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
  openssl(
    'x509',
    '-req',
    '-in',
    'leaf.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'leaf.pem',
    '-days',
    '2',
    '-extfile',
    'leaf.ext',
  );
  openssl(
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    'rogue.key',
    '-out',
    'rogue.pem',
    '-days',
    '2',
    '-subj',
    '/CN=localhost',
    '-addext',
    SAN,
  );
  const read = (name: string) => readFileSync(file(name), 'utf8');
  return {
    caFile: pkiCaFile(dir),
    leaf: { key: read('leaf.key'), cert: read('leaf.pem') },
    rogue: { key: read('rogue.key'), cert: read('rogue.pem') },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

export type ReceiverHandler = (request: ReceivedRequest, response: ServerResponse, index: number) => void;

export interface TestReceiver {
  /** `https://127.0.0.1:port/hook` (an IP literal; `urlWithHost('localhost')` for the DNS path). */
  url: string;
  urlWithHost(host: string): string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** An HTTPS receiver on 127.0.0.1 answering through `handler` (default: 204). */
export async function startReceiver(
  tls: { key: string; cert: string },
  handler: ReceiverHandler = (_request, response) => response.writeHead(204).end(),
): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer(tls, (incoming: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request = { headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      handler(request, response, requests.length - 1);
    });
  });
  // TLS handshakes the client refuses end in socket errors here; they are expected.
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/hook`,
    urlWithHost: (host) => `https://${host}:${port}/hook`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers `status` with `body`, and optional headers. */
export const answer =
  (status: number, body = '', headers: Record<string, string> = {}): ReceiverHandler =>
  (_request, response) =>
    response.writeHead(status, headers).end(body);

/**
 * What a save-time URL check says: the accepted URL, or the refusal's message after checking it
 * is the webhooks area's 422 naming `url`.
 */
export async function urlCheckVerdict(
  check: Promise<string>,
): Promise<{ accepted: string } | { refused: string }> {
  try {
    return { accepted: await check };
  } catch (error) {
    const { status, details, message } = error as {
      status: number;
      details: { field?: string };
      message: string;
    };
    expect(status).toBe(422);
    expect(details.field).toBe('url');
    return { refused: message };
  }
}
