/**
 * Money shown in the site's currency and, when it was sent in another, in its own beside it,
 * with the day of the ECB rate that converted it; and the listing's note on how fresh the
 * stored rates are (an offline server keeps converting at its newest one).
 */
import type { ConversionPage, ConversionRow } from '../../api/revenue';
import { formatDay, formatMajor, formatMoney } from '../../lib/format';

export function ConvertedValue({ row, displayCurrency }: { row: ConversionRow; displayCurrency: string }) {
  if (!row.value_cents) return <>—</>;
  const original = formatMoney(row.value_cents, row.currency);
  if (row.currency === displayCurrency) return <>{original}</>;
  return (
    <span className="converted">
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
