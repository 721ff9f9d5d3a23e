/** Numbers, money, rates, durations and times the way a person reads them (en-US grouping). */
const LOCALE = 'en-US';
const integers = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });

export const formatNumber = (value: number | null | undefined) =>
  value == null ? '—' : integers.format(value);

export const formatPercent = (value: number | null | undefined) =>
  value == null ? '—' : `${value.toFixed(1)}%`;

export function formatChange(value: number | null | undefined): string {
  if (value == null) return '—';
  return `${value > 0 ? '+' : ''}${value.toFixed(1)}%`;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();
function moneyFormat(currency: string): Intl.NumberFormat {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, { style: 'currency', currency });
    moneyFormats.set(currency, format);
  }
  return format;
}

/** The currency's ISO 4217 exponent: 2 for EUR, 0 for JPY. */
export const minorDigits = (currency: string) =>
  moneyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;

/** An amount in major units (`12.5` EUR → `€12.50`). */
export function formatMoney(amount: number | null | undefined, currency: string | null | undefined): string {
  if (amount == null) return '—';
  if (!currency) return integers.format(amount);
  return moneyFormat(currency).format(amount);
}

/** An amount in minor units (`1250` EUR → `€12.50`). */
export function formatMinorMoney(
  amount: number | null | undefined,
  currency: string | null | undefined,
): string {
  if (amount == null) return '—';
  if (!currency) return integers.format(amount);
  return formatMoney(amount / 10 ** minorDigits(currency), currency);
}

/** Whole seconds as `42s`, `3m 05s`, `2h 04m`. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null) return '—';
  const total = Math.round(seconds);
  if (total < 60) return `${total}s`;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  if (hours === 0) return `${minutes}m ${String(rest).padStart(2, '0')}s`;
  return `${hours}h ${String(minutes).padStart(2, '0')}m`;
}

/** An ISO timestamp as `2026-11-28 13:58 UTC`. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export const orDash = (value: string | null | undefined) => (value == null || value === '' ? '—' : value);
