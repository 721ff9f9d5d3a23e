/**
 * The rows of a report panel: a name with a bar as wide as its share, and its figures. A table,
 * so a screen reader reads the figures with their column; clicking a name filters the view by it.
 */
import type { CSSProperties, ReactNode } from 'react';

export interface BarRow {
  key: string;
  name: ReactNode;
  /** Words for the filter button ("Filter by ChatGPT"). */
  filterLabel?: string;
  /** What the bar's width shows. */
  value: number;
  figures: ReactNode[];
  ai?: boolean;
  onSelect?: () => void;
}

/** The longest figure of each column, in characters: its width follows, so no figure is cut. */
function figureChars(rows: BarRow[], count: number): number[] {
  const length = (figure: ReactNode) => (typeof figure === 'string' ? figure.length : 0);
  return Array.from({ length: count }, (_, i) => Math.max(0, ...rows.map((row) => length(row.figures[i]))));
}

export function BarList({ rows, columns, caption }: { rows: BarRow[]; columns: string[]; caption: string }) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  const chars = figureChars(rows, columns.length - 1);
  return (
    <table className="bars">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{columns[0]}</th>
          {columns.slice(1).map((c, i) => (
            <th
              scope="col"
              className="num"
              key={c}
              style={{ '--chars': chars[i], '--heading-chars': c.length } as CSSProperties}
            >
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <td className="label">
              <div className={row.ai ? 'bar ai' : 'bar'} style={{ width: `${(row.value / max) * 100}%` }} />
              {row.onSelect ? (
                <button type="button" className="bar-text" onClick={row.onSelect} title={row.filterLabel}>
                  {row.name}
                </button>
              ) : (
                <span className="bar-text">{row.name}</span>
              )}
            </td>
            {row.figures.map((figure, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the figures of a row are in column order
              <td className="num" key={i}>
                {figure}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
