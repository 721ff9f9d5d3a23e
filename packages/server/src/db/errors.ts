/**
 * PostgreSQL errors by SQLSTATE (pg and PGlite both put it in `code`). Connection failures
 * carry no SQLSTATE (node's own codes such as `ECONNREFUSED`, or none).
 */
const sqlStateOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
};

/** Any error PostgreSQL answered with (a SQLSTATE), as opposed to a bug in our code. */
export const isDatabaseError = (error: unknown): boolean => sqlStateOf(error) !== undefined;

/** unique_violation: a concurrent insert took the key first. */
export const isUniqueViolation = (error: unknown): boolean => sqlStateOf(error) === '23505';

/**
 * An error about the values written rather than the database: data exceptions (class 22),
 * integrity constraints (23) and limits such as an index row too large (54). Writing the same
 * values again fails the same way; writing other values may succeed.
 */
export function isDataError(error: unknown): boolean {
  const state = sqlStateOf(error);
  return state !== undefined && ['22', '23', '54'].includes(state.slice(0, 2));
}

/**
 * An error as logs and stored failure notes may show it. A database error's message can quote
 * the values it refused, so it is named by SQLSTATE and, where PostgreSQL gives one, the
 * constraint; any other error keeps its message.
 */
export function describeError(error: unknown): string {
  const state = sqlStateOf(error);
  if (state === undefined) return error instanceof Error ? error.message : String(error);
  const { constraint } = error as { constraint?: unknown };
  return `database error ${state}${typeof constraint === 'string' ? ` (${constraint})` : ''}`;
}

/** Deadlocks and serialisation failures: everything rolled back, so the same work may simply run again. */
export const isRetryableConflict = (error: unknown): boolean => {
  const state = sqlStateOf(error);
  return state === '40001' || state === '40P01';
};

/** Runs `work` (one transaction) again after a deadlock or serialisation failure, up to `attempts` times. */
export async function retryConflicts<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isRetryableConflict(error)) throw error;
    }
  }
}
