/**
 * Exit codes and the one place that turns a failure into a message: 1 for usage, 2 when the
 * API said no (its error body printed), 3 when the server could not be reached.
 */
import { TouchtrailApiError, TouchtrailNetworkError } from '@touchtrail/client';

export const EXIT_OK = 0;
export const EXIT_USAGE = 1;
export const EXIT_API = 2;
export const EXIT_NETWORK = 3;

/** Bad or missing input; `hint` says what to do instead. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** What to try after an API refusal, by status and code. */
function hintFor(error: TouchtrailApiError): string | undefined {
  const body = (typeof error.body === 'object' && error.body !== null ? error.body : {}) as Record<
    string,
    unknown
  >;
  if (error.status === 401)
    return 'The key was refused (missing, revoked or expired): run touchtrail login or set TOUCHTRAIL_API_KEY.';
  if (error.status === 403 && typeof body.required_scope === 'string')
    return `The key lacks the ${body.required_scope} scope: create a key with it (touchtrail keys create --scope ${body.required_scope}).`;
  if (error.status === 404)
    return 'Check the site (--site or TOUCHTRAIL_SITE) and the id: touchtrail sites list shows your sites.';
  if (error.status === 429) return 'Rate limited: wait a moment and run the command again.';
  if (error.status >= 500)
    return 'The server failed: try again in a moment, and check the server’s log (its x-request-id) if it keeps failing.';
  return undefined;
}

/** A failure the command has already printed (a failed import): only its exit code is left. */
export class ReportedFailure extends Error {
  override readonly name = 'ReportedFailure';
  constructor(readonly exitCode: number) {
    super('reported in the output');
  }
}

/** Writes the failure to stderr and answers the exit code. Never a stack trace. */
export function reportFailure(error: unknown, write: (text: string) => void): number {
  if (error instanceof ReportedFailure) return error.exitCode;
  if (error instanceof UsageError) {
    write(`touchtrail: ${error.message}\n`);
    if (error.hint) write(`${error.hint}\n`);
    return EXIT_USAGE;
  }
  if (error instanceof TouchtrailApiError) {
    write(`touchtrail: the API answered ${error.status}: ${error.message}\n`);
    write(`${JSON.stringify(error.body ?? null, null, 2)}\n`);
    const hint = hintFor(error);
    if (hint) write(`${hint}\n`);
    return EXIT_API;
  }
  if (error instanceof TouchtrailNetworkError) {
    write(`touchtrail: could not reach ${error.url}\n`);
    write(
      'Check TOUCHTRAIL_URL (or --url, or the profile: touchtrail profiles) and that the server is running.\n',
    );
    return EXIT_NETWORK;
  }
  const message = error instanceof Error ? error.message : String(error);
  write(`touchtrail: ${message}\n`);
  return EXIT_USAGE;
}
