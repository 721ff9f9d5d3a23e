/**
 * One HTTP attempt of a webhook, over undici 7. The whole exchange (connect, TLS, headers and
 * body) shares one deadline, `AbortSignal.timeout`, so a receiver dripping its body cannot hold
 * a worker; redirects are never followed (undici follows none without its redirect
 * interceptor); at most 1 KB of the response is read. Connections are pinned to the address
 * that passed the SSRF check by the guarded lookup; IP-literal hosts are checked here.
 * Certificates are verified against Node's bundled roots plus `extraCa` (NODE_EXTRA_CA_CERTS).
 */
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent } from 'undici';
import { blockedRange, ipLiteralOf } from './address-policy.js';
import { createGuardedLookup } from './guarded-lookup.js';
import { describeRange } from './webhook-url.js';

export const DELIVERY_TIMEOUT_MS = 10_000;
export const RESPONSE_SNIPPET_BYTES = 1024;

export interface AttemptResult {
  /** A 2xx answered in full within the deadline. */
  ok: boolean;
  /** HTTP status of the response, null when none arrived. */
  status: number | null;
  latencyMs: number;
  /** Up to 1 KB of the response body as text. */
  snippet: string;
  /** Why the attempt failed, null when it succeeded. */
  error: string | null;
  /** What a 429 or 503 asked for in Retry-After, in milliseconds. */
  retryAfterMs: number | null;
}

export interface TransportOptions {
  /** Test-only: lets loopback and private addresses through. */
  allowPrivateTargets: boolean;
  /** PEM certificates trusted in addition to Node's bundled roots. */
  extraCa?: string;
  timeoutMs?: number;
}

export interface Transport {
  post(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult>;
  close(): Promise<void>;
}

export function createTransport(options: TransportOptions): Transport {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const agent = new Agent({
    connect: {
      lookup: createGuardedLookup(options.allowPrivateTargets),
      timeout: timeoutMs,
      // Built once: a `ca` list in the options would be parsed again for every connection.
      ...(options.extraCa
        ? { secureContext: createSecureContext({ ca: [...rootCertificates, options.extraCa] }) }
        : {}),
    },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  async function post(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const target = new URL(url);
    const literal = ipLiteralOf(target.hostname);
    const range = literal && !options.allowPrivateTargets ? blockedRange(literal) : null;
    if (range) {
      const error = `refused: ${literal} is a ${describeRange(range)} address`;
      return { ok: false, status: null, latencyMs: 0, snippet: '', error, retryAfterMs: null };
    }
    const signal = AbortSignal.timeout(timeoutMs);
    let status: number | null = null;
    let retryAfterMs: number | null = null;
    try {
      const response = await agent.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'POST',
        headers,
        body,
        signal,
      });
      status = response.statusCode;
      if (status === 429 || status === 503) retryAfterMs = parseRetryAfter(response.headers['retry-after']);
      const snippet = await readSnippet(response.body);
      const ok = status >= 200 && status < 300;
      const location = response.headers.location;
      const error = ok
        ? null
        : describeStatus(status, snippet, typeof location === 'string' ? location : null);
      return { ok, status, latencyMs: elapsed(), snippet, error, retryAfterMs };
    } catch (error) {
      // undici's own timers share the deadline and can fire a few ms before the signal does.
      const message =
        signal.aborted || DEADLINE_CODES.has((error as { code?: string }).code ?? '')
          ? `no complete response within ${timeoutMs / 1000} s`
          : describeError(error);
      return { ok: false, status, latencyMs: elapsed(), snippet: '', error: message, retryAfterMs };
    }
  }

  return { post, close: () => agent.close() };
}

/** Reads at most RESPONSE_SNIPPET_BYTES and drops the rest with the connection. */
async function readSnippet(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_SNIPPET_BYTES) break;
  }
  return cleanText(Buffer.concat(chunks).subarray(0, RESPONSE_SNIPPET_BYTES).toString('utf8'));
}

/** PostgreSQL text cannot hold NUL; other control characters are kept (JSON escapes them). */
const cleanText = (text: string) => text.replaceAll('\u0000', '');

function describeStatus(status: number, snippet: string, location: string | null): string {
  if (status >= 300 && status < 400) {
    return `HTTP ${status}: redirect${location ? ` to ${location.slice(0, 200)}` : ''} not followed`;
  }
  return snippet ? `HTTP ${status}: ${snippet}` : `HTTP ${status}`;
}

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

const DEADLINE_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

function describeError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const text = cleanText(String(message ?? error)).slice(0, RESPONSE_SNIPPET_BYTES);
  if (code === 'EBLOCKEDADDRESS') return text;
  if (code && TLS_CODES.has(code)) return `TLS certificate rejected (${code}): ${text}`;
  return code ? `${code}: ${text}` : text;
}

/** Retry-After as seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs = Date.now()): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}
