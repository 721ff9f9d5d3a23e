/**
 * `payments import`: posts each row of a CSV to `/v1/server/payments`, a few at a time. The
 * server deduplicates by site, provider and transaction id, so running a file twice records
 * nothing twice. A row the API refuses (422, 409) is counted and reported; a failure that is
 * not about the row (bad key, server away) stops the run, which a re-run then continues.
 */
import { TouchtrailApiError, type TouchtrailClient } from '@touchtrail/client';
import { Checkpoint, type Counts, type Outcome } from './checkpoint.js';
import { type CsvRow, paymentBody, readPaymentRows } from './csv-rows.js';
import { createProgress } from './progress.js';

/** Statuses that refuse the row itself, not the run. */
const ROW_REFUSALS = new Set([400, 409, 422]);

export interface ImportOptions {
  file: string;
  siteId: string;
  client: TouchtrailClient;
  concurrency: number;
  checkpointPath: string;
  restart: boolean;
  /** Stop after sending this many rows (a re-run continues). */
  maxRows?: number;
  onRefused(row: CsvRow, reason: string): void;
  onResume(row: number): void;
}

export interface ImportResult {
  counts: Counts;
  rows: number;
  /** False when `maxRows` stopped the run before the end of the file. */
  complete: boolean;
  refused: { row: number; transaction_id: string; reason: string }[];
}

/** The API's reason in one line: `field: message` for each issue, else its message. */
function reasonOf(error: TouchtrailApiError): string {
  const body = (error.body ?? {}) as { issues?: { field?: string; message?: string }[] };
  if (Array.isArray(body.issues) && body.issues.length)
    return body.issues
      .map(({ field = 'body', message = 'invalid' }) =>
        message.startsWith(`${field}:`) ? message : `${field}: ${message}`,
      )
      .join('; ');
  return `${error.status} ${error.message}`;
}

export async function runImport(options: ImportOptions): Promise<ImportResult> {
  const rows = await readPaymentRows(options.file);
  const checkpoint = Checkpoint.open(options.checkpointPath, options.file, options.siteId, options.restart);
  if (checkpoint.resumedAt > 1) options.onResume(checkpoint.resumedAt);
  const pending = rows.filter((row) => !checkpoint.isDone(row.row)).slice(0, options.maxRows ?? rows.length);
  const complete = pending.length === rows.filter((row) => !checkpoint.isDone(row.row)).length;
  const refused: ImportResult['refused'] = [];
  const progress = createProgress(rows.length);
  let done = rows.length - rows.filter((row) => !checkpoint.isDone(row.row)).length;

  const settle = (row: CsvRow, outcome: Outcome, reason?: string) => {
    checkpoint.finish(row.row, outcome);
    if (reason !== undefined) {
      refused.push({ row: row.row, transaction_id: row.cells.transaction_id ?? '', reason });
      options.onRefused(row, reason);
    }
    done += 1;
    progress.update(done, checkpoint.counts);
  };

  const send = async (row: CsvRow) => {
    const prepared = paymentBody(options.siteId, row);
    if ('problem' in prepared) return settle(row, 'refused', prepared.problem);
    checkpoint.start(row.row);
    const { data, error, response } = await options.client.POST('/v1/server/payments', {
      body: prepared.body as never,
    });
    if (response.ok && data) {
      // A duplicate of a row the stopped run had sent was recorded by that run.
      const wasOurs = data.status === 'duplicate' && checkpoint.interrupted.has(row.row);
      return settle(row, data.status === 'duplicate' && !wasOurs ? 'duplicate' : 'recorded');
    }
    const failure = new TouchtrailApiError(response.status, error, response.statusText);
    if (ROW_REFUSALS.has(response.status)) return settle(row, 'refused', reasonOf(failure));
    throw failure;
  };

  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (next < pending.length && failure === undefined) {
      const row = pending[next++] as CsvRow;
      await send(row).catch((error: unknown) => {
        failure ??= error;
      });
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(options.concurrency, Math.max(pending.length, 1)) }, worker),
  );
  progress.end(done, checkpoint.counts);
  if (failure !== undefined) throw failure;
  if (complete) checkpoint.remove();
  return { counts: checkpoint.counts, rows: rows.length, complete, refused };
}
