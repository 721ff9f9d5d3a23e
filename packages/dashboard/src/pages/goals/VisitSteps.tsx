/** The pages and events of one visit, in time order, read when the visit is opened. */
import { useSessionTrail } from '../../api/people';
import { ErrorState, SkeletonRows } from '../../components/States';
import { formatDuration, formatMoney } from '../../lib/format';

const timeOf = (iso: string) =>
  new Date(iso).toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' });

export function VisitSteps({ siteId, visitId }: { siteId: string; visitId: string }) {
  const session = useSessionTrail(siteId, visitId, true);
  if (session.isError) return <ErrorState error={session.error} retry={() => session.refetch()} />;
  if (!session.data) return <SkeletonRows rows={3} />;
  return (
    <ol className="visit-steps" aria-label="Pages and events of the visit">
      {session.data.trail.map((step, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: steps are in time order and never move
        <li key={i}>
          <span className="muted">{timeOf(step.timestamp)}</span>
          {step.type === 'pageview' ? (
            <span className="mono">{step.page}</span>
          ) : (
            <span>
              <strong>{step.name}</strong>
              {step.value_cents !== null &&
                step.currency &&
                ` · ${formatMoney(step.value_cents, step.currency)}`}
            </span>
          )}
          {step.time_on_page_sec !== null && (
            <span className="muted">{formatDuration(step.time_on_page_sec)}</span>
          )}
        </li>
      ))}
      {session.data.trail_truncated && <li className="muted">Only the first 1,000 steps are shown.</li>}
    </ol>
  );
}
