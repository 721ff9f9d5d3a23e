/**
 * Checks the constructor's options once, so a wrong key or address fails at start-up rather
 * than on the first payment. Messages never repeat the key, even a wrong one.
 */
import { TouchtrailError } from './errors.js';
import type { RequestSettings } from './request.js';
import type { TouchtrailOptions } from './types.js';

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RETRIES = 2;
/** The prefix, then printable characters only: a stray newline or space would break the header. */
const API_KEY_SHAPE = /^tk_live_[\x21-\x7e]+$/;

/** An `invalid_options` error; the crawler reporter checks its options with it too. */
export const invalid = (message: string) =>
  new TouchtrailError(`Touchtrail: ${message}`, { code: 'invalid_options' });

export function readOptions(options: TouchtrailOptions): RequestSettings {
  if (typeof options?.apiKey !== 'string' || !API_KEY_SHAPE.test(options.apiKey)) {
    throw invalid(
      'apiKey must be an API key starting with tk_live_ with the ingest:write permission ' +
        '(bot tokens, tt_bot_, are for the crawler middleware only)',
    );
  }
  return {
    apiKey: options.apiKey,
    baseUrl: readEndpoint(options.endpoint),
    timeoutMs: readNumber('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS, 1),
    maxRetries: readNumber('maxRetries', options.maxRetries, DEFAULT_MAX_RETRIES, 0),
    // Looked up per call, so a fetch replaced after construction (a test mock, say) is used.
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
  };
}

/**
 * An http(s) address; a trailing slash is dropped and a path prefix kept (a server behind a proxy
 * at `https://example.com/touchtrail`). The crawler reporter reads its endpoint the same way.
 */
export function readEndpoint(endpoint: unknown): string {
  const url = typeof endpoint === 'string' && URL.canParse(endpoint) ? new URL(endpoint) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash) {
    throw invalid('endpoint must be an http or https address, e.g. https://stats.example.com');
  }
  if (url.username || url.password) throw invalid('endpoint must not carry a user name or password');
  return url.href.replace(/\/+$/, '');
}

function readNumber(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) throw invalid(`${name} must be an integer of at least ${min}`);
  return value;
}
