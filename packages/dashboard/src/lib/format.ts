/** How numbers, money, durations and dates read on screen: one owner, used by every panel. */
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('en');

/** 1234 → "1.2K"; below ten thousand the exact number. */
export const formatCount = (value: number) =>
  Math.abs(value) < 10_000 ? whole.format(value) : compact.format(value);
export const formatExact = (value: number) => whole.format(value);
export const formatPercent = (value: number) => `${value.toFixed(value >= 10 || value === 0 ? 0 : 1)}%`;

/** Seconds → "1m 05s", "42s", "2h 03m". */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();
/** Minor units of `currency` → "$1,234.50" (zero-decimal currencies such as JPY have no minor part). */
export function formatMoney(minor: number, currency: string): string {
  const digits = moneyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
  return moneyFormat(currency).format(minor / 10 ** digits);
}

function moneyFormat(currency: string): Intl.NumberFormat {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat('en', { style: 'currency', currency });
    moneyFormats.set(currency, format);
  }
  return format;
}

/** Major units (what the revenue report answers) → "$1,234.50". */
export const formatMajor = (amount: number, currency: string) => moneyFormat(currency).format(amount);

/** A change in percent, signed: "+12%", "−3.5%"; null (no earlier value) reads "new". */
export function formatChange(change: number | null): string {
  if (change === null) return 'new';
  const sign = change > 0 ? '+' : change < 0 ? '−' : '';
  return `${sign}${formatPercent(Math.abs(change))}`;
}

const dayFormat = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayYearFormat = new Intl.DateTimeFormat('en', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const monthFormat = new Intl.DateTimeFormat('en', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** "2026-03-02" → "2 Mar" (with the year when asked). */
export const formatDay = (day: string, withYear = false) =>
  (withYear ? dayYearFormat : dayFormat).format(new Date(`${day.slice(0, 10)}T00:00:00Z`));
export const formatMonth = (day: string) => monthFormat.format(new Date(`${day.slice(0, 10)}T00:00:00Z`));

/** A bucket label of the time series: hours as "14:00", days as "2 Mar", months as "Mar 2026". */
export function formatBucket(bucket: string, interval: string): string {
  if (interval === 'time:hour') return bucket.slice(11, 16);
  if (interval === 'time:month') return formatMonth(bucket);
  return formatDay(bucket);
}

/** An instant as the reader's local date and time. */
export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });

/** A count with its noun, singular for exactly one: "1 visit", "2 visits". */
export function formatCountOf(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}
