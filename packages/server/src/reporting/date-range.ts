/**
 * The calendar of a stats query: an IANA time zone (checked with Intl, which PostgreSQL's zone
 * names agree with) and `date_range` resolved in it to inclusive days. Keywords end today in the
 * zone; two dates may span at most five years; `all` starts at the site's first visit.
 */
import { badInput } from '../http/errors.js';
import { DAY_MS } from '../lib/clock.js';
import { quoted } from './quoted.js';
import { type DateRangeKeyword, MAX_RANGE_YEARS } from './stats-vocabulary.js';

export type DateRangeInput = DateRangeKeyword | [string, string];

/** Zone names only (`Europe/Berlin`, `UTC`, `Etc/GMT+2`): no offsets, which PostgreSQL reads the other way round. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/** The canonical spelling of the zone, or a 422 naming `timezone`. */
export function resolveTimezone(input: string | undefined): string {
  if (input === undefined) return 'UTC';
  if (ZONE_NAME.test(input)) {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: input }).resolvedOptions().timeZone;
    } catch {
      // Falls through to the 422: Intl knows no such zone.
    }
  }
  throw badInput(
    'timezone',
    `timezone: unknown timezone ${quoted(input)}; use an IANA time zone name such as Europe/Berlin or UTC`,
  );
}

/** The calendar day `instant` falls on in `timezone`, YYYY-MM-DD. */
export function dayIn(timezone: string, instant: Date): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);
}

export const toDate = (day: string) => new Date(`${day}T00:00:00Z`);
export const toDay = (date: Date) => date.toISOString().slice(0, 10);
export const addDays = (day: string, days: number) => toDay(new Date(toDate(day).getTime() + days * DAY_MS));

export function addMonths(day: string, months: number): string {
  const date = toDate(day);
  date.setUTCMonth(date.getUTCMonth() + months);
  return toDay(date);
}

/** Two calendar days (the schema checked each), in order and at most five years apart. */
export function checkCustomRange([from, to]: [string, string]): { from: string; to: string } {
  if (from > to) throw badInput('date_range', `date_range: ${from} is after ${to}`);
  if (to >= addMonths(from, 12 * MAX_RANGE_YEARS)) {
    throw badInput('date_range', `date_range spans more than ${MAX_RANGE_YEARS} years`);
  }
  return { from, to };
}

/**
 * Inclusive `[from, to]`. `today` is today in the query's zone; `firstDay` the day of the
 * site's first visit in that zone (null when it has none), asked for only by `all`.
 */
export function resolveDateRange(
  input: DateRangeInput,
  today: string,
  firstDay: string | null,
): { from: string; to: string } {
  if (Array.isArray(input)) return checkCustomRange(input);
  const monthStart = `${today.slice(0, 7)}-01`;
  switch (input) {
    case 'day':
      return { from: today, to: today };
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case 'month':
      return { from: monthStart, to: today };
    case '12mo':
      return { from: addMonths(monthStart, -11), to: today };
    case 'year':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
    case 'all':
      return { from: firstDay !== null && firstDay < today ? firstDay : today, to: today };
  }
}
