/**
 * Rows of a payments CSV: a header row with §4.4's field names, one payment per row. A row is
 * turned into the body of `POST /v1/server/payments`; empty cells are left out, so the
 * server's defaults apply. Only what cannot be sent at all is refused here; the server
 * checks the rest and names the field.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../errors.js';

export const COLUMNS = [
  'transaction_id',
  'amount',
  'currency',
  'provider',
  'visitor_id',
  'email',
  'customer_id',
  'renewal',
  'refunded',
  'refunded_amount',
  'is_free_trial',
  'timestamp',
] as const;
const REQUIRED = ['transaction_id', 'amount', 'currency'] as const;
const TEXT = [
  'transaction_id',
  'currency',
  'provider',
  'visitor_id',
  'email',
  'customer_id',
  'timestamp',
] as const;
const NUMBERS = ['amount', 'refunded_amount'] as const;
const FLAGS = ['renewal', 'refunded', 'is_free_trial'] as const;
const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

export type PaymentBody = Record<string, string | number | boolean> & {
  site_id: string;
  transaction_id: string;
};

export interface CsvRow {
  /** 1-based, counting data rows (the header is not row 1). */
  row: number;
  cells: Record<string, string>;
}

/** Reads the whole file; a wrong header is a usage error before anything is sent. */
export async function readPaymentRows(file: string): Promise<CsvRow[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let records: Record<string, string>[];
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (error) {
    throw new UsageError(`${file} is not a readable CSV: ${(error as Error).message}`);
  }
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const names = header.split(',').map((name) => name.trim().replace(/^"|"$/g, ''));
  const unknown = names.filter((name) => !(COLUMNS as readonly string[]).includes(name));
  const missing = REQUIRED.filter((name) => !names.includes(name));
  if (unknown.length || missing.length)
    throw new UsageError(
      `${file}: ${[unknown.length ? `unknown column ${unknown.join(', ')}` : '', missing.length ? `missing column ${missing.join(', ')}` : ''].filter(Boolean).join('; ')}`,
      `The header row takes: ${COLUMNS.join(',')} (transaction_id, amount and currency required).`,
    );
  return records.map((cells, i) => ({ row: i + 1, cells }));
}

/** The request body of a row, or why it cannot be sent. */
export function paymentBody(siteId: string, { cells }: CsvRow): { body: PaymentBody } | { problem: string } {
  for (const name of REQUIRED) if (!cells[name]) return { problem: `${name} is empty` };
  const body: Record<string, string | number | boolean> = { site_id: siteId };
  for (const name of TEXT) if (cells[name]) body[name] = cells[name];
  for (const name of NUMBERS) {
    const text = cells[name];
    if (!text) continue;
    const value = Number(text);
    if (!Number.isFinite(value)) return { problem: `${name} "${text}" is not a number` };
    body[name] = value;
  }
  for (const name of FLAGS) {
    const text = cells[name]?.toLowerCase();
    if (!text) continue;
    if (!TRUE.has(text) && !FALSE.has(text))
      return { problem: `${name} "${cells[name]}" is not true or false` };
    body[name] = TRUE.has(text);
  }
  return { body: body as PaymentBody };
}
