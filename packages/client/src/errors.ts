/** What a call throws: the API said no (`TouchtrailApiError`), or no answer came (`TouchtrailNetworkError`). */

const textOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The API answered with an error status; `body` is its error body as sent, in the area's shape. */
export class TouchtrailApiError extends Error {
  override readonly name = 'TouchtrailApiError';
  readonly status: number;
  /** The body's `code` (goals conflicts) or `error` string, when it has one. */
  readonly code: string | undefined;
  readonly body: unknown;

  constructor(status: number, body: unknown, statusText = '') {
    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    super(textOf(fields.message) ?? textOf(fields.error) ?? (statusText || `HTTP ${status}`));
    this.status = status;
    this.code = textOf(fields.code) ?? textOf(fields.error);
    this.body = body;
  }
}

/** The server could not be reached, or did not answer in time. */
export class TouchtrailNetworkError extends Error {
  override readonly name = 'TouchtrailNetworkError';
  readonly url: string;

  constructor(url: string, reason: string, cause?: unknown) {
    super(`Could not reach ${url}: ${reason}`, cause === undefined ? undefined : { cause });
    this.url = url;
  }
}
