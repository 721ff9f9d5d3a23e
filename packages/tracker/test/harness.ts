/**
 * Browser-test harness: one node:http server on 127.0.0.1 that plays both the ingest origin
 * (t.js and /v1/collect) and the sites (test pages), and a headless Chromium whose resolver
 * maps *.touchtrail.test to it, so pages live on a real registrable domain that cookies can
 * be scoped to while t.js comes from another origin, as in production.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';

export type Payload = Record<string, unknown>;

export interface CollectRequest {
  method: string;
  headers: IncomingHttpHeaders;
  payload: Payload;
}

export interface PageOptions {
  site?: string;
  cookieDomain?: string;
  /** Origin t.js is loaded from; the ingest origin by default. */
  scriptOrigin?: string;
  /** Markup placed before the tracker's script tag (stubs, environment overrides). */
  head?: string;
  /** Replaces the standard tracker tag entirely. */
  scriptTag?: string;
}

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--host-resolver-rules=MAP *.touchtrail.test 127.0.0.1',
];

export function newSiteKey(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  return `ttid_${Array.from(randomBytes(22), (byte) => alphabet[byte % alphabet.length]).join('')}`;
}

export async function waitFor<T>(probe: () => T | Promise<T>, timeoutMs = 5000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${probe}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startHarness() {
  const script = readFileSync(new URL('../dist/t.js', import.meta.url), 'utf8').replace(
    '__TT_COLLECT_PATH__',
    '/v1/collect',
  );
  const pages = new Map<string, string>();
  const requests: CollectRequest[] = [];
  /** Sites whose collect answer is held back, or whose connection is cut. */
  const slowSites = new Set<string>();
  const failingSites = new Set<string>();
  /** The collect answer's body per site, when not the default. */
  const answers = new Map<string, string>();

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/t.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' });
      res.end(script);
      return;
    }
    if (url.pathname === '/v1/collect') {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        let payload: Payload = {};
        try {
          payload = JSON.parse(body);
        } catch {
          // an OPTIONS preflight, or a broken body the assertions will notice
        }
        requests.push({ method: req.method ?? '', headers: req.headers, payload });
        const site = String(payload.site);
        if (failingSites.has(site)) {
          res.socket?.destroy();
          return;
        }
        const answer = () => {
          res.writeHead(req.method === 'POST' ? 202 : 204, {
            'content-type': 'application/json',
            'access-control-allow-origin': '*',
          });
          res.end(req.method === 'POST' ? (answers.get(site) ?? '{"accepted":true}') : '');
        };
        if (slowSites.has(site)) setTimeout(answer, 1500);
        else answer();
      });
      return;
    }
    const page = pages.get(url.pathname.split('/')[2] ?? '');
    if (url.pathname.startsWith('/p/') && page) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const browser: Browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });

  const ingestOrigin = `http://127.0.0.1:${port}`;
  const siteOrigin = `http://www.touchtrail.test:${port}`;

  return {
    browser,
    port,
    ingestOrigin,
    siteOrigin,
    requests,
    slowSites,
    failingSites,
    answers,
    /** Registers a page; returns its URL (any path below it serves the same page). */
    addPage(options: PageOptions, origin = siteOrigin): string {
      const id = String(pages.size + 1);
      const attributes = [
        options.site === undefined ? '' : ` data-site="${options.site}"`,
        options.cookieDomain ? ` data-cookie-domain="${options.cookieDomain}"` : '',
      ].join('');
      const tag =
        options.scriptTag ??
        `<script defer src="${options.scriptOrigin ?? ingestOrigin}/t.js"${attributes} onload="window.__ttLoaded = true"></script>`;
      pages.set(
        id,
        `<!doctype html><html><head><title>Test ${id}</title>${options.head ?? ''}${tag}</head><body><p>page ${id}</p></body></html>`,
      );
      return `${origin}/p/${id}/start`;
    },
    /** Payloads POSTed for one site, in arrival order. */
    payloads(site: string, type?: string): Payload[] {
      return requests
        .filter((r) => r.method === 'POST' && r.payload.site === site && (!type || r.payload.type === type))
        .map((r) => r.payload);
    },
    /** Waits until at least `count` payloads of `type` arrived for `site`; returns them all. */
    async arrived(site: string, type: string, count = 1): Promise<Payload[]> {
      return waitFor(() => {
        const found = requests
          .filter((r) => r.method === 'POST' && r.payload.site === site && r.payload.type === type)
          .map((r) => r.payload);
        return found.length >= count ? found : undefined;
      });
    },
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type Harness = Awaited<ReturnType<typeof startHarness>>;
