/**
 * Inclusive `YYYY-MM-DD` windows in UTC, the one calendar-day rule of every report (goals,
 * goal visitors, conversions, revenue, crawlers): `to` defaults to today, `from` to the days
 * before it that make up the default length, and a window longer than the report allows is a 422.
 */
import { z } from 'zod';
import { badInput } from '../http/errors.js';
import { DAY_MS } from './clock.js';

// Bounds keep every day and the day after it representable in JavaScript and PostgreSQL.
const FIRST_DAY = '1970-01-01';
const LAST_DAY = '9998-12-31';

export function isCalendarDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value < FIRST_DAY || value > LAST_DAY) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const DAY_MESSAGE = `must be a date written YYYY-MM-DD, from ${FIRST_DAY} to ${LAST_DAY}`;

export const daySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, DAY_MESSAGE)
  .refine(isCalendarDay, DAY_MESSAGE);

export interface DayWindow {
  from: string;
  to: string;
  /** `from` at 00:00 UTC. */
  start: Date;
  /** The day after `to` at 00:00 UTC (exclusive). */
  end: Date;
}

const dayStart = (day: string) => new Date(`${day}T00:00:00Z`);
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Applies the defaults; a day that is not a calendar day, `from` after `to`, or a window longer
 * than `maxDays` is a 422 naming the query parameter.
 */
export function resolveDayWindow(
  input: { from?: string; to?: string },
  now: Date,
  limits: { defaultDays: number; maxDays?: number },
): DayWindow {
  for (const field of ['from', 'to'] as const) {
    const value = input[field];
    if (value !== undefined && !isCalendarDay(value))
      throw badInput(field, `${field} ${DAY_MESSAGE}`, 'query');
  }
  const to = input.to ?? dayOf(now);
  const from = input.from ?? dayOf(new Date(dayStart(to).getTime() - (limits.defaultDays - 1) * DAY_MS));
  if (from > to) throw badInput('from', `from (${from}) must not be after to (${to})`, 'query');
  const start = dayStart(from);
  const end = new Date(dayStart(to).getTime() + DAY_MS);
  const days = Math.round((end.getTime() - start.getTime()) / DAY_MS);
  if (limits.maxDays !== undefined && days > limits.maxDays) {
    throw badInput('from', `The window is ${days} days; at most ${limits.maxDays} are allowed`, 'query');
  }
  return { from, to, start, end };
}
