/**
 * The one way the dashboard speaks to the server: openapi-fetch over the paths the client
 * generates from the OpenAPI document, same-origin with the session cookie (or a shared view's
 * token). Every area answers errors in its own body shape (interface §7); `ApiError` reads the
 * words a person should see out of any of them. Only openapi-fetch is bundled: the client
 * package gives types, not its Node-side fetch.
 */
import type { paths } from '@touchtrail/client';
import createClient from 'openapi-fetch';
import type { UndocumentedPaths } from './undocumented-paths';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown> | null,
  ) {
    super(messageOf(status, body));
    this.name = 'ApiError';
  }

  /** The machine code of the error (`invalid_credentials`, `goal_exists`, …) when the body has one. */
  get code(): string | undefined {
    const { body } = this;
    if (typeof body?.code === 'string') return body.code;
    return typeof body?.error === 'string' ? body.error : undefined;
  }

  get field(): string | undefined {
    return typeof this.body?.field === 'string' ? this.body.field : undefined;
  }
}

/** The request never got an answer (server down, network gone). */
export class NetworkError extends Error {
  constructor() {
    super('The server could not be reached. Check your connection and try again.');
    this.name = 'NetworkError';
  }
}

function messageOf(status: number, body: Record<string, unknown> | null): string {
  if (typeof body?.message === 'string' && body.message !== '') return body.message;
  if (status === 401) return 'Your session has ended. Sign in again.';
  if (status === 403) return 'You do not have access to this.';
  if (status === 404) return 'Not found.';
  if (status === 429) return 'Too many requests. Wait a moment and try again.';
  if (status >= 500) return 'The server had a problem answering. Try again in a moment.';
  return typeof body?.error === 'string' ? body.error : `The request failed (${status}).`;
}

/** A shared view's access token: sent instead of the session cookie while it is set. */
let accessToken: string | null = null;
export function setAccessToken(token: string | null) {
  accessToken = token;
}

async function send(request: Request): Promise<Response> {
  if (accessToken) request.headers.set('authorization', `Bearer ${accessToken}`);
  try {
    return await fetch(request, { credentials: accessToken ? 'omit' : 'same-origin' });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new NetworkError();
  }
}

/** Empty values are left out rather than sent as `key=`, so an unset filter asks for nothing. */
function queryString(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

export const api = createClient<paths & UndocumentedPaths>({ fetch: send, querySerializer: queryString });

interface Answered<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

const isBody = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The answer's data (undefined for 204), or an `ApiError` carrying the error body. */
export async function unwrap<T>(call: Promise<Answered<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiError(response.status, isBody(error) ? error : null);
  return data as T;
}
