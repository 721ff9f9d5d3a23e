/**
 * The typed client: openapi-fetch over the paths of the committed OpenAPI document, with the
 * API key, a user agent and the retrying fetch; `unwrap` turns an answer into its data or a
 * thrown `TouchtrailApiError`.
 */
import createFetchClient, { type Client } from 'openapi-fetch';
import { TouchtrailApiError } from './errors.js';
import type { paths } from './openapi.js';
import { retryingFetch } from './retrying-fetch.js';

export interface ClientOptions {
  /** The server's PUBLIC_URL, without `/v1`. */
  baseUrl: string;
  /** An API key (`tk_live_…`), sent as a bearer token. */
  apiKey?: string;
  /** Sends each request; tests and the server's in-process calls pass their own. */
  fetch?: (request: Request) => Promise<Response>;
  /** Further attempts of an idempotent call after a network error, 429, 502, 503 or 504. Default 2. */
  maxRetries?: number;
  /** Time allowed for each attempt, in milliseconds. Default 30 000. */
  timeoutMs?: number;
  userAgent?: string;
}

export type TouchtrailClient = Client<paths>;

export const CLIENT_VERSION = '0.1.0';

export function createClient(options: ClientOptions): TouchtrailClient {
  const baseFetch = options.fetch ?? ((request: Request) => fetch(request));
  return createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: {
      'user-agent': options.userAgent ?? `touchtrail-client/${CLIENT_VERSION}`,
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    },
    fetch: retryingFetch({
      fetch: baseFetch,
      maxRetries: options.maxRetries ?? 2,
      timeoutMs: options.timeoutMs ?? 30_000,
    }),
  });
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The answer's data (undefined for 204), or a `TouchtrailApiError` carrying the error body. */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new TouchtrailApiError(response.status, error, response.statusText);
  return data as T;
}
