/**
 * The two file formats of a site export. ndjson: one JSON object per line, `record` first.
 * csv: RFC 4180 (CRLF line ends; a cell with a comma, quote, CR or LF is quoted, its quotes
 * doubled), null as an empty cell, an object (event properties) as its JSON text.
 */
import type { FieldValue } from './site-export.records.js';

export type ExportFormat = 'ndjson' | 'csv';

export function ndjsonLine(record: string, fields: Record<string, FieldValue>): string {
  return `${JSON.stringify({ record, ...fields })}\n`;
}

export function csvRow(cells: readonly FieldValue[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export function csvCell(value: FieldValue): string {
  if (value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
