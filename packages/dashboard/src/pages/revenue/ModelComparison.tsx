/** Net revenue per source under all four models at once, so a person sees how much the model matters. */
import { useQueries } from '@tanstack/react-query';
import { api, unwrap } from '../../api/http';
import type { RevenueReport } from '../../api/revenue';
import { ErrorState, SkeletonRows } from '../../components/States';
import { formatMajor } from '../../lib/format';
import { creditedSource } from '../../lib/names';
import { MODELS } from '../../lib/view-state';

export function ModelComparison({
  siteId,
  window,
}: {
  siteId: string;
  window: { from: string; to: string };
}) {
  const reports = useQueries({
    queries: MODELS.map((model) => ({
      queryKey: ['revenue', siteId, window, model.key],
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        unwrap(
          api.GET('/v1/revenue', {
            params: { query: { site_id: siteId, ...window, attribution_model: model.key } },
            signal,
          }),
        ),
      staleTime: 60_000,
    })),
  });
  const failed = reports.find((r) => r.isError);
  if (failed)
    return (
      <ErrorState
        error={failed.error}
        retry={() => {
          for (const report of reports) report.refetch();
        }}
      />
    );
  if (reports.some((r) => !r.data)) return <SkeletonRows rows={5} />;
  const loaded = reports.map((r) => r.data as RevenueReport);
  const currency = loaded[0]?.currency ?? 'USD';
  const sources = [...new Set(loaded.flatMap((report) => report.sources.map((s) => s.source)))];
  const netOf = (report: RevenueReport, source: string) =>
    report.sources.find((s) => s.source === source)?.net ?? 0;
  sources.sort((a, b) => netOf(loaded[1] as RevenueReport, b) - netOf(loaded[1] as RevenueReport, a));
  if (sources.length === 0) return <p className="panel-empty">No payments in this range.</p>;
  return (
    <div className="table-scroll">
      <table className="data">
        <caption className="visually-hidden">Net revenue per source under each attribution model</caption>
        <thead>
          <tr>
            <th scope="col">Source</th>
            {MODELS.map((model) => (
              <th scope="col" className="num" key={model.key}>
                {model.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sources.map((source) => {
            const { name, ai } = creditedSource(source);
            return (
              <tr key={source}>
                <th scope="row">
                  {name} {ai && <span className="badge">AI</span>}
                </th>
                {loaded.map((report, i) => (
                  <td className="num" key={MODELS[i]?.key}>
                    {formatMajor(netOf(report, source), currency)}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
