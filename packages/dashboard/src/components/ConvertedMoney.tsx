/**
 * Money shown in the site's currency and, when it was sent in another, in its own beside it,
 * with the day of the ECB rate that converted it; and the listing's note on how fresh the
 * stored rates are (an offline server keeps converting at its newest one).
 */
import type { ConversionPage } from '../api/revenue';
import { formatDay, formatMajor, formatMoney } from '../lib/format';

/** What a conversion row and a person's conversion both carry (interface §2.8's money fields). */
export interface ConvertedAmount {
  value_cents: number | null;
  currency: string | null;
  display_value: number | null;
  rate_day: string | null;
}

/** `inline`: on one line, as in a sentence (a person's trail), rather than stacked in a table cell. */
export function ConvertedValue({
  row,
  displayCurrency,
  inline = false,
}: {
  row: ConvertedAmount;
  displayCurrency: string;
  inline?: boolean;
}) {
  if (!row.value_cents) return <>—</>;
  const currency = row.currency ?? displayCurrency;
  const original = formatMoney(row.value_cents, currency);
  if (currency === displayCurrency) return <>{original}</>;
  return (
    <span className={inline ? 'converted inline' : 'converted'}>
      <span>{row.display_value !== null ? formatMajor(row.display_value, displayCurrency) : '—'}</span>
      <span className="muted small">{original}</span>
      <span className="muted small">{row.rate_day ? `ECB ${formatDay(row.rate_day, true)}` : 'no rate'}</span>
    </span>
  );
}

export function RatesNote({ page }: { page: ConversionPage }) {
  const foreign = page.conversions.some((row) => row.value_cents && row.currency !== page.display_currency);
  if (!foreign) return null;
  return (
    <>
      <p className="muted small rates-note">
        Amounts sent in another currency are converted to {page.display_currency} at the European Central Bank
        rate of their day (or the latest earlier one); the day is shown beside each.
      </p>
      {page.rates_stale && (
        <p className="notice warn small" role="status">
          {page.rates_as_of
            ? `Exchange rates are out of date: the newest stored ECB rate is from ${formatDay(page.rates_as_of, true)}, more than 7 days ago.`
            : 'No exchange rates are stored, so amounts in other currencies are not converted.'}{' '}
          Give the server internet access (<code>RATES_URL</code>) or load a file with{' '}
          <code>npm run rates:import -- FILE</code>.
        </p>
      )}
    </>
  );
}
