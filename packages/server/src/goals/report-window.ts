/**
 * The date range of a goal report (interface §4.1, §8): inclusive `YYYY-MM-DD` days in UTC,
 * `to` defaulting to today and `from` to six days before `to`, at most 365 days long.
 */
import { badInput } from '../http/errors.js';
import { DAY_MS } from '../lib/clock.js';

/** Longest report window, in days counted inclusively (`from` = `to` is one day). */
export const REPORT_WINDOW_MAX_DAYS = 365;
/** Default window: `to` and the six days before it. */
export const REPORT_WINDOW_DEFAULT_DAYS = 7;

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
// Bounds keep every day and the day after it representable in both JavaScript and PostgreSQL.
const FIRST_DAY = '1970-01-01';
const LAST_DAY = '9998-12-31';

export interface ReportWindow {
  /** First day, inclusive. */
  from: string;
  /** Last day, inclusive. */
  to: string;
  /** `from` at 00:00 UTC. */
  start: Date;
  /** The day after `to` at 00:00 UTC: the exclusive end. */
  end: Date;
}

/** True for a real calendar day written `YYYY-MM-DD` within the supported years. */
export function isReportDay(value: string): boolean {
  if (!DAY_PATTERN.test(value) || value < FIRST_DAY || value > LAST_DAY) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const REPORT_DAY_MESSAGE = `must be a date written YYYY-MM-DD, from ${FIRST_DAY} to ${LAST_DAY}`;

const dayStart = (day: string) => new Date(`${day}T00:00:00Z`);
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** Applies the defaults and limits; a bad day or range is a 422 naming the query parameter. */
export function resolveReportWindow(input: { from?: string; to?: string }, now: Date): ReportWindow {
  for (const field of ['from', 'to'] as const) {
    const value = input[field];
    if (value !== undefined && !isReportDay(value))
      throw badInput(field, `${field} ${REPORT_DAY_MESSAGE}`, 'query');
  }
  const to = input.to ?? dayOf(now);
  const from =
    input.from ?? dayOf(new Date(dayStart(to).getTime() - (REPORT_WINDOW_DEFAULT_DAYS - 1) * DAY_MS));
  if (from > to) throw badInput('from', `from (${from}) must not be after to (${to})`, 'query');
  const start = dayStart(from);
  const end = new Date(dayStart(to).getTime() + DAY_MS);
  const days = Math.round((end.getTime() - start.getTime()) / DAY_MS);
  if (days > REPORT_WINDOW_MAX_DAYS) {
    throw badInput(
      'from',
      `The window is ${days} days; at most ${REPORT_WINDOW_MAX_DAYS} are allowed`,
      'query',
    );
  }
  return { from, to, start, end };
}
