/**
 * `include.comparison`: the earlier range a query is compared with, and each answered row set
 * beside its earlier counterpart with the change in percent.
 */
import { DAY_MS } from '../lib/clock.js';
import { addDays, addMonths, toDate } from './date-range.js';
import type { StatsRow } from './planner.js';
import type { Comparison, Dimension, TimeDimension } from './stats-vocabulary.js';
import { isTimeDimension } from './stats-vocabulary.js';

export interface DayRange {
  from: string;
  to: string;
}

/** The same number of days just before the range, or the same dates a year earlier (29 Feb → 28 Feb). */
export function comparisonRange(kind: Comparison, { from, to }: DayRange): DayRange {
  if (kind === 'previous_period') {
    return { from: addDays(from, -(daysBetween(from, to) + 1)), to: addDays(from, -1) };
  }
  return { from: yearEarlier(from), to: yearEarlier(to) };
}

export interface ComparedRow extends StatsRow {
  comparison: { dimensions: (string | null)[]; metrics: number[]; change: (number | null)[] };
}

/**
 * Puts each row beside the earlier row with the same dimension values, where a time bucket is
 * matched to the bucket at the same offset from the start of its range: the n-th day (or hour of
 * the n-th day) of the range to the n-th day of the earlier range, the n-th week (Monday-based,
 * counted from the week holding `from`) to the n-th week, the n-th month to the n-th month. An
 * earlier group without visits reads as zeros. `change` is in percent with one decimal, null
 * when the earlier value is 0.
 */
export function compareRows(
  rows: StatsRow[],
  earlierRows: StatsRow[],
  dimensions: Dimension[],
  range: DayRange,
  earlier: DayRange,
): ComparedRow[] {
  const byKey = new Map(earlierRows.map((row) => [JSON.stringify(row.dimensions), row.metrics]));
  return rows.map((row) => {
    const matched = row.dimensions.map((value, i) => {
      const dimension = dimensions[i] as Dimension;
      return value !== null && isTimeDimension(dimension)
        ? earlierBucket(dimension, value, range.from, earlier.from)
        : value;
    });
    const metrics = byKey.get(JSON.stringify(matched)) ?? row.metrics.map(() => 0);
    const change = row.metrics.map((value, i) => {
      const before = metrics[i] as number;
      return before === 0 ? null : Math.round(((value - before) / before) * 1000) / 10;
    });
    return { ...row, comparison: { dimensions: matched, metrics, change } };
  });
}

function earlierBucket(dimension: TimeDimension, bucket: string, from: string, earlierFrom: string): string {
  const day = bucket.slice(0, 10);
  switch (dimension) {
    case 'time:hour':
      return addDays(earlierFrom, daysBetween(from, day)) + bucket.slice(10);
    case 'time:day':
      return addDays(earlierFrom, daysBetween(from, day));
    case 'time:week':
      return addDays(mondayOf(earlierFrom), daysBetween(mondayOf(from), day));
    case 'time:month':
      return addMonths(`${earlierFrom.slice(0, 7)}-01`, monthsBetween(from, day));
  }
}

const daysBetween = (from: string, to: string) =>
  Math.round((toDate(to).getTime() - toDate(from).getTime()) / DAY_MS);
const mondayOf = (day: string) => addDays(day, -((toDate(day).getUTCDay() + 6) % 7));
const monthsBetween = (from: string, to: string) =>
  (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 +
  Number(to.slice(5, 7)) -
  Number(from.slice(5, 7));

function yearEarlier(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const lastDate = new Date(Date.UTC(year - 1, month, 0)).getUTCDate();
  return `${year - 1}-${day.slice(5, 7)}-${String(Math.min(date, lastDate)).padStart(2, '0')}`;
}
