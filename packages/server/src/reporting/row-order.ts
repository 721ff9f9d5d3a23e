/**
 * Orders merged stats rows as the database orders a single grain (grouped.query.ts): the
 * requested keys, then every dimension ascending, nulls last, strings in byte order.
 */
import type { Dimension, Metric } from './stats-vocabulary.js';

interface Row {
  dimensions: (string | null)[];
  metrics: number[];
}

type Value = string | number | null;

function compareValues(a: Value, b: Value): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

export function orderRows<T extends Row>(
  rows: T[],
  q: { dimensions: Dimension[]; metrics: Metric[]; orderBy: [string, 'asc' | 'desc'][] },
): T[] {
  const keys = q.orderBy.map(([name, direction]) => {
    const dimension = q.dimensions.indexOf(name as Dimension);
    const read =
      dimension >= 0
        ? (row: Row) => row.dimensions[dimension] ?? null
        : (row: Row) => row.metrics[q.metrics.indexOf(name as Metric)] ?? null;
    return { read, sign: direction === 'asc' ? 1 : -1 };
  });
  for (let i = 0; i < q.dimensions.length; i++)
    keys.push({ read: (row) => row.dimensions[i] ?? null, sign: 1 });
  return [...rows].sort((a, b) => {
    for (const { read, sign } of keys) {
      const x = read(a);
      const y = read(b);
      // Nulls stay last whichever the direction, as `nulls last` in SQL.
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
        continue;
      }
      const order = compareValues(x, y) * sign;
      if (order !== 0) return order;
    }
    return 0;
  });
}
