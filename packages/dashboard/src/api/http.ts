/**
 * The one way the dashboard speaks to the server: same-origin `/v1` calls that carry the session
 * cookie. Every area answers errors in its own body shape (interface §7); `ApiError` reads the
 * words a person should see out of any of them.
 */
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

type Query = Record<string, string | number | boolean | undefined | null>;

/** A shared view's access token: sent instead of the session cookie while it is set. */
let accessToken: string | null = null;
export function setAccessToken(token: string | null) {
  accessToken = token;
}

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export async function api<T>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  options: { query?: Query; body?: unknown; signal?: AbortSignal } = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), {
      method,
      credentials: accessToken ? 'omit' : 'same-origin',
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new NetworkError();
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!response.ok) throw new ApiError(response.status, (body as Record<string, unknown>) ?? null);
  return body as T;
}
