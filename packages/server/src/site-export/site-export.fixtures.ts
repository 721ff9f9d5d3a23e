/** Helpers of the site export suites: a download, and the two formats read back. */
import { expect } from 'vitest';
import type { TestApp } from '../test/app.js';

export function download(
  t: TestApp,
  headers: Record<string, string>,
  siteRef: string,
  query: Record<string, string> = {},
) {
  const search = new URLSearchParams(query).toString();
  return t.request({
    method: 'GET',
    url: `/v1/sites/${siteRef}/export${search ? `?${search}` : ''}`,
    headers,
  });
}

export function ndjsonLines(body: string): Record<string, unknown>[] {
  expect(body === '' || body.endsWith('\n')).toBe(true);
  return body
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** An RFC 4180 reader: rows of cells, quoted cells unquoted; every row must end with CRLF. */
export function csvRows(body: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  while (i < body.length) {
    const char = body[i] as string;
    if (char === '"' && cell === '') {
      // A quoted cell: up to the first quote not doubled.
      i += 1;
      while (i < body.length && !(body[i] === '"' && body[i + 1] !== '"')) {
        cell += body[i];
        i += body[i] === '"' ? 2 : 1;
      }
      if (i >= body.length) throw new Error('an unclosed quote');
      i += 1;
    } else if (body.startsWith('\r\n', i)) {
      rows.push([...row, cell]);
      row = [];
      cell = '';
      i += 2;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
      i += 1;
    } else if (char === '"' || char === '\r' || char === '\n') {
      throw new Error(`a bare ${JSON.stringify(char)} outside quotes at ${i}`);
    } else {
      cell += char;
      i += 1;
    }
  }
  if (row.length > 0 || cell !== '') throw new Error('the last row does not end with CRLF');
  return rows;
}
