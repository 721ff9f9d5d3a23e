/** Per AI operator, the loop from crawling to revenue: pages fetched → assistant visits → conversions → net. */
import type { CrawlerReport } from '../../api/ai';
import { formatCount, formatMajor } from '../../lib/format';
import { assistantName } from '../../lib/names';

export function OperatorLoop({ report }: { report: CrawlerReport }) {
  if (report.operators.length === 0)
    return <p className="panel-empty">No AI operator crawled the site or sent visits in this range.</p>;
  return (
    <div className="table-scroll">
      <table className="data">
        <caption className="visually-hidden">From crawling to revenue, per AI operator</caption>
        <thead>
          <tr>
            <th scope="col">Operator</th>
            <th scope="col" className="num">
              Crawler hits
            </th>
            <th scope="col" className="num secondary">
              Pages fetched
            </th>
            <th scope="col" className="num secondary">
              Assistant visits
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
          {report.operators.map((row) => (
            <tr key={row.operator}>
              <th scope="row">
                {row.operator}
                {row.assistants.length > 0 && (
                  <div className="muted small">{row.assistants.map(assistantName).join(', ')}</div>
                )}
              </th>
              <td className="num">{formatCount(row.hits)}</td>
              <td className="num secondary">{formatCount(row.pages_fetched)}</td>
              <td className="num secondary">{formatCount(row.assistant_visits)}</td>
              <td className="num secondary">{formatCount(row.conversions)}</td>
              <td className="num">{formatMajor(row.net, report.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
