/**
 * The objects of an NDJSON file, one per line, each with its line number (1-based). Blank lines
 * are skipped; a line that is not a JSON object, or longer than any export's row, fails with its
 * line. Lines are cut from the chunks as they come, so no more than one line is held.
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { ImportFileError } from '../import-records.js';

const MAX_LINE_CHARS = 1024 * 1024;

export interface JsonLine {
  line: number;
  value: Record<string, unknown>;
}

export async function* ndjsonLines(input: Readable): AsyncGenerator<JsonLine> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let line = 0;
  const parse = (text: string): JsonLine | null => {
    line += 1;
    const trimmed = text.trim();
    if (trimmed === '') return null;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      throw new ImportFileError(line, 'the line is not valid JSON');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ImportFileError(line, 'the line is not a JSON object');
    }
    return { line, value: value as Record<string, unknown> };
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      pending += decoder.write(chunk);
      let start = 0;
      let end = pending.indexOf('\n');
      while (end >= 0) {
        const parsed = parse(pending.slice(start, end));
        if (parsed) yield parsed;
        start = end + 1;
        end = pending.indexOf('\n', start);
      }
      pending = pending.slice(start);
      if (pending.length > MAX_LINE_CHARS) {
        throw new ImportFileError(line + 1, `the line is longer than ${MAX_LINE_CHARS} characters`);
      }
    }
    pending += decoder.end();
    const parsed = parse(pending);
    if (parsed) yield parsed;
  } finally {
    input.destroy();
  }
}
