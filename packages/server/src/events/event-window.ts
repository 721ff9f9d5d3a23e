/**
 * The window of the event reports: inclusive days in the query's time zone, by default the
 * last seven ending today there, at most 365 days long so every scan stays bounded.
 */
import { badInput } from '../http/errors.js';
import { DAY_MS } from '../lib/clock.js';
import { addDays, dayIn, toDate } from '../reporting/date-range.js';

export const DEFAULT_WINDOW_DAYS = 7;
export const MAX_WINDOW_DAYS = 365;

export interface EventWindow {
  from: string;
  to: string;
  timezone: string;
}

/** `from` and `to` were checked as calendar days by the schema; `timezone` is resolved. */
export function resolveEventWindow(
  input: { from?: string; to?: string },
  timezone: string,
  now: Date,
): EventWindow {
  const to = input.to ?? dayIn(timezone, now);
  const from = input.from ?? addDays(to, -(DEFAULT_WINDOW_DAYS - 1));
  if (from > to) throw badInput('from', `from (${from}) must not be after to (${to})`, 'query');
  const days = Math.round((toDate(to).getTime() - toDate(from).getTime()) / DAY_MS) + 1;
  if (days > MAX_WINDOW_DAYS) {
    throw badInput('from', `The window is ${days} days; at most ${MAX_WINDOW_DAYS} are allowed`, 'query');
  }
  return { from, to, timezone };
}
