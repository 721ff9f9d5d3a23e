/** Each crawler seen: who runs it, what for, its hits, how many were verified and how many spoofed. */
import type { CrawlerReport } from '../../api/ai';
import { formatCount } from '../../lib/format';
import { capitalized } from '../../lib/names';

export function CrawlerTable({ report }: { report: CrawlerReport }) {
  if (report.crawlers.length === 0) {
    return (
      <p className="panel-empty">
        No crawler hits yet. They are reported by the server middleware of <code>@touchtrail/node</code> (or
        your own code) with a bot token from Account → Bot tokens.
      </p>
    );
  }
  return (
    <div className="table-scroll">
      <table className="data">
        <caption className="visually-hidden">AI crawlers</caption>
        <thead>
          <tr>
            <th scope="col">Crawler</th>
            <th scope="col" className="secondary">
              Operator
            </th>
            <th scope="col" className="secondary">
              Purpose
            </th>
            <th scope="col" className="num">
              Hits
            </th>
            <th scope="col" className="num">
              Verified
            </th>
            <th scope="col" className="num">
              Spoofed
            </th>
          </tr>
        </thead>
        <tbody>
          {report.crawlers.map((row) => (
            <tr key={row.crawler}>
              <th scope="row">{row.crawler}</th>
              <td className="secondary">{row.operator}</td>
              <td className="secondary">{capitalized(row.purpose)}</td>
              <td className="num">{formatCount(row.hits)}</td>
              <td className="num">{formatCount(row.verified_hits)}</td>
              <td className="num">
                {row.spoofed_hits > 0 ? <strong>{formatCount(row.spoofed_hits)}</strong> : 0}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
