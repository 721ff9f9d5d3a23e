/** The figures of the funnel as last run, over the view's range. */
import { type FunnelQuery, useFunnelReport } from '../../api/funnels';
import { EmptyState, ErrorState, SkeletonRows } from '../../components/States';
import { formatDay } from '../../lib/format';
import { FunnelSteps } from './FunnelSteps';

export function FunnelReportCard({ query, stale }: { query: FunnelQuery | null; stale: boolean }) {
  const report = useFunnelReport(query);
  return (
    <section className="card funnel-report" aria-labelledby="funnel-report" aria-busy={report.isFetching}>
      <div className="panel-head">
        <h2 id="funnel-report">Report</h2>
        <span className="spacer" />
        {report.data && (
          <span className="muted small">
            Step 1 from {formatDay(report.data.meta.date_range[0] ?? '', true)} to{' '}
            {formatDay(report.data.meta.date_range[1] ?? '', true)}
          </span>
        )}
      </div>
      {stale && report.data && (
        <p className="notice small">
          The steps changed since this report: run the funnel again to update it.
        </p>
      )}
      {query === null ? (
        <EmptyState title="Run the funnel to see its figures">
          <p className="muted">Set at least two steps above, then choose “Run the funnel”.</p>
        </EmptyState>
      ) : report.isError ? (
        <ErrorState error={report.error} retry={() => report.refetch()} />
      ) : !report.data ? (
        <SkeletonRows rows={4} />
      ) : (
        <>
          {report.data.steps[0]?.visitors === 0 && (
            <p className="notice small">
              Nobody reached step 1 in this range. Check the first step, or choose a longer range.
            </p>
          )}
          <FunnelSteps steps={report.data.steps} />
        </>
      )}
    </section>
  );
}
