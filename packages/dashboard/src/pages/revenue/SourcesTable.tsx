/** Revenue per credited source under one model: conversions, paid, refunded and net, AI sources marked. */
import type { RevenueReport } from '../../api/revenue';
import { BarList } from '../../components/BarList';
import { formatMajor } from '../../lib/format';
import { creditedSource } from '../../lib/names';

const formatShare = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

export function SourcesTable({ report }: { report: RevenueReport }) {
  if (report.sources.length === 0) {
    return (
      <p className="panel-empty">
        No payments in this range. Payments sent to <code>/v1/server/payments</code> appear here once
        attributed.
      </p>
    );
  }
  const money = (amount: number) => formatMajor(amount, report.currency);
  // On a phone the conversions and refunded columns give way to the name, paid and net (styles.css).
  return (
    <div className="sources-table">
      <BarList
        caption="Revenue by source"
        columns={['Source', 'Conversions', 'Paid', 'Refunded', 'Net']}
        rows={report.sources.map((row) => {
          const { name, ai } = creditedSource(row.source);
          return {
            key: row.source,
            name: (
              <>
                <span className="name">{name}</span>
                {ai && <span className="badge">AI</span>}
              </>
            ),
            ai,
            value: Math.max(0, row.net),
            figures: [formatShare(row.conversions), money(row.gross), money(row.refunded), money(row.net)],
          };
        })}
      />
    </div>
  );
}
