/** Per page: AI crawler hits beside the visits assistants sent and what those visits earned. */
import { useState } from 'react';
import { useAiVisibility } from '../../api/ai';
import type { AttributionModel } from '../../api/types';
import { ErrorState, SkeletonRows } from '../../components/States';
import { formatCount, formatMoney } from '../../lib/format';

export function VisibilityTable({
  siteId,
  window,
  model,
}: {
  siteId: string;
  window: { from: string; to: string };
  model: AttributionModel | undefined;
}) {
  const [notVisited, setNotVisited] = useState(false);
  const report = useAiVisibility(siteId, window, model, notVisited);
  return (
    <section className="card" aria-label="Pages" style={{ marginTop: '1rem' }}>
      <div className="panel-head">
        <h2>Pages: crawled, visited, converted</h2>
        <span className="spacer" />
        <label className="check">
          <input type="checkbox" checked={notVisited} onChange={(e) => setNotVisited(e.target.checked)} />
          Only pages crawled that no assistant sent visits to
        </label>
      </div>
      {report.isPending ? (
        <SkeletonRows rows={5} />
      ) : report.isError ? (
        <ErrorState error={report.error} retry={() => report.refetch()} />
      ) : report.data.pages.length === 0 ? (
        <p className="panel-empty">No page was crawled by AI or visited from an assistant in this range.</p>
      ) : (
        <div className="table-scroll">
          <table className="data">
            <caption className="visually-hidden">
              AI crawler hits, AI visits, conversions and revenue per page
            </caption>
            <thead>
              <tr>
                <th scope="col">Page</th>
                <th scope="col" className="num">
                  Crawler hits
                </th>
                <th scope="col" className="num">
                  AI visits
                </th>
                <th scope="col" className="num secondary">
                  Conversions
                </th>
                <th scope="col" className="num">
                  Net revenue
                </th>
              </tr>
            </thead>
            <tbody>
              {report.data.pages.map((row) => (
                <tr key={row.page}>
                  <th scope="row" className="mono wrap">
                    {row.page}
                  </th>
                  <td className="num">{formatCount(row.crawler_hits.total)}</td>
                  <td className="num">{formatCount(row.ai_visits.total)}</td>
                  <td className="num secondary">{formatCount(row.conversions)}</td>
                  <td className="num">{formatMoney(row.revenue_net_cents, report.data.meta.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
