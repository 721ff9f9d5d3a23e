/**
 * Checks of flag values shared by the commands. A bad value is refused by commander with the
 * option's name and exit code 1 before any request is sent.
 */
import { InvalidArgumentError } from 'commander';

export const ATTRIBUTION_MODELS = ['first_touch', 'last_touch', 'linear', 'time_decay'] as const;
export type AttributionModel = (typeof ATTRIBUTION_MODELS)[number];

export function parseDay(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value)))
    throw new InvalidArgumentError('expected a date YYYY-MM-DD.');
  return value;
}

export const integerBetween = (min: number, max: number) => (value: string) => {
  const number = Number(value);
  if (!/^-?\d+$/.test(value) || number < min || number > max)
    throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
  return number;
};

export function parseAmount(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0)
    throw new InvalidArgumentError('expected an amount in major units, like 49.90.');
  return number;
}

export const oneOf =
  <T extends string>(choices: readonly T[]) =>
  (value: string): T => {
    if (!(choices as readonly string[]).includes(value))
      throw new InvalidArgumentError(`expected one of ${choices.join(', ')}.`);
    return value as T;
  };

export const parseModel = oneOf(ATTRIBUTION_MODELS);

/** Collects a repeatable flag into a list. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `key=value` pairs of a repeatable flag, into an object. */
export function collectPair(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError('expected key=value.');
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

/** The example block every command's help ends with. */
export const example = (...lines: string[]) =>
  `\nExample:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;

/** What every report covers when not told: the last 30 days, today included, as `--range 30d` does. */
const REPORT_DAYS = 30;

/** The help of a report's `--from` and `--to`, which `reportDays` fills in. */
export const FROM_HELP = `first day, YYYY-MM-DD (default ${REPORT_DAYS - 1} days before --to)`;
export const TO_HELP = 'last day, YYYY-MM-DD (default today)';

/** `--from` and `--to` with the gaps filled: today in `timezone` (UTC when none), 30 days back. */
export function reportDays(options: { from?: string; to?: string; timezone?: string }) {
  const to = options.to ?? todayIn(options.timezone);
  const start = new Date(`${to}T00:00:00Z`);
  start.setUTCDate(start.getUTCDate() - (REPORT_DAYS - 1));
  return { from: options.from ?? start.toISOString().slice(0, 10), to };
}

function todayIn(timeZone: string | undefined): string {
  try {
    // en-CA writes dates as YYYY-MM-DD.
    return new Intl.DateTimeFormat('en-CA', { timeZone: timeZone ?? 'UTC' }).format(new Date());
  } catch {
    // An unknown zone: the server refuses it by name, so any day will do here.
    return new Date().toISOString().slice(0, 10);
  }
}
