/**
 * The rows of a CSV file with a header line, as objects by column name, each with its line number
 * (1-based; a quoted field over several lines counts from its first). A broken file (an unclosed
 * quote, a row with the wrong number of fields) fails with its line.
 */
import type { Readable } from 'node:stream';
import { type CsvError, parse } from 'csv-parse';
import { ImportFileError } from '../import-records.js';

export interface CsvRow {
  line: number;
  fields: Record<string, string>;
}

/** Longest field kept: larger ones are a broken or hostile file, not an export. */
const MAX_FIELD_CHARS = 64 * 1024;

export async function* csvRows(
  input: Readable,
  options: { required: readonly string[]; name?: string },
): AsyncGenerator<CsvRow> {
  const where = options.name ? `${options.name}: ` : '';
  const parser = input.pipe(
    parse({ columns: true, info: true, bom: true, skip_empty_lines: true, max_record_size: MAX_FIELD_CHARS }),
  );
  let checked = false;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      if (!checked) {
        const missing = options.required.filter((column) => !(column in record));
        if (missing.length > 0) {
          throw new ImportFileError(1, `${where}the header has no column ${missing.join(', ')}`);
        }
        checked = true;
      }
      yield { line: info.lines, fields: record };
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    const csv = error as CsvError & { lines?: number };
    if (typeof csv.code === 'string' && csv.code.startsWith('CSV_')) {
      throw new ImportFileError(csv.lines ?? null, `${where}${csvProblem(csv)}`);
    }
    throw error;
  } finally {
    input.destroy();
  }
}

function csvProblem(error: CsvError): string {
  switch (error.code) {
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
    case 'CSV_RECORD_INCONSISTENT_COLUMNS':
      return 'the row has a different number of fields than the header';
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is not closed';
    case 'CSV_MAX_RECORD_SIZE':
      return `a row is longer than ${MAX_FIELD_CHARS} characters`;
    default:
      return 'the line is not valid CSV';
  }
}

/** A whole number of a count column; anything else fails with the row's line. */
export function count(row: CsvRow, column: string, where = ''): number {
  const raw = (row.fields[column] ?? '').trim();
  if (raw === '') return 0;
  if (!/^\d{1,15}$/.test(raw)) {
    throw new ImportFileError(
      row.line,
      `${where}${column} ${JSON.stringify(raw.slice(0, 40))} is not a whole number`,
    );
  }
  return Number(raw);
}

/** A `YYYY-MM-DD` day column. */
export function day(row: CsvRow, column: string, where = ''): string {
  const raw = (row.fields[column] ?? '').trim();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(Date.parse(`${raw}T00:00:00Z`))) {
    throw new ImportFileError(
      row.line,
      `${where}${column} ${JSON.stringify(raw.slice(0, 40))} is not a date (YYYY-MM-DD)`,
    );
  }
  return raw;
}
