/**
 * Aligned plain-text tables and key/value blocks. Widths count what a terminal shows: one
 * column per character, two for an emoji or a wide East Asian character.
 */
import { bold, dim } from './style.js';

const segmenter = new Intl.Segmenter();
const WIDE =
  /\p{Extended_Pictographic}|[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

export function displayWidth(text: string): number {
  let width = 0;
  for (const { segment } of segmenter.segment(text.replace(ANSI, ''))) width += WIDE.test(segment) ? 2 : 1;
  return width;
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

export interface Column {
  header: string;
  align?: 'left' | 'right';
}

/** Columns separated by two spaces; numbers are right-aligned by their column's `align`. */
export function renderTable(columns: Column[], rows: string[][], empty = 'Nothing to show.'): string {
  if (rows.length === 0) return `${dim(empty)}\n`;
  const widths = columns.map((column, i) =>
    Math.max(displayWidth(column.header), ...rows.map((row) => displayWidth(row[i] ?? ''))),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => pad(cell, widths[i] ?? 0, columns[i]?.align ?? 'left'))
      .join('  ')
      .trimEnd();
  const header = bold(line(columns.map((column) => column.header.toUpperCase())));
  return `${[header, ...rows.map(line)].join('\n')}\n`;
}

/** `Label   value` lines, labels aligned. */
export function renderDetails(pairs: [string, string][]): string {
  const width = Math.max(...pairs.map(([label]) => displayWidth(label)));
  return `${pairs.map(([label, value]) => `${dim(pad(label, width, 'left'))}  ${value}`).join('\n')}\n`;
}
